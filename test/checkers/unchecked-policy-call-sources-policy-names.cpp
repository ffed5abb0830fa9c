// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=NAMES \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.PolicyNames: '^choose_'}}"

// With no visible definition (a declaration, a virtual call, a callable
// parameter or variable, a template argument), a callee is a source when its
// name matches PolicyNames (default: contains "policy", any case).

#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();
IntFn resolveWrapPolicy(int kind);
IntFn POLICY_FOR(int kind);
IntFn choose_wrapper(); // matches only with PolicyNames='^choose_'
IntFn make_wrapper();   // never a policy

struct Strategy {
  virtual ~Strategy() = default;
  // Pure: no override is seen, so the name decides (virtual calls with seen
  // overrides are in unchecked-policy-call-sources-virtual.cpp).
  virtual IntFn wrap_policy() const = 0;
  virtual IntFn wrapper() const = 0;
};

struct Registry {
  IntFn find_policy(int kind) const;
  static IntFn default_policy();
  IntFn find(int kind) const;
};

IntFn get_checked_policy();

namespace policies {
IntFn lookup(int kind);
}

int declared_policy(int x) {
  IntFn f = get_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int camel_case_policy(int x) {
  IntFn f = resolveWrapPolicy(1);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int upper_case_policy(int x) {
  IntFn f = POLICY_FOR(2);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int virtual_call_uses_name(const Strategy &s, int x) {
  // No definition of any override is seen.
  IntFn f = s.wrap_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int callable_parameter_named_policy(const std::function<IntFn()> &make_policy,
                                    int x) {
  IntFn f = make_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

template <class PolicyFactory>
int template_argument_policy(PolicyFactory policy_factory, int x) {
  IntFn f = policy_factory();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int instantiate_template_argument_policy(int x) {
  return template_argument_policy(&get_policy, x);
}

int declared_method_policy(const Registry &r, int x) {
  IntFn f = r.find_policy(1);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int declared_static_method_policy(int x) {
  IntFn f = Registry::default_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int chosen_by_custom_names(int x) {
  IntFn f = choose_wrapper();
  return f(x);
  // CHECK-MESSAGES-NAMES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int name_without_policy(int x) {
  IntFn f = make_wrapper();
  return f(x); // no-warning
}

int namespace_name_does_not_count(int x) {
  IntFn f = policies::lookup(0);
  return f(x); // no-warning
}

int virtual_non_policy_name(const Strategy &s, int x) {
  IntFn f = s.wrapper();
  return f(x); // no-warning
}

int declared_method_not_policy(const Registry &r, int x) {
  IntFn f = r.find(1);
  return f(x); // no-warning
}

int declared_policy_checked(int x) {
  // Its own source: a test of get_policy's result would make get_policy a
  // source by belief under every PolicyNames (see sources-belief.cpp).
  IntFn f = get_checked_policy();
  if (f)
    return f(x); // no-warning
  return x;
}

int callable_parameter_not_named_policy(const std::function<IntFn()> &make,
                                        int x) {
  IntFn f = make();
  return f(x); // no-warning
}
