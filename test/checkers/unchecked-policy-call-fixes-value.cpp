// RUN: %check_wrapguard %s %t

// FixMode guard, calls used as values: when the call's type is that of its
// first argument and neither that argument nor the callable has side
// effects, `f(m)` becomes `(f ? f(m) : m)` -- "leave the module unwrapped".
// Otherwise there is no edit.

#include <functional>
#include <memory>
#include <string>

struct Module {};
using ModulePtr = std::shared_ptr<Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;
using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

struct Wrapper {
  int operator()(int x) const { return x; }
};
struct Step {
  int value = 0;
};
struct Layer {
  int forward(int x) { return x; }
};
using MemFn = int (Layer::*)(int);

WrapFn get_wrap_policy();
IntFn int_policy();
FnPtr pointer_policy();
std::shared_ptr<Wrapper> shared_policy();
MemFn member_policy();
std::function<int(int, int)> binary_policy();
std::function<std::string(int)> name_policy();
std::function<long(int)> widening_policy();
int next_value();

ModulePtr returned_value(ModulePtr m) {
  WrapFn wrap = get_wrap_policy();
  return wrap(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (wrap ? wrap(m) : m);{{$}}
}

void initialised_value(ModulePtr module) {
  WrapFn policy = get_wrap_policy();
  ModulePtr wrapped = policy(module);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: call through possibly empty callable 'policy' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  ModulePtr wrapped = (policy ? policy(module) : module);{{$}}
  (void)wrapped;
}

ModulePtr const_reference_argument(const ModulePtr &m) {
  WrapFn wrap = get_wrap_policy();
  return wrap(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (wrap ? wrap(m) : m);{{$}}
}

int int_value(int x) {
  IntFn f = int_policy();
  int r = f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  int r = (f ? f(x) : x);{{$}}
  return r;
}

int function_pointer_value(int y) {
  FnPtr p = pointer_policy();
  return p(y);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (p ? p(y) : y);{{$}}
}

int dereferenced_pointer_value(int z) {
  auto p = shared_policy();
  return (*p)(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (p ? (*p)(z) : z);{{$}}
}

int operator_call_value(int z) {
  auto op = shared_policy();
  return op->operator()(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'op' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (op ? op->operator()(z) : z);{{$}}
}

int member_pointer_value(Layer &layer, int z) {
  MemFn pm = member_policy();
  return (layer.*pm)(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: call through possibly empty callable 'pm' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (pm ? (layer.*pm)(z) : z);{{$}}
}

int inside_larger_expression(int a) {
  IntFn g = int_policy();
  int r = g(a) + 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  int r = (g ? g(a) : a) + 1;{{$}}
  return r;
}

int member_argument(const Step &s) {
  IntFn h = int_policy();
  return h(s.value);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (h ? h(s.value) : s.value);{{$}}
}

int two_arguments(int a, int b) {
  auto add = binary_policy();
  return add(a, b);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'add' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return (add ? add(a, b) : a);{{$}}
}

int assigned_value(int c) {
  IntFn k = int_policy();
  int r = 0;
  r = k(c);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'k' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  r = (k ? k(c) : c);{{$}}
  return r;
}

// No edit: the argument has side effects, or the types differ.

int argument_with_side_effect() {
  IntFn se = int_policy();
  return se(next_value());
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'se' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return se(next_value());{{$}}
}

int argument_incremented(int x) {
  IntFn inc = int_policy();
  return inc(x++);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'inc' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return inc(x++);{{$}}
}

std::string different_result_type(int x) {
  auto name = name_policy();
  return name(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'name' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return name(x);{{$}}
}

long widening_result_type(int x) {
  auto widen = widening_policy();
  return widen(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'widen' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES: {{^}}  return widen(x);{{$}}
}

// Negative cases: no warning, so nothing changes.

int checked_value(int x) {
  IntFn ok = int_policy();
  if (!ok)
    return x;
  return ok(x); // no-warning
  // CHECK-FIXES: {{^}}  return ok(x); // no-warning{{$}}
}

int already_guarded_by_conditional(int x) {
  IntFn cf = int_policy();
  return cf ? cf(x) : x; // no-warning
  // CHECK-FIXES: {{^}}  return cf ? cf(x) : x; // no-warning{{$}}
}
