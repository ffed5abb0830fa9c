// RUN: %check_wrapguard %s %t \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: shim}}"

// FixMode shim rewrites calls through std::function and function pointers to
// the runtime shim's null-safe helpers and includes <wrapguard/call.h>; the
// fixed file must compile with -I shim/include. Other callables fall back to
// the guard edits.

#include <functional>
#include <memory>
// CHECK-FIXES: {{^}}#include <wrapguard/call.h>{{$}}

struct Module {};
using ModulePtr = std::shared_ptr<Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;
using IntFn = std::function<int(int)>;
using Callback = std::function<void()>;
using FnPtr = int (*)(int);

struct Wrapper {
  int operator()(int x) const { return x; }
};

WrapFn get_wrap_policy();
IntFn int_policy();
Callback callback_policy();
FnPtr pointer_policy();
std::shared_ptr<Wrapper> shared_policy();
int next_value();

ModulePtr value_call(ModulePtr m) {
  WrapFn wrap = get_wrap_policy();
  return wrap(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return WRAPGUARD_CALL_OR_IDENTITY(wrap, m);{{$}}
}

void statement_call(int x) {
  IntFn f = int_policy();
  f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  WRAPGUARD_CALL_IF(f, x);{{$}}
}

void zero_argument_statement() {
  Callback cb = callback_policy();
  cb();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  WRAPGUARD_CALL_IF(cb);{{$}}
}

int function_pointer_value(int y) {
  FnPtr p = pointer_policy();
  return p(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return WRAPGUARD_CALL_OR_IDENTITY(p, y);{{$}}
}

void function_pointer_statement(int y) {
  FnPtr q = pointer_policy();
  q(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'q' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  WRAPGUARD_CALL_IF(q, y);{{$}}
}

// Fallbacks to the guard edits, and no edit.

int smart_pointer_falls_back(int z) {
  auto sp = shared_policy();
  return (*sp)(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'sp' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (sp ? (*sp)(z) : z);{{$}}
}

int side_effect_argument_has_no_edit() {
  IntFn se = int_policy();
  return se(next_value());
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'se' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return se(next_value());{{$}}
}

// Negative cases.

int checked_call(int x) {
  IntFn ok = int_policy();
  if (!ok)
    return x;
  return ok(x); // no-warning
  // CHECK-FIXES: {{^}}  return ok(x); // no-warning{{$}}
}
