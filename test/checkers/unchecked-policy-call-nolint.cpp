// RUN: %check_wrapguard %s %t

// clang-tidy's own NOLINT comments suppress the warning.

#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();

int nolint_other_check_does_not_suppress(int x) {
  IntFn f = get_policy();
  return f(x); // NOLINT(bugprone-use-after-move)
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int nolintnextline_other_check_does_not_suppress(int x) {
  IntFn f = get_policy();
  // NOLINTNEXTLINE(readability-magic-numbers)
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases: suppressed.

int nolint_bare(int x) {
  IntFn f = get_policy();
  return f(x); // NOLINT
}

int nolint_named(int x) {
  IntFn f = get_policy();
  return f(x); // NOLINT(wrapguard-unchecked-policy-call)
}

int nolint_glob(int x) {
  IntFn f = get_policy();
  return f(x); // NOLINT(wrapguard-*)
}

int nolintnextline_named(int x) {
  IntFn f = get_policy();
  // NOLINTNEXTLINE(wrapguard-unchecked-policy-call)
  return f(x);
}

// NOLINTBEGIN(wrapguard-unchecked-policy-call)
int nolint_block_first(int x) {
  IntFn f = get_policy();
  return f(x);
}

void nolint_block_second(int x) {
  IntFn g = get_policy();
  g(x);
}
// NOLINTEND(wrapguard-unchecked-policy-call)

int after_nolint_block(int x) {
  IntFn f = get_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
