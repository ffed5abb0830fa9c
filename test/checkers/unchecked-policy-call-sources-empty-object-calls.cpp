// RUN: %check_wrapguard %s %t

// A class with operator() and a test of emptiness is a nullable callable
// only when calling an empty one can fail, and that is read from its
// operator()'s definition. A list of callbacks (eventpp's CallbackList) is
// "empty" when it holds none and then calls none: its moved-from object is
// empty, and calling it is harmless. The true neighbours are handles whose
// operator() fails when empty: it calls through the field its `operator
// bool` reads, throws, reaches the field through a getter, or is not seen.

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

template <typename P> class CallbackList;
template <typename R, typename... Args> class CallbackList<R(Args...)> {
  struct Node {
    std::function<R(Args...)> callback;
    std::shared_ptr<Node> next;
  };
  using NodePtr = std::shared_ptr<Node>;

public:
  CallbackList() = default;
  CallbackList(CallbackList &&other) noexcept { swap(other); }
  CallbackList &operator=(CallbackList &&other) noexcept {
    CallbackList moved(std::move(other));
    swap(moved);
    return *this;
  }
  void swap(CallbackList &other) noexcept { std::swap(head, other.head); }
  bool empty() const { return !head; }
  operator bool() const { return !empty(); }
  void append(std::function<R(Args...)> cb) {
    auto n = std::make_shared<Node>();
    n->callback = std::move(cb);
    n->next = head;
    head = n;
  }
  template <typename Func> bool forEachIf(Func &&func) const {
    return doForEachIf([&func](NodePtr &node) { return func(node->callback); });
  }
  void operator()(Args... args) const {
    forEachIf([&args...](std::function<R(Args...)> &callback) {
      callback(args...);
      return true;
    });
  }

private:
  template <typename F> bool doForEachIf(F &&f) const {
    NodePtr node;
    {
      std::lock_guard<std::mutex> lockGuard(mutex);
      node = head;
    }
    while (node) {
      if (!f(node))
        return false;
      std::lock_guard<std::mutex> lockGuard(mutex);
      node = node->next;
    }
    return true;
  }
  NodePtr head;
  mutable std::mutex mutex;
};

// Hard negative (eventpp's tests): the moved-from list is empty, and calling
// it calls no callback.
void call_moved_list() {
  CallbackList<void(int)> list;
  list.append([](int) {});
  CallbackList<void(int)> moved(std::move(list));
  list(1); // no-warning
  moved(2);
  CallbackList<void(int)> assigned;
  assigned = std::move(moved);
  moved(3); // no-warning
}

// Hard negative (oneDNN's implementation-list item): its operator() tests
// the slot its `operator bool` reads.
struct ImplItem {
  int (*create)(int) = nullptr;
  explicit operator bool() const { return create != nullptr; }
  int operator()(int x) const { return create ? create(x) : -1; }
};
int call_empty_item() {
  ImplItem item;
  return item(1); // no-warning
}

