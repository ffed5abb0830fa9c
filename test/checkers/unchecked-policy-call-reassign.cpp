// RUN: %check_wrapguard %s %t

// Assigning a non-empty value makes the callable non-empty; reassigning it
// from a source, or moving from it, makes it maybe-empty again.

#include <functional>
#include <utility>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }
IntFn get_policy();
IntFn never_empty() { return identity; }
void consume(IntFn f);

int checked_then_reassigned(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  f = get_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int checked_then_moved_from(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  consume(std::move(f));
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int checked_then_cleared(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  f = nullptr;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int lambda_then_reassigned_from_source(int x) {
  IntFn f = [](int v) { return v; };
  f = get_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int checked_then_swapped_with_source(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  IntFn g = get_policy();
  f = std::move(g);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int source_then_lambda(int x) {
  IntFn f = get_policy();
  f = [](int v) { return v + 1; };
  return f(x); // no-warning
}

int source_then_function_name(int x) {
  IntFn f = get_policy();
  f = identity;
  return f(x); // no-warning
}

int source_then_never_empty_call(int x) {
  IntFn f = get_policy();
  f = never_empty();
  return f(x); // no-warning
}

int cleared_then_refilled(int x) {
  IntFn f = identity;
  f = nullptr;
  f = identity;
  return f(x); // no-warning
}

int moved_from_then_refilled(int x) {
  IntFn f = get_policy();
  IntFn g = std::move(f);
  f = [](int v) { return v; };
  return f(x); // no-warning
}

int refilled_when_empty(int x) {
  IntFn f = get_policy();
  if (!f)
    f = identity;
  return f(x); // no-warning
}
