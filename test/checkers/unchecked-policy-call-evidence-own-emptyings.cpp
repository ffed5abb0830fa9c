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
