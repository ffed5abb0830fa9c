// RUN: %check_wrapguard %s %t

// Callables of unknown origin are not reported by default (see
// unchecked-policy-call-strict-mode.cpp for StrictMode): parameters, fields,
// globals, container lookups, and functions that are neither policies by name
// nor visible.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

IntFn global_hook;
IntFn make_wrapper(int kind);
IntFn &registry_entry(const std::string &name);
void fill(IntFn &out);

struct Wrapper {
  int operator()(int x) const { return x; }
};

// Set by its constructor, so not a source by the project's facts.
struct Trainer {
  explicit Trainer(IntFn s) : on_step(std::move(s)) {}
  IntFn on_step;
  static IntFn on_epoch;
  int step(int x) { return on_step(x); } // no-warning
};

int parameter_by_value(IntFn f, int x) {
  return f(x); // no-warning
}

int parameter_by_pointer(const IntFn *pf, int x) {
  return (*pf)(x); // no-warning
}

int function_pointer_parameter(FnPtr p, int x) {
  return p(x); // no-warning
}

int shared_pointer_parameter(std::shared_ptr<Wrapper> p, int x) {
  return (*p)(x); // no-warning
}

int field_of_argument(Trainer &t, int x) {
  return t.on_step(x); // no-warning
}

int static_member(int x) {
  return Trainer::on_epoch(x); // no-warning
}

int global_variable(int x) {
  return global_hook(x); // no-warning
}

int map_lookup(const std::map<std::string, IntFn> &hooks, int x) {
  IntFn f = hooks.at("step");
  return f(x); // no-warning
}

// Not of unknown origin: operator[] inserts an empty IntFn for a missing key
// (unchecked-policy-call-sources-map-subscript.cpp).
int map_subscript(std::map<int, IntFn> &hooks, int x) {
  return hooks[x](x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'hooks[x]' [wrapguard-unchecked-policy-call]
}

int vector_element(const std::vector<IntFn> &hooks, int x) {
  return hooks.front()(x); // no-warning
}

int non_policy_declaration(int x) {
  IntFn f = make_wrapper(0);
  return f(x); // no-warning
}

int returned_reference(int x) {
  IntFn &f = registry_entry("step");
  return f(x); // no-warning
}

int filled_by_out_parameter(int x) {
  IntFn f;
  fill(f);
  return f(x); // no-warning
}

int static_local(int x) {
  static IntFn cached = make_wrapper(1);
  return cached(x); // no-warning
}
