// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A call under a test of the very expression it calls through is guarded
// by it, even where the flow analysis does not follow the callable's
// storage (a member of a member reached through a pointer member of
// `this`), when nothing between the test and the call may change it (no
// call, assignment or increment). Without this, the guarding test itself
// read as the project's belief that the value may be empty, and the note
// suggested the test the code already has (marl's worker initializer).

#include <functional>

struct Config {
  std::function<void(int)> initializer;
};
struct Scheduler {
  Config cfg;
};
void reconfigure(Scheduler *s);

struct Worker {
  Scheduler *scheduler = nullptr;
  Scheduler *other = nullptr;
  int id = 0;

  void start() {
    if (auto const &init = scheduler->cfg.initializer) { // (marl)
      init(id); // no-warning
    }
  }
  void start_plain() {
    if (scheduler->cfg.initializer)
      scheduler->cfg.initializer(id); // no-warning
  }
  void start_early_exit() {
    if (!scheduler->cfg.initializer)
      return;
    scheduler->cfg.initializer(id); // no-warning
  }

  // True neighbours: a call between the test and the call may change it,
  // and a test of another object does not guard this one.
  void start_after_reconfigure() {
    if (scheduler->cfg.initializer) {
      reconfigure(scheduler);
      scheduler->cfg.initializer(id);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:29)
      // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:29)
    }
  }
  void start_other() {
    if (other->cfg.initializer)
      scheduler->cfg.initializer(id);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'scheduler->cfg.initializer' is not empty before this call, e.g. 'if (scheduler->cfg.initializer)'
    // CHECK-NOTES: :[[@LINE-3]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:29)
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: check that 'scheduler->cfg.initializer' is not empty before this call, e.g. 'if (scheduler->cfg.initializer)'
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:29)
  }
};
