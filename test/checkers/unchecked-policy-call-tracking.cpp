// RUN: %check_wrapguard %s %t

// The state follows the value through locals, copies, moves, auto,
// init-statements and condition declarations.

#include <functional>
#include <utility>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }
IntFn get_policy();
void inspect(const IntFn &f);
void inspect_copy(IntFn f);
void reset_by_reference(IntFn &f);
void reset_by_pointer(IntFn *f);

int through_copy(int x) {
  IntFn f = get_policy();
  IntFn g = f;
  return g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
}

int through_auto(int x) {
  auto f = get_policy();
  auto g = f;
  return g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
}

int through_move(int x) {
  IntFn f = get_policy();
  IntFn g = std::move(f);
  return g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
}

int through_copy_assignment(int x) {
  IntFn f = get_policy();
  IntFn g = identity;
  g = f;
  return g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
}

int init_statement_without_test(int x) {
  if (auto f = get_policy(); x > 0)
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return x;
}

int condition_declaration_else(int x) {
  if (IntFn f = get_policy())
    return f(x);
  else
    return f(x + 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int passed_by_const_reference_stays_tracked(int x) {
  IntFn f = get_policy();
  inspect(f);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int passed_by_value_stays_tracked(int x) {
  IntFn f = get_policy();
  inspect_copy(f);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int switch_case_path(int kind, int x) {
  IntFn f = identity;
  switch (kind) {
  case 0:
    f = get_policy();
    break;
  default:
    break;
  }
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int conditional_initialiser_with_source(bool on, int x) {
  IntFn f = on ? get_policy() : IntFn(identity);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int conditional_initialiser_with_nullptr(bool on, int x) {
  IntFn f = on ? IntFn(identity) : nullptr;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int init_statement_with_test(int x) {
  if (auto f = get_policy(); f)
    return f(x); // no-warning
  return x;
}

int condition_declaration_then(int x) {
  if (IntFn f = get_policy())
    return f(x); // no-warning
  return x;
}

int copy_of_checked_value(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  IntFn g = f;
  return g(x); // no-warning
}

int copy_made_before_check(int x) {
  // g is a copy of f: checking f tells about g too.
  IntFn f = get_policy();
  IntFn g = f;
  if (!f)
    return x;
  return g(x); // no-warning
}

int move_of_checked_value(int x) {
  auto f = get_policy();
  if (f == nullptr)
    return x;
  auto g = std::move(f);
  return g(x); // no-warning
}

int passed_by_reference_becomes_unknown(int x) {
  IntFn f = get_policy();
  reset_by_reference(f);
  return f(x); // no-warning
}

int passed_by_pointer_becomes_unknown(int x) {
  IntFn f = get_policy();
  reset_by_pointer(&f);
  return f(x); // no-warning
}

int switch_all_paths_filled(int kind, int x) {
  IntFn f;
  switch (kind) {
  case 0:
    f = identity;
    break;
  default:
    f = [](int v) { return v; };
    break;
  }
  return f(x); // no-warning
}

int conditional_initialiser_never_empty(bool on, int x) {
  IntFn f = on ? IntFn(identity) : IntFn([](int v) { return -v; });
  return f(x); // no-warning
}

int init_statement_early_return(int x) {
  if (auto f = get_policy(); !f)
    return x;
  else
    return f(x); // no-warning
}

int guard_covers_nested_scope(int x) {
  IntFn f = get_policy();
  if (f) {
    {
      int y = x * 2;
      return f(y); // no-warning
    }
  }
  return x;
}

int two_values_checked_independently(int x) {
  IntFn f = get_policy();
  IntFn g = get_policy();
  if (!f || !g)
    return x;
  return f(g(x)); // no-warning
}
