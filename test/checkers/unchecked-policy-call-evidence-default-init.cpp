// RUN: %check_wrapguard %s %t

// `Params p;` of automatic storage leaves a function pointer that nothing
// initialises indeterminate, not null: the code writes it before it reads
// it (a memcpy from a buffer, a fill through a pointer). Such a declaration
// is no construction that "leaves the field empty". A value-initialisation
// (`Params()`, `Params{}`) does make it null, a global is zero-initialised,
// and a std::function member is default-constructed empty: those stay
// evidence. (ggml's custom-op parameters, read back with memcpy.)

#include <cstring>
#include <functional>

typedef void (*CustomFn)(float *, int, void *);
struct Params {
  CustomFn fun;
  int n_tasks;
  void *userdata;
};
struct Node {
  char op_params[64];
};

void set_custom(Node *n, CustomFn fun, void *ud) {
  Params p = {fun, 1, ud};
  std::memcpy(n->op_params, &p, sizeof(p));
}

void run_custom(const Node *n, float *x) {
  Params p;
  std::memcpy(&p, n->op_params, sizeof(p));
  p.fun(x, p.n_tasks, p.userdata); // no-warning
}

void run_filled(float *x, void (*fill)(Params *)) {
  Params *p = new Params;
  fill(p);
  p->fun(x, p->n_tasks, p->userdata); // no-warning
  delete p;
}

// True neighbours: value-initialised, then called unset.
void run_value_initialised(float *x) {
  Params p = Params();
  p.fun(x, 1, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'p.fun' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Params' is constructed with 'Params{}', which leaves 'Params::fun' empty, in 'run_value_initialised' ({{.*}}.cpp:[[@LINE-3]])
}

// A std::function member is empty after `Hooks h;`.
struct Hooks {
  std::function<void(int)> on_step;
  CustomFn raw;
};
void step(int i) {
  Hooks h;
  h.on_step(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through callable 'h.on_step', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:9: note: 'h' is constructed here with 'Hooks()', which leaves 'on_step' empty
}
