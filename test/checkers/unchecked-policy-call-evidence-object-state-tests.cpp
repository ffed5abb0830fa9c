// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A call made only under a test of another state of the same object (a
// member as a truth value or compared with null, or a `bool` method of the
// object called without arguments) runs in the mode the author chose. What
// the project does to the field elsewhere (an emptying, a set only after
// construction, a test) does not say which mode leaves it empty, so the
// default mode stays quiet; StrictMode reports. A construction in the
// calling function and a run-time loader's result still decide, and
// comparisons with other values (`n_ > 0`) select no mode. Each hard
// negative has a true neighbour.

#include <functional>
#include <memory>

using Fn = std::function<void()>;
static void free_int(void *p) { delete static_cast<int *>(p); }

// Hard negative: members set together, the call under a test of the other
// (dlib's `storage_heap`: `if (ptr) del(ptr);`).
struct Storage {
  void adopt(void *p, void (*d)(void *)) {
    ptr = p;
    del = d;
  }
  void clear() {
    ptr = nullptr;
    del = nullptr;
  }
  void dispose() {
    if (del)
      del(ptr);
    ptr = nullptr;
  }
  ~Storage() {
    if (ptr)
      del(ptr); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:7: warning: call through possibly empty callable 'del' [wrapguard-unchecked-policy-call]
  }
  void *ptr = nullptr;
  void (*del)(void *) = nullptr;
};
void use_storage() {
  Storage s;
  s.adopt(new int(1), &free_int);
  s.clear();
  s.dispose();
}

// True neighbour: the test is of another object's member.
struct Pair {
  void *ptr = nullptr;
  void (*del)(void *) = nullptr;
  void clear() { del = nullptr; }
};
void release(Pair &a, const Pair &b) {
  if (b.ptr)
    a.del(b.ptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'a.del' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'a.del' [wrapguard-unchecked-policy-call]
}
void reset_pair(Pair &p) { p.clear(); }

// A sibling callable's test is the correlated-slot rule's
// (-sources-correlated-slots.cpp): where the slots are assigned rather than
// constructed, it proves nothing, and the call is found.
struct Meta {
  void (*on_error)(int) = nullptr;
  void (*on_error2)(int, void *) = nullptr;
};
static void err1(int) {}
static void err2(int, void *) {}
void configure(Meta *m, bool two) {
  if (two) {
    m->on_error = nullptr;
    m->on_error2 = &err2;
  } else {
    m->on_error = &err1;
    m->on_error2 = nullptr;
  }
}
bool has_error2(const Meta *m) { return m->on_error2 != nullptr; }
void fail(Meta *m) {
  if (m->on_error)
    m->on_error(1);
  else
    m->on_error2(1, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'm->on_error2' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'm->on_error2' [wrapguard-unchecked-policy-call]
}

// Hard negative: a `bool` method of the object and a smart pointer member
// select the mode (AMQP-CPP's deferred consumer: the message exists only
// while a callback is installed).
class Consumer {
public:
  void install(Fn f) {
    message_ = std::make_unique<int>(0);
    cb_ = std::move(f);
  }
  void stop() {
    cb_ = nullptr;
    message_.reset();
  }
  bool active() const { return message_ != nullptr; }
  void notify() {
    if (cb_)
      cb_();
  }
  void deliver() {
    if (message_)
      cb_(); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:7: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  }
  void redeliver() {
    if (!active())
      return;
    cb_(); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  }
  // True neighbour: a count selects no mode.
  void flush() {
    if (pending_ > 0)
      cb_();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:7: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  }

private:
  std::unique_ptr<int> message_;
  Fn cb_;
  int pending_ = 0;
};
void consume(Consumer &c) {
  c.install([] {});
  c.stop();
  c.deliver();
  c.flush();
  c.notify();
}

// True neighbour: a run-time loader's result, which a test of the library
// handle does not check.
extern "C" void *dlopen(const char *, int);
extern "C" void *dlsym(void *, const char *);
typedef int (*init_fn)(int);
struct Lib {
  void *handle = nullptr;
  init_fn init = nullptr;
};
void load(Lib &lib) {
  lib.handle = dlopen("libx.so", 0);
  lib.init = (init_fn)dlsym(lib.handle, "x_init");
}
int start(Lib &lib) {
  if (lib.handle)
    return lib.init(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'lib.init' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:12: warning: call through possibly empty callable 'lib.init' [wrapguard-unchecked-policy-call]
  return 0;
}
