// RUN: %check_wrapguard %s %t

// Belief: when code elsewhere tests a value from a source for emptiness, its
// authors believe it can be empty, and an untested call through a value from
// the same source is flagged. The source's definition is not visible and its
// name says nothing.

#include <functional>

using WrapFn = std::function<int(int)>;

struct Config {
  int kind = 0;
};

WrapFn resolve_wrapper(const Config &cfg);
WrapFn make_hook(int id);
WrapFn make_other(int id);

// The seed bug: a sibling checks the result, this pass calls it anyway.
int prepare_model(const Config &cfg, int x) {
  WrapFn wrap = resolve_wrapper(cfg);
  if (!wrap)
    return x;
  return wrap(x); // no-warning
}

int apply_checkpointing(const Config &cfg, int x) {
  WrapFn wrap = resolve_wrapper(cfg);
  return wrap(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'wrap' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:17: note: a value from 'resolve_wrapper' is checked for emptiness in 'prepare_model' ({{.*}}.cpp:23)
}

// Another call site of the same function, in the same function.
int same_function_two_sites(int x) {
  WrapFn a = make_hook(1);
  if (a)
    x = a(x); // no-warning
  WrapFn b = make_hook(2);
  return b(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'b' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:14: note: a value from 'make_hook' is checked for emptiness in 'same_function_two_sites' ({{.*}}.cpp:38)
}

// A parameter checked before one call and not before its sibling.
int parameter_checked_once(const WrapFn &cb, int x) {
  if (cb)
    x = cb(x); // no-warning
  return cb(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-2]]:10: note: a value from 'cb' is checked for emptiness in 'parameter_checked_once' ({{.*}}.cpp:48)
}

// A field that no constructor leaves empty is not a source, even though
// some code tests it (unchecked-policy-call-sources-fields.cpp has the rest).
struct Trainer {
  explicit Trainer(WrapFn s) : on_step(std::move(s)) {}
  WrapFn on_step;
  int guarded(int x) { return on_step ? on_step(x) : x; }
  int step(int x) { return on_step(x); } // no-warning
};

// Negative cases.

// Never tested anywhere: no evidence, no warning.
int never_tested(int x) {
  WrapFn f = make_other(1);
  return f(x); // no-warning
}

int parameter_never_tested(const WrapFn &cb, int x) {
  return cb(x); // no-warning
}

// Tested here, on every path to the call.
int tested_with_early_exit(const Config &cfg, int x) {
  WrapFn wrap = resolve_wrapper(cfg);
  if (wrap == nullptr)
    return x;
  return wrap(x); // no-warning
}

// A parameter checked in another function is another parameter.
int other_parameter(const WrapFn &cb, int x) {
  return cb(x); // no-warning
}

// The value is overwritten by a lambda before the call.
int overwritten(const Config &cfg, int x) {
  WrapFn wrap = resolve_wrapper(cfg);
  wrap = [](int v) { return v; };
  return wrap(x); // no-warning
}
