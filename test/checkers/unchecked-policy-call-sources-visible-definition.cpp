// RUN: %check_wrapguard %s %t

// A callee whose visible, non-virtual definition returns an empty callable on
// some path is a source whatever its name. One that provably never returns
// empty is not, even when its name says "policy".

#include <cstddef>
#include <functional>
#include <optional>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

int identity(int x) { return x; }

IntFn returns_nullptr_on_one_path(bool on) {
  if (on)
    return identity;
  return nullptr;
}

FnPtr returns_NULL_on_one_path(bool on) {
  if (on)
    return &identity;
  return NULL;
}

IntFn returns_braces_on_one_path(bool on) {
  if (on)
    return [](int x) { return x * 2; };
  return {};
}

IntFn returns_default_constructed(bool on) {
  if (on)
    return identity;
  return IntFn();
}

IntFn returns_maybe_empty_local(bool on) {
  IntFn f;
  if (on)
    f = identity;
  return f;
}

FnPtr returns_conditional_with_empty_arm(bool on) {
  return on ? &identity : nullptr;
}

enum class WrapKind { SizeBased, NoWrap };
IntFn returns_nullptr_after_enum_test(WrapKind k) {
  if (k == WrapKind::SizeBased)
    return [](int x) { return x; };
  return nullptr;
}

IntFn only_returns_empty() { return nullptr; }

struct Config {
  bool wrap = false;
  IntFn wrapper() const {
    if (wrap)
      return identity;
    return nullptr;
  }
};

IntFn forwards_maybe_empty(bool on) { return returns_nullptr_on_one_path(on); }

int nullptr_path(int x) {
  IntFn f = returns_nullptr_on_one_path(x > 0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int null_macro_path(int x) {
  FnPtr p = returns_NULL_on_one_path(x > 0);
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int braces_path(int x) {
  IntFn f = returns_braces_on_one_path(x > 0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int default_constructed_path(int x) {
  IntFn f = returns_default_constructed(x > 0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int maybe_empty_local_path(int x) {
  IntFn f = returns_maybe_empty_local(x > 0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int conditional_path(int x) {
  FnPtr p = returns_conditional_with_empty_arm(x > 0);
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

// Regression (issue 2): a return guarded by an enum comparison was taken as
// never empty.
int enum_tested_path(WrapKind k, int x) {
  IntFn f = returns_nullptr_after_enum_test(k);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int lambda_variable_source(int x) {
  auto pick = [](bool on) -> IntFn {
    if (on)
      return identity;
    return nullptr;
  };
  IntFn f = pick(x > 0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int always_empty_definition(int x) {
  IntFn f = only_returns_empty();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int visible_method(const Config &c, int x) {
  IntFn f = c.wrapper();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int forwarded_source(int x) {
  IntFn f = forwards_maybe_empty(x > 0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

IntFn always_policy() { return [](int x) { return x; }; }
FnPtr pointer_policy_never_null() { return &identity; }
IntFn never_empty_local() {
  IntFn f = identity;
  return f;
}
IntFn never_empty_branches(bool on) {
  if (on)
    return identity;
  return [](int x) { return -x; };
}
struct NeverEmpty {
  IntFn get_policy() const { return identity; }
};

int never_empty_despite_name(int x) {
  IntFn f = always_policy();
  return f(x); // no-warning
}

int never_null_pointer(int x) {
  FnPtr p = pointer_policy_never_null();
  return p(x); // no-warning
}

int never_empty_returned_local(int x) {
  IntFn f = never_empty_local();
  return f(x); // no-warning
}

int never_empty_on_every_branch(int x) {
  IntFn f = never_empty_branches(x > 0);
  return f(x); // no-warning
}

int never_empty_method(const NeverEmpty &n, int x) {
  IntFn f = n.get_policy();
  return f(x); // no-warning
}

int never_empty_lambda_variable(int x) {
  auto pick = [](bool on) -> IntFn {
    if (on)
      return identity;
    return [](int v) { return v; };
  };
  IntFn f = pick(x > 0);
  return f(x); // no-warning
}

int maybe_empty_source_checked(int x) {
  IntFn f = returns_nullptr_on_one_path(x > 0);
  if (!f)
    return x;
  return f(x); // no-warning
}
