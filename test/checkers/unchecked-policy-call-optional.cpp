// RUN: %check_wrapguard %s %t

// std::optional of a callable, called as (*o)(...) or o->operator()(...).

#include <optional>

struct Wrapper {
  int operator()(int x) const { return x; }
};

std::optional<Wrapper> optional_policy();
std::optional<Wrapper> cached_wrapper(); // not a policy by name, no definition

std::optional<Wrapper> maybe_wrapper(bool on) {
  if (on)
    return Wrapper{};
  return std::nullopt;
}

int optional_star_call(int x) {
  std::optional<Wrapper> o = optional_policy();
  return (*o)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'o' [wrapguard-unchecked-policy-call]
}

int optional_operator_call(int x) {
  auto o = optional_policy();
  return o->operator()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'o' [wrapguard-unchecked-policy-call]
}

int optional_from_nullopt_definition(int x) {
  auto o = maybe_wrapper(x > 0);
  return (*o)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'o' [wrapguard-unchecked-policy-call]
}

int optional_nullopt_local(int x) {
  std::optional<Wrapper> o = std::nullopt;
  return (*o)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'o', which is always empty here [wrapguard-unchecked-policy-call]
}

// Negative cases.

int optional_guarded_by_bool(int x) {
  auto o = optional_policy();
  if (o)
    return (*o)(x); // no-warning
  return x;
}

int optional_guarded_by_has_value(int x) {
  auto o = optional_policy();
  if (!o.has_value())
    return x;
  return o->operator()(x); // no-warning
}

int optional_assigned(int x) {
  auto o = optional_policy();
  o = Wrapper{};
  return (*o)(x); // no-warning
}

int optional_unknown_origin(int x) {
  auto o = cached_wrapper();
  return (*o)(x); // no-warning
}

int optional_engaged_local(int x) {
  std::optional<Wrapper> o = Wrapper{};
  return (*o)(x); // no-warning
}
