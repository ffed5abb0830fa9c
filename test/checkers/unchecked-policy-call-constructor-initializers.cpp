// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"
// RUN: %check_wrapguard %s %t -check-suffix=SHIM \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: shim}}"

// Calls in a constructor's mem-initializers (member, base and delegating
// initializers, and default member initializers the constructor uses) are
// analysed with the constructor, in the order the initializers run. Their
// fix-its are expressions: a statement-level `if` cannot go into an
// initializer list, so the edit is the conditional form, or none (with a
// note) when that does not fit.

#include <functional>
// CHECK-FIXES-SHIM: {{^}}#include <wrapguard/call.h>{{$}}

using IntFn = std::function<int(int)>;
using VoidFn = std::function<void(int)>;

struct Cfg {
  int level;
};
IntFn get_policy(const Cfg &c); // declared only: its name says "policy"
IntFn empty_fn() { return nullptr; }
IntFn identity_fn() {
  return [](int x) { return x; };
}
int consume(int x);

// A policy's result, called in a member initializer.
struct Trainer {
  int loss_;
  Trainer(Cfg c, int x) : loss_(get_policy(c)(x)) {}
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through possibly empty callable 'get_policy(c)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:33: note: check that 'get_policy(c)' is not empty before this call, e.g. 'if (get_policy(c))'
  // CHECK-NOTES: :[[@LINE-3]]:33: note: 'get_policy(c)' comes from 'get_policy', which may return an empty callable
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:33: warning: call through possibly empty callable 'get_policy(c)' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-5]]:33: warning: call through possibly empty callable 'get_policy(c)' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  Trainer(Cfg c, int x) : loss_(get_policy(c)(x)) {}{{$}}
};

// A parameter, called in a member initializer: of unknown origin, reported
// under StrictMode, and by default when the constructor tests it elsewhere.
struct Scaled {
  int v_;
  explicit Scaled(IntFn f) : v_(f(1)) {}
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:33: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-STRICT: {{^}}  explicit Scaled(IntFn f) : v_((f ? f(1) : 1)) {}{{$}}
  Scaled(IntFn f, int x) : v_(f(x)) {
    // CHECK-NOTES: :[[@LINE-1]]:31: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:31: note: a value from 'f' is checked for emptiness in 'Scaled::Scaled' ({{.*}}.cpp:[[@LINE+6]])
    // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:31: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-SHIM: :[[@LINE-4]]:31: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    // CHECK-FIXES: {{^}}  Scaled(IntFn f, int x) : v_((f ? f(x) : x)) {{[{]}}{{$}}
    // CHECK-FIXES-STRICT: {{^}}  Scaled(IntFn f, int x) : v_((f ? f(x) : x)) {{[{]}}{{$}}
    // CHECK-FIXES-SHIM: {{^}}  Scaled(IntFn f, int x) : v_(WRAPGUARD_CALL_OR_IDENTITY(f, x)) {{[{]}}{{$}}
    if (f)
      consume(0);
  }
};

// A test in one initializer is evidence for a call in another: the facts
// collector walks the initializers as it walks the body.
struct Tested {
  int v_, u_;
  explicit Tested(IntFn f) : v_(f(1)), u_(f ? f(2) : 0) {}
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:33: note: a value from 'f' is checked for emptiness in 'Tested::Tested' ({{.*}}.cpp:[[@LINE-2]])
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:33: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-4]]:33: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  explicit Tested(IntFn f) : v_((f ? f(1) : 1)), u_(f ? f(2) : 0) {}{{$}}
  // CHECK-FIXES-STRICT: {{^}}  explicit Tested(IntFn f) : v_((f ? f(1) : 1)), u_(f ? f(2) : 0) {}{{$}}
  // CHECK-FIXES-SHIM: {{^}}  explicit Tested(IntFn f) : v_(WRAPGUARD_CALL_OR_IDENTITY(f, 1)), u_(f ? f(2) : 0) {}{{$}}
};

// Guarded in the initializer itself: no warning in any mode.
struct Guarded {
  int v_;
  explicit Guarded(IntFn f) : v_(f ? f(1) : 0) {}
  Guarded(IntFn f, int) : v_(f && f(1) > 0) {}
};

