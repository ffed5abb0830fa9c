// RUN: %check_wrapguard %s %t

// A caller that hands a function an object (through a pointer or reference
// parameter, or as the object of a method) whose callable field its own flow
// analysis proves empty there is evidence for a call through that field in
// the function, when the call runs on every path through it: what the caller
// passed reaches the call as it is. The field's other evidence comes first;
// this decides where it has none (a class whose constructions differ, which
// the default mode otherwise leaves alone). Under a condition (a `switch` on
// a kind, a loop, an early return, a flag) the caller may have chosen a path
// that does not call it: no evidence. Each hard negative has a true
// neighbour.

#include <functional>

struct Ops {
  void (*run)(int);
  void (*stop)(int);
};
void set_run(int) {}

// True: one caller passes a table whose `run` it proves empty.
void exec(const Ops *o) {
  o->run(1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'o->run' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Ops' is constructed with 'Ops{}', which leaves 'Ops::run' empty, in 'use_ops' ({{.*}}.cpp:[[@LINE+29]])
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'o' of 'exec' is passed an object whose 'Ops::run' is empty, in 'use_ops' ({{.*}}.cpp:[[@LINE+29]])
}

// Hard negative: the call runs for one kind only.
void exec_kind(const Ops &o, int kind) {
  switch (kind) {
  case 0:
    o.run(1); // no-warning
    break;
  default:
    o.stop(2); // no-warning
  }
}

// Hard negative: a loop that the caller runs zero times.
void exec_loop(const Ops *o, int n) {
  for (int i = 0; i < n; ++i)
    o->run(i); // no-warning
}

// Hard negative: an early return first.
void exec_early(const Ops *o, int n) {
  if (n == 0)
    return;
  o->run(n); // no-warning
}

void use_ops() {
  Ops a{nullptr, nullptr};
  exec(&a);
  exec_kind(a, 0);
  exec_loop(&a, 0);
  exec_early(&a, 0);
  Ops b{&set_run, &set_run};
  exec(&b);
  exec_kind(b, 1);
  exec_loop(&b, 1);
  exec_early(&b, 1);
}

// True: a method called on an object that its caller made with the
// callback empty, where other objects of the class have it set.
struct Job {
  std::function<void()> done;
  void finish() { done(); }
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: call through possibly empty callable 'done' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:19: note: 'Job' is constructed with 'Job{}', which leaves 'Job::done' empty, in 'finish_empty' ({{.*}}.cpp:[[@LINE+8]])
  // CHECK-NOTES: :[[@LINE-3]]:19: note: 'Job::finish' is called on an object whose 'Job::done' is empty, in 'finish_empty' ({{.*}}.cpp:[[@LINE+8]])
};
void finish_set() {
  Job j{[] {}};
  j.finish();
}
void finish_empty() {
  Job j{nullptr};
  j.finish();
}

// Hard negative: every caller passes the object set, or one it knows
// nothing of.
struct Alarm {
  std::function<void()> ring_cb;
  void ring() { ring_cb(); } // no-warning
};
Alarm *shared_alarm();
void ring_all() {
  Alarm a{[] {}};
  a.ring();
  shared_alarm()->ring();
}
Alarm quiet_alarm() { return Alarm{nullptr}; }

// Hard negative: the method calls it only in one mode of the object.
struct Hook {
  std::function<void()> cb;
  bool armed;
  void trigger() {
    if (armed)
      cb(); // no-warning
  }
};
void trigger_both() {
  Hook off{nullptr, false};
  off.trigger();
  Hook on{[] {}, true};
  on.trigger();
}
