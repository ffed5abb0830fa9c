// RUN: %check_wrapguard %s %t

// FixMode guard, calls used as statements directly inside a { } block:
// `f(x);` becomes `if (f) f(x);`. Elsewhere (the body of an unbraced if or
// loop, a macro expansion) there is no edit.

#include <functional>
#include <memory>

struct Module {};
using ModulePtr = std::shared_ptr<Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;
using IntFn = std::function<int(int)>;
using Callback = std::function<void()>;
using FnPtr = void (*)(int);

struct Wrapper {
  void operator()(int) const {}
};
struct Layer {
  void step(int) {}
};
using MemFn = void (Layer::*)(int);

WrapFn get_wrap_policy();
IntFn int_policy();
Callback callback_policy();
FnPtr pointer_policy();
std::unique_ptr<Wrapper> unique_policy();
MemFn member_policy();

#define CALL_ONCE(fn, v) fn(v)

void plain_statement(int x) {
  IntFn f = int_policy();
  f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (f) f(x);{{$}}
}

// Regression (issue 2): a statement whose type equals its argument got the
// value edit `(wrap ? wrap(m) : m);`.
void module_statement(ModulePtr m) {
  WrapFn wrap = get_wrap_policy();
  wrap(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (wrap) wrap(m);{{$}}
}

void zero_arguments() {
  Callback cb = callback_policy();
  cb();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (cb) cb();{{$}}
}

void function_pointer_statement(int x) {
  FnPtr h = pointer_policy();
  h(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (h) h(x);{{$}}
}

void dereferenced_pointer_statement(int x) {
  auto up = unique_policy();
  (*up)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'up' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (up) (*up)(x);{{$}}
}

void operator_call_statement(int x) {
  auto op = unique_policy();
  op->operator()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'op' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (op) op->operator()(x);{{$}}
}

void member_pointer_statement(Layer &layer, int x) {
  MemFn pm = member_policy();
  (layer.*pm)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'pm' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  if (pm) (layer.*pm)(x);{{$}}
}

void statement_in_nested_block(bool on, int x) {
  IntFn nb = int_policy();
  if (on) {
    nb(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'nb' [wrapguard-unchecked-policy-call]
    // CHECK-FIXES: {{^}}    if (nb) nb(x);{{$}}
  }
}

// No edit.

void unbraced_if_body(bool on, int x) {
  IntFn ub = int_policy();
  if (on)
    ub(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'ub' [wrapguard-unchecked-policy-call]
    // CHECK-FIXES: {{^}}    ub(x);{{$}}
}

void unbraced_loop_body(int n) {
  IntFn lb = int_policy();
  for (int i = 0; i < n; ++i)
    lb(i);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'lb' [wrapguard-unchecked-policy-call]
    // CHECK-FIXES: {{^}}    lb(i);{{$}}
}

// Regression (issue 2): the callable was named 'callable' in macro expansions.
void inside_macro(int x) {
  IntFn mc = int_policy();
  CALL_ONCE(mc, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: call through possibly empty callable 'mc' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  CALL_ONCE(mc, x);{{$}}
}

// Negative cases.

void checked_statement(int x) {
  IntFn ck = int_policy();
  if (!ck)
    return;
  ck(x); // no-warning
  // CHECK-FIXES: {{^}}  ck(x); // no-warning{{$}}
}

void already_guarded_statement(int x) {
  IntFn ag = int_policy();
  if (ag)
    ag(x); // no-warning
}
