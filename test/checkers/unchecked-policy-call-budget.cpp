// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=BLOCKS \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.MaxBlockVisits: 4}}"
// RUN: %check_wrapguard %s %t -check-suffix=SOLVER \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.MaxSolverIterations: 3}}"

// A function over the block-visit or solver budget is skipped silently: no
// warning, no crash.

#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();

int many_branches(int x) {
  IntFn f = get_policy();
  // ok holds the test: the guarded call below needs the solver.
  const bool ok = static_cast<bool>(f);
  if (x > 1)
    x += 1;
  if (x > 2)
    x += 2;
  if (x > 3)
    x += 3;
  if (x > 4)
    x += 4;
  if (x > 5)
    x += 5;
  if (x > 6)
    x += 6;
  if (x > 7)
    x += 7;
  if (x > 8)
    x += 8;
  for (int i = 0; i < x; ++i)
    if (i % 3 == 0)
      x -= 1;
  if (ok)
    x = f(x); // no-warning
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int many_branches_checked(int x) {
  IntFn f = get_policy();
  if (x > 1)
    x += 1;
  if (x > 2)
    x += 2;
  if (x > 3)
    x += 3;
  if (!f)
    return x;
  return f(x); // no-warning
}
