// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// An emptying is evidence where it runs. One inside a method that runs only
// when something calls it (not virtual, not a constructor, destructor or
// operator) counts in the default mode only where the project calls that
// method or takes its address: a public `ClearHandler()` that no code of the
// project runs says nothing about the calls (evpp's event watchers: every
// watcher is made with a handler, the libevent callbacks call it, and only
// `ClearHandler` empties it). StrictMode counts every emptying. Each hard
// negative has a true neighbour.

#include <functional>
#include <utility>

using Handler = std::function<void()>;

// Hard negative: nothing calls ClearHandler.
class Watcher {
public:
  explicit Watcher(Handler h) : handler_(std::move(h)) {}
  void ClearHandler() { handler_ = Handler(); }
  static void OnEvent(Watcher *w) {
    w->handler_(); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'w->handler_' [wrapguard-unchecked-policy-call]
  }

private:
  Handler handler_;
};

void watch() {
  Watcher w([] {});
  Watcher::OnEvent(&w);
}

// True neighbour: the project calls the emptying method.
class Timer {
public:
  explicit Timer(Handler h) : handler_(std::move(h)) {}
  void Cancel() { handler_ = nullptr; }
  static void OnFire(Timer *t) {
    t->handler_();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 't->handler_' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 't->handler_' [wrapguard-unchecked-policy-call]
  }

private:
  Handler handler_;
};

void fire_after_cancel() {
  Timer t([] {});
  t.Cancel();
  Timer::OnFire(&t);
}

// True neighbour: the emptying method's address is taken, so it runs
// wherever that pointer is called.
class Signal {
public:
  explicit Signal(Handler h) : slot_(std::move(h)) {}
  void Disconnect() { slot_ = nullptr; }
  void Emit() {
    slot_();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'slot_' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'slot_' [wrapguard-unchecked-policy-call]
  }

private:
  Handler slot_;
};

void (Signal::*on_teardown)() = &Signal::Disconnect;

// True neighbour: a virtual method runs wherever its base's is called.
struct Stream {
  virtual ~Stream() = default;
  virtual void close() = 0;
};
class StreamImpl : public Stream {
public:
  explicit StreamImpl(Handler h) : done_(std::move(h)) {}
  void close() override { done_ = nullptr; }
  void flush() {
    done_();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'done_' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'done_' [wrapguard-unchecked-policy-call]
  }

private:
  Handler done_;
};

// Hard negative: the only caller of the emptying method is the method
// itself (a call nothing else starts runs nowhere either).
class Retry {
public:
  explicit Retry(Handler h) : step_(std::move(h)) {}
  void Drop(int n) {
    step_ = nullptr;
    if (n > 0)
      Drop(n - 1);
  }
  void Run() {
    step_(); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'step_' [wrapguard-unchecked-policy-call]
  }

private:
  Handler step_;
};
