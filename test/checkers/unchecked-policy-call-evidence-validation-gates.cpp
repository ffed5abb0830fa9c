// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A test elsewhere is belief (the seed's story) where the function that
// tests also acts on the value: it calls it, passes it on or stores it,
// hands the tested object to a call, or returns the test to its callers (a
// predicate, which says the value is optional). A gate that only rejects
// an object without the value keeps empty values out, which says that no
// use meets one: duckdb's C API (`if (!info.update) return DuckDBError;`
// before registering the function), brpc's `IOEventData::OnCreated`.

#include <memory>

typedef void (*UpdateFn)(void *state, const double *in, int n);
typedef void (*FinalizeFn)(void *state, double *out);
typedef int (*InputFn)(void *arg);

// Made empty, filled by setters, checked at registration, called by the
// engine for registered functions only.
struct AggregateInfo {
  UpdateFn update = nullptr;
  FinalizeFn finalize = nullptr;
};
struct Aggregate {
  std::shared_ptr<AggregateInfo> info;
};

Aggregate *create_aggregate() {
  auto *a = new Aggregate;
  a->info = std::make_shared<AggregateInfo>();
  return a;
}
void set_functions(Aggregate *a, UpdateFn update, FinalizeFn finalize) {
  a->info->update = update;
  a->info->finalize = finalize;
}
void add_to_catalog(Aggregate *a);
int register_aggregate(Aggregate *a) {
  AggregateInfo &info = *a->info;
  if (!info.update || !info.finalize)
    return 1;
  add_to_catalog(a);
  return 0;
}

// Hard negative: the gate's test is the only one.
void run_update(AggregateInfo &info, void *state, const double *in, int n) {
  info.update(state, in, n); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'info.update' [wrapguard-unchecked-policy-call]
}

// True neighbour: another function tests `finalize` and calls it, so its
// authors meet an empty one where it is used.
void finalize_if_any(AggregateInfo &info, void *state, double *out) {
  if (info.finalize)
    info.finalize(state, out);
}
void run_finalize(AggregateInfo &info, void *state, double *out) {
  info.finalize(state, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'info.finalize' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: call through possibly empty callable 'info.finalize' [wrapguard-unchecked-policy-call]
}

// A pooled object's options: checked when the object is created, reset to
// `{}` when it is recycled, called while it lives.
struct EventOptions {
  InputFn input_cb;
  InputFn output_cb;
  void *arg;
};
class EventData {
public:
  int on_created(const EventOptions &options) {
    if (!options.input_cb)
      return -1;
    if (!options.output_cb)
      return -1;
    options_ = options;
    return 0;
  }
  void before_recycled() { options_ = EventOptions{}; }
  // Hard negative.
  int on_input() {
    return options_.input_cb(options_.arg); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'options_.input_cb' [wrapguard-unchecked-policy-call]
  }
  // True neighbour: a predicate says the value is optional.
  bool can_output() const { return options_.output_cb != nullptr; }
  int on_output() {
    return options_.output_cb(options_.arg);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'options_.output_cb' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:12: warning: call through possibly empty callable 'options_.output_cb' [wrapguard-unchecked-policy-call]
  }

private:
  EventOptions options_;
};
int read_input(void *);
int write_output(void *);
int start(EventData &d, void *arg) {
  return d.on_created(EventOptions{read_input, write_output, arg});
}

// A gate that passes the value on is a use: it stores what it tested.
struct Hooks {
  InputFn on_close = nullptr;
};
Hooks *make_hooks() { return new Hooks{}; }
int install_close(Hooks *h, InputFn f) {
  if (!f)
    return -1;
  h->on_close = f;
  return 0;
}
int close_with(InputFn f, void *arg) {
  return f(arg); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int close_hooks(Hooks *h, void *arg) {
  if (h->on_close)
    return close_with(h->on_close, arg);
  return 0;
}
int close_now(Hooks *h, void *arg) {
  return h->on_close(arg);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'h->on_close' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through possibly empty callable 'h->on_close' [wrapguard-unchecked-policy-call]
}