// A field that an earlier initializer set holds that initializer's value,
// whatever the class's other constructors put there.
struct Hooked {
  IntFn hook_;
  int v_;
  Hooked() : hook_(nullptr), v_(hook_(1)) {}
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: 'hook_' is made empty here
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:33: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-4]]:33: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  Hooked() : hook_(nullptr), v_((hook_ ? hook_(1) : 1)) {}{{$}}
  // CHECK-FIXES-STRICT: {{^}}  Hooked() : hook_(nullptr), v_((hook_ ? hook_(1) : 1)) {}{{$}}
  // CHECK-FIXES-SHIM: {{^}}  Hooked() : hook_(nullptr), v_(WRAPGUARD_CALL_OR_IDENTITY(hook_, 1)) {}{{$}}
  explicit Hooked(Cfg c) : hook_(get_policy(c)), v_(hook_(2)) {}
  // CHECK-NOTES: :[[@LINE-1]]:53: warning: call through possibly empty callable 'hook_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:34: note: 'hook_' comes from 'get_policy', which may return an empty callable
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:53: warning: call through possibly empty callable 'hook_' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-4]]:53: warning: call through possibly empty callable 'hook_' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  explicit Hooked(Cfg c) : hook_(get_policy(c)), v_((hook_ ? hook_(2) : 2)) {}{{$}}
  explicit Hooked(int) : hook_(identity_fn()), v_(hook_(3)) {}
  // Set from a parameter: quiet by default (nothing says 'g' can be empty,
  // and Hooked() emptying the field does not concern this value).
  explicit Hooked(IntFn g) : hook_(g), v_(hook_(4)) {}
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:43: warning: call through possibly empty callable 'hook_' [wrapguard-unchecked-policy-call]
  // Default-initialized, implicitly.
  explicit Hooked(long) : v_(hook_(5)) {}
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:30: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-3]]:30: warning: call through callable 'hook_', which is always empty here [wrapguard-unchecked-policy-call]
};

// A void call in an initializer: no expression form keeps the value, so no
// edit, and the note says what to check (never an `if` in the init list).
struct Logged {
  VoidFn log_;
  int v_;
  Logged() : log_(nullptr), v_((log_(1), 0)) {}
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through callable 'log_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: 'log_' is made empty here
  // CHECK-NOTES: :[[@LINE-3]]:33: note: check that 'log_' is not empty before this call, e.g. 'if (log_)'
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:33: warning: call through callable 'log_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-5]]:33: warning: call through callable 'log_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  Logged() : log_(nullptr), v_((log_(1), 0)) {}{{$}}
  // CHECK-FIXES-SHIM: {{^}}  Logged() : log_(nullptr), v_((log_(1), 0)) {}{{$}}
};

// A default member initializer runs in every constructor that does not
// initialize the member itself.
struct Defaults {
  IntFn fn_ = empty_fn();
  int v_ = fn_(6);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through callable 'fn_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'fn_' comes from 'empty_fn', which always returns an empty callable
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:12: warning: call through callable 'fn_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-4]]:12: warning: call through callable 'fn_', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  int v_ = (fn_ ? fn_(6) : 6);{{$}}
  Defaults() {}
  explicit Defaults(IntFn f) : fn_(f) {}
};

// Base and delegating initializers.
struct Base {
  explicit Base(int);
};
struct Derived : Base {
  explicit Derived(IntFn f) : Base(f(7)) {}
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:36: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-STRICT: {{^}}  explicit Derived(IntFn f) : Base((f ? f(7) : 7)) {}{{$}}
  Derived() : Base(empty_fn()(8)) {}
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: call through callable 'empty_fn()', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:20: note: check that 'empty_fn()' is not empty before this call, e.g. 'if (empty_fn())'
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:20: warning: call through callable 'empty_fn()', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-4]]:20: warning: call through callable 'empty_fn()', which is always empty here [wrapguard-unchecked-policy-call]
};
struct Delegating {
  int v_;
  explicit Delegating(int v) : v_(v) {}
  explicit Delegating(IntFn f) : Delegating(f(9)) {}
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:45: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-STRICT: {{^}}  explicit Delegating(IntFn f) : Delegating((f ? f(9) : 9)) {}{{$}}
  Delegating(Cfg c, int x) : Delegating(get_policy(c)(x)) {}
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: call through possibly empty callable 'get_policy(c)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: check that 'get_policy(c)' is not empty before this call, e.g. 'if (get_policy(c))'
  // CHECK-NOTES: :[[@LINE-3]]:41: note: 'get_policy(c)' comes from 'get_policy', which may return an empty callable
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:41: warning: call through possibly empty callable 'get_policy(c)' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-SHIM: :[[@LINE-5]]:41: warning: call through possibly empty callable 'get_policy(c)' [wrapguard-unchecked-policy-call]
};

// A class template's constructor: each instantiation is analysed, the
// finding reported once, at the spelling.
template <class T> struct Holder {
  T v_;
  explicit Holder(std::function<T(T)> f) : v_(f(T())) {}
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:47: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-STRICT: {{^}}  explicit Holder(std::function<T(T)> f) : v_((f ? f(T()) : T())) {}{{$}}
};
Holder<int> make_int_holder(IntFn f) { return Holder<int>(f); }
Holder<long> make_long_holder(std::function<long(long)> f) {
  return Holder<long>(f);
}