// True neighbour: a list that reaches its head without testing it.
struct Chain {
  struct Node {
    std::function<void(int)> cb;
  };
  std::shared_ptr<Node> head;
  explicit operator bool() const { return head != nullptr; }
  void operator()(int v) const { head->cb(v); }
};
void call_moved_chain() {
  Chain c{std::make_shared<Chain::Node>(Chain::Node{[](int) {}})};
  Chain other(std::move(c));
  c(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'c' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'c' is moved from here
  other(2);
}

// True neighbour: a handle that calls through its field.
class Handle {
public:
  Handle() = default;
  explicit Handle(std::function<int(int)> f) : f_(std::move(f)) {}
  explicit operator bool() const { return static_cast<bool>(f_); }
  int operator()(int x) const { return f_(x); }

private:
  std::function<int(int)> f_;
};
int call_moved_handle(std::function<int(int)> f) {
  Handle h(std::move(f));
  Handle other(std::move(h));
  return h(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'h' is moved from here
}

// True neighbour: a handle that tests its field and throws, as
// std::function does.
class Strict {
public:
  explicit Strict(std::function<int(int)> f) : f_(std::move(f)) {}
  explicit operator bool() const { return static_cast<bool>(f_); }
  int operator()(int x) const {
    if (!f_)
      throw std::runtime_error("empty handle");
    return f_(x);
  }

private:
  std::function<int(int)> f_;
};
int call_moved_strict(std::function<int(int)> f) {
  Strict s(std::move(f));
  Strict other(std::move(s));
  return s(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 's' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 's' is moved from here
}

// True neighbour: a handle that reaches its implementation through a getter.
struct Impl {
  int run(int x) { return x; }
};
class Packed {
public:
  Packed() = default;
  explicit Packed(Impl *p) : impl_(p) {}
  Packed(Packed &&o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
  explicit operator bool() const { return impl_ != nullptr; }
  int operator()(int x) const { return get()->run(x); }

private:
  Impl *get() const { return impl_; }
  Impl *impl_ = nullptr;
};
int call_moved_packed(Impl *impl) {
  Packed p(impl);
  Packed other(std::move(p));
  return p(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'p' is moved from here
}

// True neighbour: a handle whose operator() is declared only.
class Opaque {
public:
  explicit Opaque(std::function<int(int)> f) : f_(std::move(f)) {}
  explicit operator bool() const { return static_cast<bool>(f_); }
  int operator()(int x) const;

private:
  std::function<int(int)> f_;
};
int call_moved_opaque(std::function<int(int)> f) {
  Opaque o(std::move(f));
  Opaque other(std::move(o));
  return o(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'o' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'o' is moved from here
}

// An operator() that reaches its test through a virtual method
// (libdatachannel's synchronized callbacks, set from a C API that passes
// nullptr for "no callback"): the method that runs is the object's class's
// overrider. A final class whose override calls the base's by name, and
// keeps the arguments in a std::optional (emplace does not dereference it),
// is harmless too; so is the base, held by value. The mutex that `operator
// bool` locks is no field whose emptiness it tests. Nothing here constructs
// a Channel, so the overrides are not instantiated: their patterns are read.
template <typename... Args> class SyncCallback {
public:
  SyncCallback() = default;
  virtual ~SyncCallback() = default;
  SyncCallback &operator=(std::function<void(Args...)> f) {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    callback = std::move(f);
    return *this;
  }
  bool operator()(Args... args) const {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    return call(args...);
  }
  operator bool() const {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    return callback ? true : false;
  }

protected:
  virtual bool call(Args... args) const {
    if (!callback)
      return false;
    callback(args...);
    return true;
  }
  std::function<void(Args...)> callback;
  mutable std::recursive_mutex mutex;
};
template <typename... Args>
class StoredCallback final : public SyncCallback<Args...> {
public:
  using SyncCallback<Args...>::operator=;

private:
  bool call(Args... args) const override {
    if (!SyncCallback<Args...>::call(args...))
      stored.emplace(args...);
    return true;
  }
  mutable std::optional<std::tuple<Args...>> stored;
};
// The true neighbour: a final override that calls without the test.
template <typename... Args>
class UncheckedCallback final : public SyncCallback<Args...> {
public:
  using SyncCallback<Args...>::operator=;

private:
  bool call(Args... args) const override {
    this->callback(args...);
    return true;
  }
};
struct Channel {
  StoredCallback<> openCallback;
  SyncCallback<int> errorCallback;
  UncheckedCallback<> closedCallback;
  void onOpen(std::function<void()> f) { openCallback = std::move(f); }
  void onError(std::function<void(int)> f) { errorCallback = std::move(f); }
  void onClosed(std::function<void()> f) { closedCallback = std::move(f); }
  void triggerOpen() { openCallback(); }      // no-warning
  void triggerError(int e) { errorCallback(e); } // no-warning
  void triggerClosed() { closedCallback(); }
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: call through possibly empty callable 'closedCallback' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:26: note: 'Channel::closedCallback' is assigned a value from 'f' in 'Channel::onClosed' ({{.*}}.cpp:[[@LINE-5]])
  // CHECK-NOTES: :[[@LINE-3]]:26: note: 'f' of 'Channel::onClosed' is passed an empty callable in 'set_callbacks' ({{.*}}.cpp:[[@LINE+5]])
};
void set_callbacks(Channel &c, void (*cb)()) {
  c.onOpen(cb ? std::function<void()>(cb) : nullptr);
  c.onError(nullptr);
  c.onClosed(nullptr);
}
