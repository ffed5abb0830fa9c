// RUN: %check_wrapguard %s %t -- -std=c++23
// libc++ 19 has no std::move_only_function (libstdc++ 12 has it).
// UNSUPPORTED: libcxx

// std::move_only_function (C++23) is a nullable callable like std::function.

#include <functional>
#include <utility>

using UniqueFn = std::move_only_function<int(int)>;

UniqueFn unique_policy();

int move_only_from_policy(int x) {
  UniqueFn f = unique_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int move_only_default_constructed(int x) {
  UniqueFn f;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int move_only_moved_from(int x) {
  UniqueFn f = [](int v) { return v; };
  UniqueFn g = std::move(f);
  return f(x) + g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int move_only_checked(int x) {
  UniqueFn f = unique_policy();
  if (!f)
    return x;
  return f(x); // no-warning
}

int move_only_lambda(int x) {
  UniqueFn f = [](int v) { return v + 1; };
  return f(x); // no-warning
}
