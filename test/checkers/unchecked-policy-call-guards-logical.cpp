// RUN: %check_wrapguard %s %t

// ?:, && and ||.

#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();

int conditional_wrong_arm(int x) {
  IntFn f = get_policy();
  return f ? x : f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int and_wrong_operand(bool on, int x) {
  IntFn f = get_policy();
  return (on && f(x) > 0) ? 1 : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int or_without_test(bool on, int x) {
  IntFn f = get_policy();
  return (on || f(x) > 0) ? 1 : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int conditional_guard(int x) {
  IntFn f = get_policy();
  return f ? f(x) : x; // no-warning
}

int negated_conditional_guard(int x) {
  IntFn f = get_policy();
  return !f ? x : f(x); // no-warning
}

bool and_guard(int x) {
  IntFn f = get_policy();
  return f && f(x) > 0; // no-warning
}

bool or_guard(int x) {
  IntFn f = get_policy();
  return !f || f(x) > 0; // no-warning
}

int and_in_if(bool on, int x) {
  IntFn f = get_policy();
  if (on && f)
    return f(x); // no-warning
  return x;
}

int or_early_return(bool on, int x) {
  IntFn f = get_policy();
  if (on || !f)
    return x;
  return f(x); // no-warning
}

bool compared_in_and(int x) {
  IntFn f = get_policy();
  return f != nullptr && f(x) == 0; // no-warning
}

int two_guards_in_and(int x) {
  IntFn f = get_policy();
  IntFn g = get_policy();
  if (f && g)
    return f(g(x)); // no-warning
  return x;
}
