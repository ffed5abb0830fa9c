// RUN: %check_wrapguard %s %t

// Loops: the state at a call merges every way round the loop.

#include <functional>
#include <vector>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }
IntFn get_policy();
IntFn next_policy(int i);

int call_in_for_body(int n) {
  int sum = 0;
  IntFn f = get_policy();
  for (int i = 0; i < n; ++i)
    sum += f(i);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return sum;
}

int reset_later_in_loop(int n) {
  int sum = 0;
  IntFn f = identity;
  for (int i = 0; i < n; ++i) {
    sum += f(i);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    f = next_policy(i);
  }
  return sum;
}

int source_in_while_body(int n) {
  int sum = 0;
  while (n-- > 0) {
    IntFn f = next_policy(n);
    sum += f(n);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  }
  return sum;
}

int emptied_in_do_while(int n) {
  IntFn f = identity;
  int sum = 0;
  do {
    sum += f(n);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    if (n == 3)
      f = nullptr;
  } while (--n > 0);
  return sum;
}

int call_after_loop_that_may_not_run(int n) {
  IntFn f;
  for (int i = 0; i < n; ++i)
    f = identity;
  return f(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int while_condition_inverted(int n) {
  IntFn f = next_policy(n);
  while (!f) {
    n = f(n);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
    f = next_policy(n);
  }
  return n;
}

// Negative cases.

int continue_when_empty(int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    IntFn f = next_policy(i);
    if (!f)
      continue;
    sum += f(i); // no-warning
  }
  return sum;
}

int break_when_empty(int n) {
  int sum = 0;
  for (int i = 0;; ++i) {
    IntFn f = next_policy(i);
    if (!f)
      break;
    sum += f(i); // no-warning
  }
  return sum;
}

int loop_until_found(int n) {
  IntFn f = next_policy(0);
  while (!f)
    f = next_policy(++n);
  return f(n); // no-warning
}

int checked_before_loop(int n) {
  IntFn f = get_policy();
  if (!f)
    return 0;
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += f(i); // no-warning
  return sum;
}

int container_elements_are_unknown(const std::vector<IntFn> &fs, int x) {
  int sum = 0;
  for (const IntFn &f : fs)
    sum += f(x); // no-warning
  return sum;
}

int guarded_inside_loop(int n) {
  IntFn f = get_policy();
  int sum = 0;
  for (int i = 0; i < n; ++i)
    if (f)
      sum += f(i); // no-warning
  return sum;
}

int for_condition_guard(int n) {
  int sum = 0;
  for (IntFn f = next_policy(0); f; f = next_policy(++n))
    sum += f(n); // no-warning
  return sum;
}

int while_condition_guard(int n) {
  IntFn f = next_policy(n);
  while (f) {
    n = f(n); // no-warning
    f = next_policy(n);
  }
  return n;
}

int do_while_until_non_empty(int n) {
  IntFn f;
  do {
    f = next_policy(n++);
  } while (!f);
  return f(n); // no-warning
}

int refilled_each_iteration(int n) {
  int sum = 0;
  IntFn f;
  for (int i = 0; i < n; ++i) {
    f = identity;
    sum += f(i); // no-warning
  }
  return sum;
}
