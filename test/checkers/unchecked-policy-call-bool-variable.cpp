// RUN: %check_wrapguard %s %t

// A bool that holds the test guards the call on the path where it is true.

#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();
void log_value(int x);

int bool_of_other_callable(int x) {
  IntFn f = get_policy();
  IntFn g = get_policy();
  const bool ok = static_cast<bool>(g);
  if (ok)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return x;
}

int bool_tested_then_reassigned(int x) {
  IntFn f = get_policy();
  const bool ok = static_cast<bool>(f);
  f = get_policy();
  if (ok)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return x;
}

int bool_tested_wrong_way(int x) {
  IntFn f = get_policy();
  const bool missing = !f;
  if (missing)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  return x;
}

// Negative cases.

int const_bool_holds_test(int x) {
  IntFn f = get_policy();
  const bool ok = static_cast<bool>(f);
  log_value(x);
  if (ok)
    return f(x); // no-warning
  return x;
}

int bool_from_comparison(int x) {
  IntFn f = get_policy();
  bool has_policy = f != nullptr;
  if (!has_policy)
    return x;
  return f(x); // no-warning
}

int bool_from_negation(int x) {
  IntFn f = get_policy();
  const bool missing = !f;
  if (missing)
    return x;
  return f(x); // no-warning
}

int bool_tested_twice(int x) {
  IntFn f = get_policy();
  const bool ok = static_cast<bool>(f);
  int y = ok ? x + 1 : x;
  if (ok)
    y = f(y); // no-warning
  return y;
}

int bool_in_and(bool on, int x) {
  IntFn f = get_policy();
  const bool ok = static_cast<bool>(f);
  if (on && ok)
    return f(x); // no-warning
  return x;
}

// A flag computed from integers, which the framework does not model, is one
// condition at every test of it (imgui's InputTextEx keeps
// `const bool is_resizable = (flags & ImGuiInputTextFlags_CallbackResize) != 0;`
// and asserts the callback under it, then calls it under it).
int flag_from_bit(int flags, int x) {
  IntFn f = get_policy();
  const bool resizable = (flags & 4) != 0;
  if (resizable && !f)
    return x;
  log_value(x);
  if (resizable)
    return f(x); // no-warning
  return x;
}

int flag_from_comparison(int n, int x) {
  IntFn f = get_policy();
  const bool big = n > 3;
  if (big)
    if (!f)
      return x;
  log_value(x);
  if (big)
    return f(x); // no-warning
  return x;
}

// True neighbour: the flag is computed again in between, from another
// comparison. (Before each such truth value had an atom of its own, this call
// was missed: the flag had no value at all.)
int flag_recomputed(int n, int x) {
  IntFn f = get_policy();
  bool big = n > 3;
  if (big && !f)
    return x;
  big = n > 5;
  if (big)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return x;
}
