// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// Callables of unknown origin (parameters, fields, container lookups,
// functions that are neither policies nor visible) are reported only in
// StrictMode, as possibly empty.

#include <functional>
#include <map>
#include <string>
#include <vector>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }
IntFn make_wrapper(); // not a policy by name, no definition
IntFn make_checked_wrapper();
void refresh(IntFn &f);

// Set by every constructor: not a source by the project's facts, so of
// unknown origin, reported only under StrictMode.
struct Trainer {
  explicit Trainer(IntFn h) : hook(std::move(h)) {}
  IntFn hook;
  int run(int x) {
    return hook(x);
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'hook' [wrapguard-unchecked-policy-call]
  }
  int run_checked(int x) {
    if (!hook)
      return x;
    return hook(x); // no-warning
  }
};

struct Options {
  explicit Options(IntFn f) : on_step(std::move(f)) {}
  IntFn on_step;
};

int parameter(const IntFn &f, int x) {
  return f(x);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int field_of_parameter(const Options &o, int x) {
  return o.on_step(x);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'o.on_step' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-STRICT: {{^}}  return (o.on_step ? o.on_step(x) : x);{{$}}
}

int map_lookup(const std::map<std::string, IntFn> &m, int x) {
  IntFn f = m.at("relu");
  return f(x);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int vector_element(const std::vector<IntFn> &fs, int x) {
  IntFn f = fs[0];
  return f(x);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int non_policy_declaration(int x) {
  IntFn f = make_wrapper();
  return f(x);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int passed_by_reference(int x) {
  IntFn f = identity;
  refresh(f);
  return f(x);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases, in both modes.

int parameter_checked(const IntFn &f, int x) {
  if (f)
    return f(x); // no-warning
  return x;
}

int field_checked(const Options &o, int x) {
  return o.on_step ? o.on_step(x) : x; // no-warning
}

int lambda_local(int x) {
  IntFn f = [](int v) { return v; };
  return f(x); // no-warning
}

// A lambda converted to a function pointer, implicitly or by the unary `+`
// idiom, is never null.
int lambda_pointer_local(int x) {
  int (*f)(int) = [](int v) { return v; };
  int (*g)(int) = +[](int v) { return v + 1; };
  return f(x) + g(x); // no-warning
}

int function_name_local(int x) {
  IntFn f = identity;
  return f(x); // no-warning
}

int non_policy_declaration_checked(int x) {
  IntFn f = make_checked_wrapper(); // its own source: no belief about make_wrapper
  if (f == nullptr)
    return x;
  return f(x); // no-warning
}
