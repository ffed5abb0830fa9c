// RUN: %check_wrapguard %s %t

// Lambda bodies are analysed as functions of their own; values they capture
// are of unknown origin.

#include <functional>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }
IntFn get_policy();

int policy_inside_lambda(int x) {
  auto run = [](int v) {
    IntFn f = get_policy();
    return f(v);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  };
  return run(x);
}

int empty_inside_lambda(int x) {
  auto run = [x]() {
    IntFn f;
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  };
  return run();
}

int nested_lambda(int x) {
  auto outer = [](int v) {
    auto inner = [](int w) {
      IntFn f = get_policy();
      return f(w);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    };
    return inner(v);
  };
  return outer(x);
}

// Regression (issue 2): generic lambdas were skipped as dependent code.
int generic_lambda_called_twice(int x) {
  auto run = [](auto v) {
    IntFn f = get_policy();
    return f(static_cast<int>(v));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  };
  return run(x) + run(1L);
}

void lambda_as_argument(int x) {
  std::function<void()> task = [x] {
    IntFn f = get_policy();
    f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  };
  task();
}

// A capture is judged where the lambda captures it (issue 14): here a
// policy's result, unchecked.
int captured_by_value_is_judged_at_capture(int x) {
  IntFn f = get_policy();
  auto run = [f](int v) { return f(v); };
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return run(x);
}

// Negative cases.

// Captured by reference into a lambda the function only calls, under a
// check of the capture: judged where it is called.
int captured_by_reference_is_judged_at_the_call(int x) {
  IntFn f = get_policy();
  auto run = [&f](int v) { return f(v); }; // no-warning
  return f ? run(x) : x;
}

int guarded_inside_lambda(int x) {
  auto run = [](int v) {
    IntFn f = get_policy();
    if (!f)
      return v;
    return f(v); // no-warning
  };
  return run(x);
}

int lambda_assigned_to_function(int x) {
  IntFn f = [](int v) { return v + 1; };
  return f(x); // no-warning
}

int immediately_invoked_lambda(int x) {
  return [](int v) { return v * 2; }(x); // no-warning
}

int lambda_parameter_is_unknown(int x) {
  auto run = [](const IntFn &f, int v) { return f(v); }; // no-warning
  return run(identity, x);
}

int init_capture_of_checked_value(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  auto run = [g = f](int v) { return g(v); }; // no-warning
  return run(x);
}
