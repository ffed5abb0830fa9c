// RUN: %check_wrapguard %s %t

// std::function is the common nullable callable: empty when default
// constructed, and std::bad_function_call when called empty.

#include <functional>
#include <memory>
#include <string>

struct Module {};
using ModulePtr = std::shared_ptr<Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;
using IntFn = std::function<int(int)>;
using Callback = std::function<void()>;

WrapFn get_wrap_policy(int config);
IntFn int_policy();
Callback callback_policy();
std::function<std::string(const std::string &)> name_policy();
WrapFn make_wrapper(int config); // not a policy by name, no definition

ModulePtr value_call_from_policy(ModulePtr m) {
  WrapFn wrap = get_wrap_policy(0);
  return wrap(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
}

void statement_call_from_policy(ModulePtr m) {
  WrapFn wrap = get_wrap_policy(1);
  wrap(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
}

int int_callable_from_policy(int x) {
  IntFn f = int_policy();
  int r = f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  return r;
}

void zero_argument_callable() {
  Callback cb = callback_policy();
  cb();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
}

std::string const_reference_argument(const std::string &s) {
  auto rename = name_policy();
  return rename(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'rename' [wrapguard-unchecked-policy-call]
}

void call_through_const_reference_local(ModulePtr m) {
  const WrapFn &ref = get_wrap_policy(2);
  ref(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'ref' [wrapguard-unchecked-policy-call]
}

// Regression (issue 2): the explicit operator() spelling was not recognised.
void operator_call_spelling(int x) {
  IntFn f = int_policy();
  f.operator()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

ModulePtr guarded_value_call(ModulePtr m) {
  WrapFn wrap = get_wrap_policy(0);
  if (wrap)
    return wrap(m); // no-warning
  return m;
}

void unknown_origin_is_not_reported(ModulePtr m) {
  WrapFn wrap = make_wrapper(0);
  wrap(m); // no-warning
}

void parameter_is_not_reported(const WrapFn &wrap, ModulePtr m) {
  wrap(m); // no-warning
}

void lambda_initialised_local(int x) {
  IntFn f = [](int v) { return v + 1; };
  f(x); // no-warning
}

void direct_call_of_non_callable_function(ModulePtr m) {
  ModulePtr other = m; // no-warning
  (void)other;
}

void std_function_invoke_of_guarded(int x) {
  IntFn f = int_policy();
  if (!f)
    return;
  std::invoke(f, x); // no-warning
}

int policy_call_result_not_called(int x) {
  IntFn f = int_policy();
  return f ? 1 : x; // no-warning
}
