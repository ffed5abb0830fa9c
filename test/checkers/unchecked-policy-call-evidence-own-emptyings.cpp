// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A function's own emptyings of a member are no evidence against its own
// calls through it: its flow analysis follows them to the call on every
// path within one run (a loop's next iteration included). One that runs
// after the call, the one-shot callback (`_cb(exe); _cb = nullptr;`, under
// an atomic flag in ZLToolKit, once per task object in kaldi), reaches it
// only in a second run on the same object, which nothing shows. StrictMode
// still reports on the emptying.

#include <atomic>
#include <functional>
#include <utility>

using Cb = std::function<void(int)>;

// ZLToolKit's onGetExecutorCB.
struct OnExecutor {
  explicit OnExecutor(Cb cb) : cb_(std::move(cb)) {}
  void operator()(int exe) {
    bool expected = false;
    if (done_.compare_exchange_strong(expected, true)) {
      cb_(exe);
      // CHECK-NOTES-STRICT: :[[@LINE-1]]:7: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-2]]:7: note: 'OnExecutor::cb_' is made empty in 'OnExecutor::operator()' ({{.*}}.cpp:[[@LINE+1]])
      cb_ = nullptr;
    }
  }
  Cb cb_;
  std::atomic<bool> done_{false};
};

// kaldi's TaskSequencer: each task object runs once, then drops its task.
struct TaskArgs {
  Cb task;
  int id = 0;
};
void *run_task(TaskArgs *args) {
  args->task(args->id);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'args->task' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: note: 'TaskArgs::task' is made empty in 'run_task' ({{.*}}.cpp:[[@LINE+1]])
  args->task = nullptr;
  return nullptr;
}

// Emptied by another function that the project calls: evidence.
struct Timer {
  explicit Timer(Cb cb) : cb_(std::move(cb)) {}
  void fire(int n) { cb_(n); }
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: 'Timer::cb_' is made empty in 'Timer::cancel' ({{.*}}.cpp:[[@LINE+3]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:22: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:22: note: 'Timer::cb_' is made empty in 'Timer::cancel' ({{.*}}.cpp:[[@LINE+1]])
  void cancel() { cb_ = nullptr; }
  Cb cb_;
};

// Emptied in the same function, before the call on a path, or by the
// loop's previous iteration: the flow analysis finds it.
struct Drain {
  explicit Drain(Cb cb) : cb_(std::move(cb)) {}
  void once_more(bool stop, int n) {
    if (stop)
      cb_ = nullptr;
    cb_(n);
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: note: 'Drain::cb_' is made empty in 'Drain::once_more' ({{.*}}.cpp:[[@LINE-3]])
  }
  void each(int n) {
    for (int i = 0; i < n; ++i) {
      cb_(i);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: 'Drain::cb_' is made empty in 'Drain::once_more' ({{.*}}.cpp:[[@LINE-9]])
      // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'Drain::cb_' is made empty in 'Drain::once_more' ({{.*}}.cpp:[[@LINE-11]])
      cb_ = nullptr;
    }
  }
  Cb cb_;
};

// The same for a value passed on by moving out of the member (libtorrent's
// `wrap_allocator_t`, `m_handler(a, std::move(m_underlying_handler))`): the
// callee is passed what the member held, and the move empties it after.
void on_lookup(int ec, Cb handler) {
  if (ec) {
    handler(-1); // no-warning
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'handler' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: note: 'handler' of 'on_lookup' is passed a value from 'Wrap::under_' in 'Wrap::operator()' ({{.*}}.cpp:[[@LINE+11]])
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:5: note: 'Wrap::under_' is made empty in 'Wrap::operator()' ({{.*}}.cpp:[[@LINE+10]])
    return;
  }
  handler(ec); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'handler' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: note: 'handler' of 'on_lookup' is passed a value from 'Wrap::under_' in 'Wrap::operator()' ({{.*}}.cpp:[[@LINE+5]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: note: 'Wrap::under_' is made empty in 'Wrap::operator()' ({{.*}}.cpp:[[@LINE+4]])
}
struct Wrap {
  explicit Wrap(Cb u) : under_(std::move(u)) {}
  void operator()(int ec) { on_lookup(ec, std::move(under_)); }
  Cb under_;
};

// True neighbours: a second move out of the member passes its moved-from
// value; another function that empties it is evidence for a third.
void on_reply(int ec, Cb handler) { handler(ec); }
// CHECK-NOTES: :[[@LINE-1]]:37: warning: call through possibly empty callable 'handler' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:37: note: 'handler' of 'on_reply' is passed an empty callable in 'Twice::operator()' ({{.*}}.cpp:[[@LINE+7]])
// CHECK-NOTES-STRICT: :[[@LINE-3]]:37: warning: call through possibly empty callable 'handler' [wrapguard-unchecked-policy-call]
// CHECK-NOTES-STRICT: :[[@LINE-4]]:37: note: 'handler' of 'on_reply' is passed an empty callable in 'Twice::operator()' ({{.*}}.cpp:[[@LINE+5]])
struct Twice {
  explicit Twice(Cb u) : under_(std::move(u)) {}
  void operator()(int ec) {
    on_reply(ec, std::move(under_));
    on_reply(ec, std::move(under_));
  }
  Cb under_;
};
void on_close(int ec, Cb handler) { handler(ec); }
// CHECK-NOTES: :[[@LINE-1]]:37: warning: call through possibly empty callable 'handler' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:37: note: 'handler' of 'on_close' is passed a value from 'Closing::under_' in 'Closing::operator()' ({{.*}}.cpp:[[@LINE+7]])
// CHECK-NOTES: :[[@LINE-3]]:37: note: 'Closing::under_' is made empty in 'Closing::close' ({{.*}}.cpp:[[@LINE+7]])
// CHECK-NOTES-STRICT: :[[@LINE-4]]:37: warning: call through possibly empty callable 'handler' [wrapguard-unchecked-policy-call]
// CHECK-NOTES-STRICT: :[[@LINE-5]]:37: note: 'handler' of 'on_close' is passed a value from 'Closing::under_' in 'Closing::operator()' ({{.*}}.cpp:[[@LINE+4]])
// CHECK-NOTES-STRICT: :[[@LINE-6]]:37: note: 'Closing::under_' is made empty in 'Closing::operator()' ({{.*}}.cpp:[[@LINE+3]])
struct Closing {
  explicit Closing(Cb u) : under_(std::move(u)) {}
  void operator()(int ec) { on_close(ec, std::move(under_)); }
  void close() { under_ = nullptr; }
  Cb under_;
};
void lookup(Wrap &w, Twice &t, Closing &c, int ec) {
  w(ec);
  t(ec);
  c(ec);
  c.close();
}

void stop(Timer &t) { t.cancel(); }
void tick(Timer &t) { t.fire(1); }

void use(TaskArgs *args) {
  OnExecutor on([](int) {});
  on(1);
  run_task(args);
  Drain d([](int) {});
  d.once_more(false, 1);
  d.each(2);
}
