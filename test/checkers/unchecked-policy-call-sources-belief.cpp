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

// A test followed by a set of the same value normalises it (`if (!cfg.f)
// cfg.f = &dflt;`, abseil's SetFlagsUsageConfig): the code makes sure it is
// set, which is no belief that other uses may find it empty. The default
// construction that the getter fills in is per mode, so without belief the
// calls stay quiet.
using NameFn = std::function<int(int)>;
struct UsageConfig {
  NameFn normalize;
  NameFn version;
};
int normalize_default(int x);
UsageConfig *custom_config;
UsageConfig get_config() {
  if (custom_config)
    return *custom_config;
  UsageConfig c;
  c.normalize = &normalize_default;
  c.version = &normalize_default;
  return c;
}
void set_config(UsageConfig c) {
  if (!c.normalize)
    c.normalize = &normalize_default;
  if (c.version == nullptr) {
    c.version = &normalize_default;
  }
  custom_config = new UsageConfig(c);
}
int file_name(int x) { return get_config().normalize(x); } // no-warning

// Its neighbour: a test that does not set the value is belief. (A set on
// every path right after `Hooks h;` would make that construction set it.)
struct Hooks {
  NameFn on_step;
  NameFn on_end;
};
Hooks *current_hooks;
bool verbose_hooks;
Hooks get_hooks() {
  if (current_hooks)
    return *current_hooks;
  Hooks h;
  if (verbose_hooks)
    h.on_step = &normalize_default;
  h.on_end = &normalize_default;
  return h;
}
int maybe_step(int x) {
  Hooks h = get_hooks();
  if (!h.on_step)
    return x;
  return h.on_step(x);
}
int step(int x) { return get_hooks().on_step(x); }
// CHECK-NOTES: :[[@LINE-1]]:26: warning: call through possibly empty callable 'get_hooks().on_step' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:26: note: check that 'get_hooks().on_step' is not empty before this call, e.g. 'if (get_hooks().on_step)'
// CHECK-NOTES: :[[@LINE-3]]:26: note: 'Hooks' is constructed with 'Hooks{}', which leaves 'Hooks::on_step' empty, in 'get_hooks' ({{.*}}.cpp:[[@LINE-15]])
// CHECK-NOTES: :[[@LINE-4]]:26: note: a value from 'Hooks::on_step' is checked for emptiness in 'maybe_step' ({{.*}}.cpp:[[@LINE-8]])
