// RUN: %check_wrapguard %s %t

// static_cast<bool>(f), !!f, f.operator bool(), has_value().

#include <functional>
#include <optional>

using IntFn = std::function<int(int)>;

struct Wrapper {
  int operator()(int x) const { return x; }
};

IntFn get_policy();
std::optional<Wrapper> optional_policy();

int static_cast_false_branch(int x) {
  IntFn f = get_policy();
  if (static_cast<bool>(f))
    return x;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int has_value_false_branch(int x) {
  auto o = optional_policy();
  if (o.has_value())
    return x;
  return (*o)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'o', which is always empty here [wrapguard-unchecked-policy-call]
}

int operator_bool_negated_then(int x) {
  IntFn f = get_policy();
  if (!f.operator bool())
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  return x;
}

// Negative cases.

int static_cast_guard(int x) {
  IntFn f = get_policy();
  if (static_cast<bool>(f))
    return f(x); // no-warning
  return x;
}

int double_negation_guard(int x) {
  IntFn f = get_policy();
  if (!!f)
    return f(x); // no-warning
  return x;
}

int operator_bool_guard(int x) {
  IntFn f = get_policy();
  if (f.operator bool())
    return f(x); // no-warning
  return x;
}

int has_value_guard(int x) {
  auto o = optional_policy();
  if (o.has_value())
    return (*o)(x); // no-warning
  return x;
}

int has_value_early_return(int x) {
  auto o = optional_policy();
  if (!o.has_value())
    return x;
  return o->operator()(x); // no-warning
}

int negated_static_cast_return(int x) {
  IntFn f = get_policy();
  if (!static_cast<bool>(f))
    return x;
  return f(x); // no-warning
}
