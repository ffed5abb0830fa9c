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
  // CHECK-NOTES: :[[@LINE-2]]:17: note: 'step' is captured here, where it may be empty
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
