// RUN: %check_wrapguard %s %t

// Captures: a lambda that captures a callable and calls it is judged by the
// captured value's state where the lambda is made. The lambda object is
// never empty, which says nothing about what it captured.

#include <functional>
#include <utility>

using Fn = std::function<int(int)>;
Fn select_step(int mode) {
  if (mode == 0)
    return nullptr;
  return [](int x) { return x; };
}

std::function<int(int)> wrapped(int mode) {
  Fn step = select_step(mode);
  return [step](int x) { return step(x); };
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through possibly empty callable 'step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:11: note: 'step' is captured here, where it may be empty
}

std::function<int(int)> by_reference(int mode) {
  Fn step = select_step(mode);
  auto call = [&step](int x) { return step(x); };
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: call through possibly empty callable 'step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:17: note: 'step' is captured here by reference, and may be empty when the lambda runs
  // CHECK-NOTES: :[[@LINE-3]]:17: note: 'step' comes from 'select_step', which returns an empty callable on some path ({{.*}}.cpp:13)
  return call;
}

Fn empty_capture() {
  Fn nothing;
  return [=](int x) { return nothing(x); };
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: call through possibly empty callable 'nothing' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: 'nothing' is captured here, where it is empty
}

// Checked where it is captured: the lambda is made only for a set value.
Fn guarded(int mode) {
  Fn step = select_step(mode);
  if (step)
    return [step](int x) { return step(x); }; // no-warning
  return [](int x) { return x; };
}

// Checked inside the lambda.
Fn checked_inside(int mode) {
  Fn step = select_step(mode);
  return [step](int x) { return step ? step(x) : x; }; // no-warning
}

// A combinator: what it calls is what its callers pass.
Fn compose(Fn f, Fn g) {
  return [f, g](int x) { return g(f(x)); };
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: 'g' is captured here, where it may be empty
  // CHECK-NOTES: :[[@LINE-3]]:33: note: check that 'g' is not empty before this call, e.g. 'if (g)'
  // CHECK-NOTES: :[[@LINE-4]]:14: note: 'g' of 'compose' is passed an empty callable in 'pipeline' ({{.*}}.cpp:64)
}
Fn pipeline() {
  Fn inc = [](int x) { return x + 1; };
  return compose(inc, nullptr);
}
// Every caller of this one passes set values.
Fn twice(Fn f) {
  return [f](int x) { return f(f(x)); }; // no-warning
}
Fn doubled() { return twice([](int x) { return 2 * x; }); }

// An init-capture (`[cb = std::move(on_done)]`) holds what it is
// initialised from, as a plain capture does: a parameter that a caller
// passes empty (transmission's announcer, whose shutdown passes `{}`).
struct Announcer {
  void announce(int event, Fn on_done) {
    auto done = [this, on_done = std::move(on_done)](int r) {
      --pending;
      return on_done(r);
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'on_done' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-4]]:24: note: 'on_done' is captured here, where it may be empty
      // CHECK-NOTES: :[[@LINE-5]]:24: note: 'on_done' of 'Announcer::announce' is passed an empty callable in 'Announcer::stop' ({{.*}}.cpp:[[@LINE+8]])
    };
    ++pending;
    queue(std::move(done));
  }
  void queue(Fn f);
  void stop() {
    announce(2, [](int r) { return r; });
    announce(3, {});
  }
  int pending = 0;
};

// Its hard negative: every caller passes a set callable.
struct Reporter {
  void report(int event, Fn on_done) {
    auto done = [this, on_done = std::move(on_done)](int r) {
      ++sent;
      return on_done(r); // no-warning
    };
    queue(std::move(done));
  }
  void queue(Fn f);
  void flush() { report(1, [](int r) { return r + 1; }); }
  int sent = 0;
};

// An init-capture holds its source's value from before the initializer,
// which may move from it: a value tested set there stays set in the
// lambda, one that may be empty (or is) stays so.
int moved_after_test(int mode) {
  Fn f = select_step(mode);
  if (!f)
    return 0;
  auto run = [g = std::move(f)](int v) { return g(v); }; // no-warning
  return run(mode);
}
int moved_untested(int mode) {
  Fn f = select_step(mode);
  auto run = [g = std::move(f)](int v) { return g(v); };
  // CHECK-NOTES: :[[@LINE-1]]:49: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 'g' is captured here, where it may be empty
  return run(mode);
}
int moved_empty(int mode) {
  Fn f;
  auto run = [g = f](int v) { return g(v); };
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 'g' is captured here, where it is empty
  return run(mode);
}
