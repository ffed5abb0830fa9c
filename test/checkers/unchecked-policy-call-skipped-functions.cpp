// A function over a budget, or with a construct the engine does not analyse,
// is skipped. By default silently; with ReportSkippedFunctions, each skip is
// a warning at the function's name that names the budget and its value, or
// the construct (once per spelling: a template's instantiations share one).
//
// RUN: %check_wrapguard %s %t -check-suffix=SILENT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.MaxBlockVisits: 3}}"
// RUN: %check_wrapguard %s %t -check-suffix=BLOCKS \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.MaxBlockVisits: 3, wrapguard-unchecked-policy-call.ReportSkippedFunctions: true}}"
// Which functions need the solver, and how many visits a function with
// branches takes, is the engine's business: the runs look only at functions
// whose fate is sure (the SOLVER run at one that needs the solver, the
// others at one straight-line function and at loops).
// RUN: %check_wrapguard %s %t -check-suffix=SOLVER \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.MaxSolverIterations: 3, wrapguard-unchecked-policy-call.ReportSkippedFunctions: true}}" \
// RUN:   -- -DSOLVER_ONLY
// Within the default budgets nothing is skipped, and the option adds nothing.
// RUN: %check_wrapguard %s %t -check-suffix=DEFAULT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.ReportSkippedFunctions: true}}"

#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();

// A loop whose body the fixpoint visits more than three times beyond the
// first visit of each block.
#define BUSY_LOOP(x)                                                           \
  for (int i = 0; i < x; ++i) {                                                \
    if (i % 2)                                                                 \
      x -= 1;                                                                  \
    if (i % 3)                                                                 \
      x -= 2;                                                                  \
    if (i % 5)                                                                 \
      x -= 3;                                                                  \
  }

namespace ns {

// Within every budget here (one block, no branch): analysed and reported
// in every run.
int straight(int x) {
  IntFn f = get_policy();
  x += 1;
  return f(x);
  // CHECK-MESSAGES-SILENT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-2]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SOLVER: :[[@LINE-3]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

#ifdef SOLVER_ONLY
// The guarded call needs the solver: `ok` holds the test.
int solver_guarded(int x) {
  // CHECK-MESSAGES-SOLVER: :[[@LINE-1]]:5: warning: function 'ns::solver_guarded' was not analysed: it exceeds the budget MaxSolverIterations (3) [wrapguard-unchecked-policy-call]
  IntFn f = get_policy();
  const bool ok = static_cast<bool>(f);
  if (x > 1)
    x += 1;
  if (ok)
    x = f(x);
  return f(x);
}
#else
int looping(int x) {
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:5: warning: function 'ns::looping' was not analysed: it exceeds the budget MaxBlockVisits (3) [wrapguard-unchecked-policy-call]
  IntFn f = get_policy();
  BUSY_LOOP(x)
  return f(x);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

struct Trainer {
  IntFn hook_;
  int step(int x) {
    // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:7: warning: function 'ns::Trainer::step' was not analysed: it exceeds the budget MaxBlockVisits (3) [wrapguard-unchecked-policy-call]
    hook_ = nullptr;
    BUSY_LOOP(x)
    return hook_(x);
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:12: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
  }
  Trainer(int x) : hook_(get_policy()) {
    // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:3: warning: function 'ns::Trainer::Trainer' was not analysed: it exceeds the budget MaxBlockVisits (3) [wrapguard-unchecked-policy-call]
    BUSY_LOOP(x)
    hook_(x);
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'hook_' [wrapguard-unchecked-policy-call]
  }
};
// The emptying in `step` is evidence where something calls it.
int train(Trainer &t) { return t.step(1); }

int with_lambda(int y) {
  auto l = [](int x) {
    // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:12: warning: lambda in 'ns::with_lambda' was not analysed: it exceeds the budget MaxBlockVisits (3) [wrapguard-unchecked-policy-call]
    IntFn f;
    BUSY_LOOP(x)
    return f(x);
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  };
  return l(y);
}

template <class T> T busy_template(T x) {
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:22: warning: function 'ns::busy_template' was not analysed: it exceeds the budget MaxBlockVisits (3) [wrapguard-unchecked-policy-call]
  std::function<T(T)> f;
  BUSY_LOOP(x)
  return f(x);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}
int use_template() { return busy_template(1) + int(busy_template(2L)); }

// A construct the engine does not analyse is a skip too, whatever the
// budgets, with the construct as its reason and no limit to show.
int captured(int x) {
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:5: warning: function 'ns::captured' was not analysed: it contains a captured statement [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:5: warning: function 'ns::captured' was not analysed: it contains a captured statement [wrapguard-unchecked-policy-call]
  IntFn f = get_policy();
#pragma clang __debug captured
  { x = f(x); }
  return x;
}

int captured_in_lambda(int y) {
  auto l = [](int x) {
    // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:12: warning: lambda in 'ns::captured_in_lambda' was not analysed: it contains a captured statement [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:12: warning: lambda in 'ns::captured_in_lambda' was not analysed: it contains a captured statement [wrapguard-unchecked-policy-call]
    IntFn f;
#pragma clang __debug captured
    { x = f(x); }
    return x;
  };
  return l(y);
}

// A skip is a diagnostic like any other: NOLINT suppresses it.
int suppressed(int x) { // NOLINT(wrapguard-unchecked-policy-call)
  IntFn f;
  BUSY_LOOP(x)
  return f(x); // NOLINT(wrapguard-unchecked-policy-call)
}

// Functions without a call through a callable are never analysed, so never
// skipped.
int no_calls(int x) {
  BUSY_LOOP(x)
  return x;
}

#endif

} // namespace ns
