// RUN: %check_wrapguard %s %t

// Function pointers: calling a null one is undefined behaviour.

#include <cstddef>

using FnPtr = int (*)(int);
using VoidFn = void (*)();

int identity(int x) { return x; }
void noop() {}

FnPtr pointer_policy(int kind);
VoidFn hook_policy();
FnPtr lookup_handler(int kind); // not a policy by name, no definition

int call_without_star(int x) {
  FnPtr p = pointer_policy(0);
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int call_with_star(int x) {
  FnPtr p = pointer_policy(1);
  return (*p)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

void void_pointer_statement() {
  VoidFn h = hook_policy();
  h();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
}

int raw_function_pointer_type(int x) {
  int (*p)(int) = pointer_policy(2);
  int r = p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  return r;
}

int auto_deduced_pointer(int x) {
  auto p = pointer_policy(3);
  return (*p)(x) + 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int guarded_by_if(int x) {
  FnPtr p = pointer_policy(0);
  if (p)
    return p(x); // no-warning
  return x;
}

int guarded_by_not_equal_nullptr(int x) {
  FnPtr p = pointer_policy(0);
  if (p != nullptr)
    return (*p)(x); // no-warning
  return x;
}

int assigned_function_address(int x) {
  FnPtr p = pointer_policy(0);
  p = &identity;
  return p(x); // no-warning
}

int assigned_function_name(int x) {
  FnPtr p = nullptr;
  p = identity;
  return p(x); // no-warning
}

void initialised_from_function() {
  VoidFn h = noop;
  h(); // no-warning
}

int unknown_origin_pointer(int x) {
  FnPtr p = lookup_handler(0);
  return p(x); // no-warning
}

int pointer_parameter(FnPtr p, int x) {
  return p(x); // no-warning
}

int early_return_on_null(int x) {
  FnPtr p = pointer_policy(0);
  if (!p)
    return x;
  return p(x); // no-warning
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
