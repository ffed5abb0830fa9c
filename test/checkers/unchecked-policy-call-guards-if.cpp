// RUN: %check_wrapguard %s %t

// if (f), if (!f) return/continue/break/throw.

#include <functional>
#include <stdexcept>

using IntFn = std::function<int(int)>;

IntFn get_policy();

int call_in_else_branch(int x) {
  IntFn f = get_policy();
  if (f)
    return x;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int call_in_then_of_negation(int x) {
  IntFn f = get_policy();
  if (!f)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  return x;
}

int check_without_exit(int x) {
  IntFn f = get_policy();
  if (!f)
    x += 1;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int check_on_other_condition(bool on, int x) {
  IntFn f = get_policy();
  if (on)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return x;
}

int guard_on_different_callable(int x) {
  IntFn f = get_policy();
  IntFn g = get_policy();
  if (!g)
    return x;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int if_then(int x) {
  IntFn f = get_policy();
  if (f)
    return f(x); // no-warning
  return x;
}

int if_not_return(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  return f(x); // no-warning
}

int if_not_throw(int x) {
  IntFn f = get_policy();
  if (!f)
    throw std::runtime_error("no policy");
  return f(x); // no-warning
}

int if_then_block(int x) {
  IntFn f = get_policy();
  if (f) {
    int y = x + 1;
    return f(y); // no-warning
  }
  return x;
}

int if_else_block(int x) {
  IntFn f = get_policy();
  if (!f) {
    return x;
  } else {
    return f(x); // no-warning
  }
}

int guard_with_else_if(int kind, int x) {
  IntFn f = get_policy();
  if (kind == 0)
    return x;
  else if (!f)
    return -x;
  return kind == 1 ? x : f(x); // no-warning
}

int nested_guard(int x) {
  IntFn f = get_policy();
  if (x > 0) {
    if (!f)
      return x;
    return f(x); // no-warning
  }
  return x;
}

int if_not_continue_in_loop(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    IntFn f = get_policy();
    if (!f) {
      ++s;
      continue;
    }
    s += f(i); // no-warning
  }
  return s;
}

int braced_early_return(int x) {
  IntFn f = get_policy();
  if (!f) {
    return x;
  }
  return f(x); // no-warning
}

int else_returns(int x) {
  IntFn f = get_policy();
  if (f) {
    x += 1;
  } else {
    return x;
  }
  return f(x); // no-warning
}

int guard_then_unrelated_code(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  int y = x * 2;
  for (int i = 0; i < 3; ++i)
    y += i;
  return f(y); // no-warning
}

int guarded_twice(int x) {
  IntFn f = get_policy();
  if (f && x > 0)
    return f(x); // no-warning
  if (f)
    return f(-x); // no-warning
  return x;
}

void void_function_early_return(int x) {
  IntFn f = get_policy();
  if (!f)
    return;
  f(x); // no-warning
}
