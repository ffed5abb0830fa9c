// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// Correlated slots. Interface tables fill some slots together: every device
// table that sets `event_new` also sets `event_free`, and an event exists
// only where `event_new` made it, so freeing an event through its device's
// table is safe, although the CPU table leaves both empty and other code
// tests `event_free`. The call says which tables it can meet: one whose
// maker of the object it passes is set, or one whose sibling slot it has
// just tested. Where every such construction sets the called slot, the
// default mode stays quiet; StrictMode, which needs proof, reports it.

#include <cstddef>

struct Device;
struct Event {
  Device *device;
  void *ctx;
};
typedef Event *EventT;

struct DeviceIface {
  const char *(*get_name)(Device *);
  EventT (*event_new)(Device *);
  void (*event_free)(Device *, EventT);
  void (*event_record)(Device *, EventT);
  int (*open_stream)(Device *, EventT *out);
  void (*close_stream)(Device *, EventT);
};
struct Device {
  DeviceIface iface;
};

static const char *cpu_name(Device *) { return "cpu"; }
static const char *gpu_name(Device *) { return "gpu"; }
static const char *npu_name(Device *) { return "npu"; }
static EventT gpu_event_new(Device *d) { return new Event{d, nullptr}; }
static void gpu_event_free(Device *, EventT e) { delete e; }
static void gpu_event_record(Device *, EventT) {}
static EventT npu_event_new(Device *d) { return new Event{d, nullptr}; }
static int gpu_open(Device *d, EventT *out) {
  *out = new Event{d, nullptr};
  return 0;
}
static void gpu_close(Device *, EventT e) { delete e; }
static int npu_open(Device *d, EventT *out) {
  *out = new Event{d, nullptr};
  return 0;
}

// The CPU leaves every event slot empty; the GPU sets them all; the NPU makes
// events but records none and closes no stream it opens.
static const DeviceIface cpu_iface = {cpu_name, NULL, NULL, NULL, NULL, NULL};
static const DeviceIface gpu_iface = {gpu_name,         gpu_event_new,
                                      gpu_event_free,   gpu_event_record,
                                      gpu_open,         gpu_close};
static const DeviceIface npu_iface = {npu_name,       npu_event_new,
                                      gpu_event_free, NULL,
                                      npu_open,       NULL};

Device cpu_dev = {cpu_iface};
Device gpu_dev = {gpu_iface};
Device npu_dev = {npu_iface};

EventT event_new(Device *d) {
  if (d->iface.event_new == NULL)
    return NULL;
  return d->iface.event_new(d);
}

// Belief: the project tests these slots elsewhere.
bool can_free(Device *d) { return d->iface.event_free != NULL; }
bool can_record(Device *d) { return d->iface.event_record != NULL; }
bool can_close(Device *d) { return d->iface.close_stream != NULL; }

// Hard negative: the event exists, so its device's `event_new` is set, and
// every table that sets it sets `event_free`.
void event_free(EventT e) {
  if (e == NULL)
    return;
  e->device->iface.event_free(e->device, e); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'e->device->iface.event_free' [wrapguard-unchecked-policy-call]
}

// True neighbour: the NPU makes events but cannot record them.
void event_record(EventT e) {
  e->device->iface.event_record(e->device, e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'e->device->iface.event_record' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: call through possibly empty callable 'e->device->iface.event_record' [wrapguard-unchecked-policy-call]
}

// A maker through an out-parameter: every table that sets `open_stream`...
// but the NPU's closes nothing, so the call is still found.
void close_stream(EventT s) {
  s->device->iface.close_stream(s->device, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 's->device->iface.close_stream' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: call through possibly empty callable 's->device->iface.close_stream' [wrapguard-unchecked-policy-call]
}

// Without an event, nothing says which table the device has.
void free_on(Device *d, void *ctx) {
  d->iface.event_free(d, NULL);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'd->iface.event_free' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: call through possibly empty callable 'd->iface.event_free' [wrapguard-unchecked-policy-call]
}

// A test of a sibling slot: every table that sets `event_new` sets
// `event_free`, so the call under the test is safe; under a test of
// `get_name`, which every table sets, nothing is known.
void release(Device *d, EventT e) {
  if (d->iface.event_new)
    d->iface.event_free(d, NULL); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'd->iface.event_free' [wrapguard-unchecked-policy-call]
  if (d->iface.get_name)
    d->iface.event_free(d, NULL);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'd->iface.event_free' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'd->iface.event_free' [wrapguard-unchecked-policy-call]
}

// Exactly one of two handlers: every construction sets `on_error` or
// `on_error2`, so the `else` of a test of the first calls a set second.
using ErrorFn = int (*)(void *, int);
using ErrorFn2 = int (*)(void *, int, const char *);
struct Handlers {
  ErrorFn on_error;
  ErrorFn2 on_error2;
  void *data;
};
static int plain_error(void *, int code) { return code; }
static int text_error(void *, int code, const char *) { return code; }
Handlers plain_handlers = {plain_error, NULL, NULL};
Handlers text_handlers = {NULL, text_error, NULL};
bool has_text(const Handlers *h) { return h->on_error2 != NULL; }

int report(Handlers *h, Handlers *other, int code) {
  if (h->on_error)
    return h->on_error(h->data, code);
  if (code > 1)
    return h->on_error2(h->data, code, "failed"); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'h->on_error2' [wrapguard-unchecked-policy-call]
  // Another object's test says nothing of this one.
  return other->on_error2(other->data, code, "failed");
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'other->on_error2' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through possibly empty callable 'other->on_error2' [wrapguard-unchecked-policy-call]
}

// A slot assigned after construction breaks the pairing the tables show.
struct Hooks {
  ErrorFn before;
  ErrorFn after;
};
Hooks both_hooks = {plain_error, plain_error};
Hooks no_hooks = {NULL, NULL};
void set_before(Hooks *h, ErrorFn f) { h->before = f; }
bool has_after(const Hooks *h) { return h->after != NULL; }
int run_hooks(Hooks *h) {
  if (h->before)
    return h->after(NULL, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'h->after' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:12: warning: call through possibly empty callable 'h->after' [wrapguard-unchecked-policy-call]
  return 0;
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
