// RUN: %check_wrapguard %s %t

// Empties made in the function itself: default construction, = nullptr,
// = {}, and moved-from function objects.

#include <functional>
#include <utility>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

int identity(int x) { return x; }
void consume(IntFn f);

int default_constructed(int x) {
  IntFn f;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int brace_initialised(int x) {
  IntFn f{};
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int initialised_with_nullptr(int x) {
  IntFn f = nullptr;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int assigned_nullptr(int x) {
  IntFn f = identity;
  f = nullptr;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int assigned_braces(int x) {
  IntFn f = identity;
  f = {};
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int null_function_pointer(int x) {
  FnPtr p = nullptr;
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'p', which is always empty here [wrapguard-unchecked-policy-call]
}

int moved_into_another(int x) {
  IntFn f = identity;
  IntFn g = std::move(f);
  return f(x) + g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int moved_into_call(int x) {
  IntFn f = identity;
  consume(std::move(f));
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int empty_on_one_branch(bool on, int x) {
  IntFn f;
  if (on)
    f = identity;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int lambda_local(int x) {
  IntFn f = [](int v) { return v; };
  return f(x); // no-warning
}

int function_name_local(int x) {
  IntFn f = identity;
  return f(x); // no-warning
}

int empty_then_assigned(int x) {
  IntFn f;
  f = identity;
  return f(x); // no-warning
}

int nullptr_then_assigned_lambda(int x) {
  IntFn f = nullptr;
  f = [](int v) { return v * 3; };
  return f(x); // no-warning
}

int moved_then_reassigned(int x) {
  IntFn f = identity;
  consume(std::move(f));
  f = identity;
  return f(x); // no-warning
}

int copied_not_moved(int x) {
  IntFn f = identity;
  IntFn g = f;
  return f(x) + g(x); // no-warning
}

int empty_on_both_branches_filled(bool on, int x) {
  IntFn f;
  if (on)
    f = identity;
  else
    f = [](int v) { return v; };
  return f(x); // no-warning
}

int empty_local_never_called(int x) {
  IntFn f;
  return f ? 1 : x; // no-warning
}
