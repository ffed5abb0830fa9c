// RUN: %check_wrapguard %s %t

// C-style interfaces: structs of function pointers, reached through any
// chain of member accesses, keyed as fields of the struct that declares
// them. Interface tables (aggregate and designated initialisers) are their
// constructions; null assignments anywhere empty them.

#include <cstddef>

struct Backend;
struct BackendOps {
  int (*init)(Backend *);
  int (*step)(Backend *, int);
  void (*release)(Backend *);
  int (*sync)(Backend *);
  void (*trace)(Backend *);
};
struct Backend {
  BackendOps iface;
  const BackendOps *ops;
  int state;
};

static int cpu_init(Backend *) { return 0; }
static int cpu_step(Backend *, int x) { return x; }
static int cpu_sync(Backend *) { return 0; }
static int gpu_init(Backend *) { return 1; }
static int gpu_step(Backend *, int x) { return 2 * x; }
static int gpu_sync(Backend *) { return 1; }

// `release` is NULL in every table: never set.
static const BackendOps cpu_ops = {cpu_init, cpu_step, NULL, cpu_sync};
static void gpu_trace(Backend *) {}
static const BackendOps gpu_ops = {.init = gpu_init, .step = gpu_step,
                                   .sync = gpu_sync, .trace = gpu_trace};

int run(Backend *b, int x) {
  if (b->ops->init(b) != 0)   // no-warning: every table sets it
    return -1;
  int y = b->iface.step(b, x); // no-warning: every table sets it
  b->iface.release(b);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'b->iface.release' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'BackendOps::release' is set by none of the 2 constructions of 'BackendOps' in the project
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'BackendOps' is constructed with 'BackendOps{}', which leaves 'BackendOps::release' empty, in 'cpu_ops' ({{.*}}.cpp:32)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'BackendOps' is constructed with 'BackendOps{}', which leaves 'BackendOps::release' empty, in 'gpu_ops' ({{.*}}.cpp:34)
  // Per mode: one table sets it, the other not, and nothing checks it.
  b->ops->trace(b); // no-warning
  return y;
}

// Emptied elsewhere: a null assignment in one function, a call in another.
void detach(Backend *b) { b->iface.sync = nullptr; }
int flush(Backend *b) { return b->iface.sync(b); }
// CHECK-NOTES: :[[@LINE-1]]:32: warning: call through possibly empty callable 'b->iface.sync' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:32: note: check that 'b->iface.sync' is not empty before this call, e.g. 'if (b->iface.sync)'
// CHECK-NOTES: :[[@LINE-3]]:32: note: 'BackendOps::sync' is made empty in 'detach' ({{.*}}.cpp:52)

// A member the project checks elsewhere before calling.
int maybe_sync(Backend *b) { return b->iface.sync ? b->iface.sync(b) : 0; }

void use_tables(Backend *b, bool gpu) {
  b->ops = gpu ? &gpu_ops : &cpu_ops;
  b->iface = gpu ? gpu_ops : cpu_ops;
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
