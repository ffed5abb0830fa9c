// RUN: %check_wrapguard %s %t

// A callable member reached through a std::shared_ptr or std::unique_ptr
// (`p->f`, `(*p).f`, `p.get()->f`): each access is a call of the smart
// pointer's operator, and while nothing changes the smart pointer they all
// denote one object, so a test of the member guards the call through it
// (trantor's `if (ptr && ptr->connectionErrorCallback_)
// ptr->connectionErrorCallback_();` in a lambda that locked a weak_ptr).
// Each hard negative has a true neighbour.

#include <functional>
#include <memory>

struct Client : std::enable_shared_from_this<Client> {
  std::function<void()> onError;
  void guarded();
  void in_lambda();
  void through_star();
  void through_get();
  void unique(std::unique_ptr<Client> u);
  void unguarded();
  void reassigned(std::shared_ptr<Client> other);
  void reset_between();
};
// The belief that makes the unguarded neighbours findings: the member is
// tested elsewhere.
void report(Client &c) {
  if (c.onError)
    c.onError();
}

void Client::guarded() {
  std::shared_ptr<Client> p = shared_from_this();
  if (p && p->onError)
    p->onError(); // no-warning
}

void Client::in_lambda() {
  std::weak_ptr<Client> w = shared_from_this();
  auto on_fail = [w]() {
    auto p = w.lock();
    if (p && p->onError)
      p->onError(); // no-warning
  };
  on_fail();
}

void Client::through_star() {
  auto p = shared_from_this();
  if ((*p).onError)
    p->onError(); // no-warning
}

void Client::through_get() {
  auto p = shared_from_this();
  if (p.get()->onError)
    (*p).onError(); // no-warning
}

void Client::unique(std::unique_ptr<Client> u) {
  if (u->onError)
    u->onError(); // no-warning
}

void Client::unguarded() {
  auto p = shared_from_this();
  p->onError();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'p->onError' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'p->onError' is not empty before this call, e.g. 'if (p->onError)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Client::onError' is checked for emptiness in 'report' ({{.*}}.cpp:28)
}

// The smart pointer changes between the test and the call: another object.
void Client::reassigned(std::shared_ptr<Client> other) {
  auto p = shared_from_this();
  if (p->onError) {
    p = other;
    p->onError();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'p->onError' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'p->onError' is not empty before this call, e.g. 'if (p->onError)'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Client::onError' is checked for emptiness in 'report' ({{.*}}.cpp:28)
  }
}

Client *open_client();
void Client::reset_between() {
  std::unique_ptr<Client> u(open_client());
  if (u->onError) {
    u.reset(open_client());
    u->onError();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'u->onError' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'u->onError' is not empty before this call, e.g. 'if (u->onError)'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Client::onError' is checked for emptiness in 'report' ({{.*}}.cpp:28)
  }
}

// A callee that takes the smart pointer by non-const reference may make it
// point elsewhere.
void reopen(std::shared_ptr<Client> &p);
void reopened(std::shared_ptr<Client> p) {
  if (p->onError) {
    reopen(p);
    p->onError();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'p->onError' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'p->onError' is not empty before this call, e.g. 'if (p->onError)'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Client::onError' is checked for emptiness in 'report' ({{.*}}.cpp:28)
  }
}
// By const reference it cannot.
void inspect(const std::shared_ptr<Client> &p);
void inspected(std::shared_ptr<Client> p) {
  if (p->onError) {
    inspect(p);
    p->onError(); // no-warning
  }
}

// Reset after the call: the test before it still guards it (libhv's
// `if (task && task->cb) task->cb(resp); task = NULL;`).
struct Request {
  std::function<void(int)> done;
};
struct Context {
  std::shared_ptr<Request> req;
  void finish(int r) {
    if (req && req->done)
      req->done(r); // no-warning
    req = nullptr;
  }
};

