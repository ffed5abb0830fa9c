// RUN: %check_wrapguard %s %t

// == nullptr and != nullptr, with nullptr on either side.

#include <functional>
#include <memory>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

struct Wrapper {
  int operator()(int x) const { return x; }
};

IntFn get_policy();
FnPtr pointer_policy();
std::shared_ptr<Wrapper> shared_policy();

int equal_nullptr_then_call(int x) {
  IntFn f = get_policy();
  if (f == nullptr)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  return x;
}

int not_equal_else_call(int x) {
  FnPtr p = pointer_policy();
  if (p != nullptr)
    return x;
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'p', which is always empty here [wrapguard-unchecked-policy-call]
}

int comparison_result_ignored(int x) {
  IntFn f = get_policy();
  bool unused = f == nullptr;
  (void)unused;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int not_equal_nullptr_left(int x) {
  IntFn f = get_policy();
  if (f != nullptr)
    return f(x); // no-warning
  return x;
}

int not_equal_nullptr_right(int x) {
  IntFn f = get_policy();
  if (nullptr != f)
    return f(x); // no-warning
  return x;
}

int equal_nullptr_return(int x) {
  IntFn f = get_policy();
  if (f == nullptr)
    return x;
  return f(x); // no-warning
}

int nullptr_equal_return(int x) {
  IntFn f = get_policy();
  if (nullptr == f)
    return x;
  return f(x); // no-warning
}

int pointer_not_equal(int x) {
  FnPtr p = pointer_policy();
  if (p != nullptr)
    return p(x); // no-warning
  return x;
}

int pointer_nullptr_on_left(int x) {
  FnPtr p = pointer_policy();
  if (nullptr == p)
    return x;
  return (*p)(x); // no-warning
}

int shared_pointer_compared(int x) {
  auto p = shared_policy();
  if (p == nullptr)
    return x;
  return (*p)(x); // no-warning
}

int comparison_in_loop_condition(int x) {
  FnPtr p = pointer_policy();
  while (p != nullptr) {
    x = p(x); // no-warning
    p = pointer_policy();
  }
  return x;
}