// Set on one path only, then read after the join: the object the branch
// reached keeps its fields there, and a test of one guards the call after
// it (libhv's `EventLoop::onTimer`: `TimerPtr timer = NULL; if (found) {
// timer = it->second; --timer->repeat; } if (timer) { if (timer->cb)
// timer->cb(id); }`). The true neighbour calls outside the test.
struct Timer {
  std::function<void(int)> cb;
  unsigned repeat = 0;
};
void on_timer(std::shared_ptr<Timer> found) {
  std::shared_ptr<Timer> timer = nullptr;
  if (found) {
    timer = found;
    --timer->repeat;
  }
  if (timer) {
    if (timer->cb)
      timer->cb(1); // no-warning
    timer->cb(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'timer->cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'timer->cb' is not empty before this call, e.g. 'if (timer->cb)'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Timer::cb' is checked for emptiness in 'on_timer' ({{.*}}.cpp:[[@LINE-5]])
  }
}

// A smart pointer of the project's own (duckdb's `optional_ptr<T>`): an
// `operator->`, `operator*` or `get()` whose body returns its pointer member
// and writes nothing of the object denotes one object while nothing changes
// the smart pointer, as std::shared_ptr's do.
template <class T> class optional_ptr {
public:
  optional_ptr() : ptr(nullptr) {}
  void check() const {
    if (!ptr)
      throw 1;
  }
  T *operator->() {
    check();
    return ptr;
  }
  T &operator*() {
    check();
    return *ptr;
  }
  explicit operator bool() const { return ptr != nullptr; }

private:
  T *ptr;
};
struct Setting {
  std::function<int(int)> get_setting;
};
bool find_setting(int key, optional_ptr<Setting> &out);
int setting_value(int key) {
  optional_ptr<Setting> option;
  find_setting(key, option);
  if (option && option->get_setting)
    return option->get_setting(key); // no-warning
  return 0;
}
int setting_by_reference(int key) {
  optional_ptr<Setting> option;
  find_setting(key, option);
  if (option && (*option).get_setting)
    return (*option).get_setting(key); // no-warning
  return 0;
}
// True neighbour: the smart pointer changes between the test and the call.
int setting_after_change(int key) {
  optional_ptr<Setting> option;
  find_setting(key, option);
  if (option->get_setting) {
    find_setting(key + 1, option);
    return option->get_setting(key);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'option->get_setting' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'option->get_setting' is not empty before this call, e.g. 'if (option->get_setting)'
    // CHECK-NOTES: :[[@LINE-3]]:12: note: a value from 'Setting::get_setting' is checked for emptiness in 'setting_value' ({{.*}}.cpp:[[@LINE-20]])
  }
  return 0;
}

// The same where the accessor returns what another accessor of the object
// returns (gsl's `not_null`, whose `operator->() const { return get(); }`,
// as openal-soft uses it), with a call between the test and the use that
// may change anything but the smart pointer.
template <class T> class not_null {
public:
  not_null(T p) : ptr_(p) {}
  T get() const { return ptr_; }
  decltype(auto) operator->() const { return get(); }
  decltype(auto) operator*() const { return *get(); }

private:
  T ptr_;
};
struct Events {
  void (*on_event)(int) = nullptr;
};
void log_event(int);
void dispatch(not_null<Events *> const events, int e) {
  if (!events->on_event)
    return;
  log_event(e);
  events->on_event(e); // no-warning
}
void dispatch_by_reference(not_null<Events *> const events, int e) {
  if (!(*events).on_event)
    return;
  log_event(e);
  (*events).on_event(e); // no-warning
}
// A ref-counted object whose deleter is a protected base (openal-soft's
// `al::Context : intrusive_ref<Context, ContextDeleter>`): the deleter's
// call operator is no call operator of the object, so a pointer to it is
// no callable, and `not_null` to it is a smart pointer as above.
struct SessionDeleter {
  void operator()(void *p) const;
};
template <class T, class D> struct RefCounted : protected D {
  int refs = 1;
};
struct Session : RefCounted<Session, SessionDeleter> {
  void (*on_event)(int) = nullptr;
};
void dispatch_session(not_null<Session *> const session, int e) {
  if (!session->on_event)
    return;
  log_event(e);
  session->on_event(e); // no-warning
}
void use_session(Session &s) {
  if (s.on_event)
    s.on_event(0);
}

// True neighbour: the smart pointer changes between the test and the call.
void dispatch_after_change(not_null<Events *> events, Events *next, int e) {
  if (!events->on_event)
    return;
  events = not_null<Events *>(next);
  events->on_event(e);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'events->on_event' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'events->on_event' is not empty before this call, e.g. 'if (events->on_event)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Events::on_event' is checked for emptiness in 'dispatch' ({{.*}}.cpp:[[@LINE-43]])
}

// The standard library's classes are modelled by what they are: an
// iterator's `operator*` returns a pointer member too, but a range-for's
// element is the container's, and a call between the test and the use
// (here one that takes a lambda capturing by reference) changes nothing.
#include <vector>
struct Handler {
  std::function<int(int)> select;
};
std::vector<Handler> handlers = {{nullptr}};
void split_into(const char *text, const std::function<void(const char *)> &out);
int negotiate(const char *text) {
  for (const auto &entry : handlers) {
    if (entry.select) {
      std::vector<const char *> parts;
      split_into(text, [&](const char *p) { parts.push_back(p); });
      return entry.select(int(parts.size())); // no-warning
    }
  }
  return 0;
}
