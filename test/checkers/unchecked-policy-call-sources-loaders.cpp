// RUN: %check_wrapguard %s %t

// Function pointers loaded at run time by name: dlsym (and dlvsym,
// GetProcAddress) return null when the symbol is missing, and so does a
// function whose body returns what a loader returns. A call through the
// result without a test of the load is a finding; a tested one is not.

#include <dlfcn.h>

typedef int (*init_fn)(int);

static void *lib;

// A wrapper, found from its body.
static void *load_symbol(const char *name) { return dlsym(lib, name); }
static void *load_symbol_twice_removed(const char *name) {
  return load_symbol(name);
}

int start_unchecked() {
  init_fn f = (init_fn)dlsym(lib, "x_init");
  return f(1);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: 'f' comes from 'dlsym', which may return an empty callable
}

int start_through_wrapper() {
  auto f = reinterpret_cast<init_fn>(load_symbol_twice_removed("x_init"));
  return f(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:38: note: 'f' comes from 'load_symbol_twice_removed', which may return an empty callable
}

// Negative cases: the load is tested.

int start_checked() {
  init_fn f = (init_fn)dlsym(lib, "x_init");
  if (!f)
    return -1;
  return f(3); // no-warning
}

int start_checked_wrapper() {
  init_fn f = (init_fn)load_symbol("x_init");
  return f ? f(4) : -1; // no-warning
}

// A cast of something that is not a loader is not a source.
static void *table_entry(int i);
int from_table() {
  init_fn f = (init_fn)table_entry(0);
  return f(5); // no-warning
}

// A table of entry points filled by a loader, called elsewhere: each field
// holds a loader's result, which nothing in the project tests.
struct Api {
  init_fn init;
  void (*shutdown)();
};
static Api api;
bool load_api(void *h) {
  api.init = (init_fn)dlsym(h, "x_init");
  api.shutdown = reinterpret_cast<void (*)()>(load_symbol("x_shutdown"));
  return true;
}
int start_api() {
  return api.init(6);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'api.init' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: 'Api::init' is assigned the result of 'dlsym', which is null when the symbol is missing, in 'load_api' ({{.*}}.cpp:[[@LINE-7]])
}
void stop_api() {
  if (api.shutdown)
    api.shutdown(); // no-warning
}

// The loaded pointer is tested before it is stored: the table holds what
// the load proved there.
struct Checked {
  init_fn init;
};
static Checked checked;
bool load_checked(void *h) {
  void *s = dlsym(h, "x_init");
  if (!s)
    return false;
  checked.init = (init_fn)s;
  return true;
}
int start_checked_api() { return checked.init(7); } // no-warning

// The load tested through `dlerror()` right after it is stored, POSIX's
// own test of a lookup (mlx's LOAD_SYMBOL): past the test, the pointer is
// set. In a statement macro's braces, in a constructor too.
#define LOAD_SYMBOL(symbol, variable)                                          \
  {                                                                            \
    variable = (decltype(variable))dlsym(handle, #symbol);                     \
    char *error = dlerror();                                                   \
    if (error != nullptr) {                                                    \
      handle = nullptr;                                                        \
      return;                                                                  \
    }                                                                          \
  }

struct Wrapper {
  Wrapper() {
    handle = dlopen("libx.so", RTLD_NOW);
    if (handle == nullptr)
      return;
    init_fn version;
    LOAD_SYMBOL(x_version, version);
    version(8); // no-warning
    LOAD_SYMBOL(x_init, init);
    LOAD_SYMBOL(x_step, step);
  }
  int start() { return init(9); } // no-warning
  int step_once() { return step(10); } // no-warning
  init_fn init;
  init_fn step;
  void *handle;
};
Wrapper &wrapper() {
  static Wrapper w;
  return w;
}

int start_dlerror_tested() {
  init_fn f = (init_fn)dlsym(lib, "x_init");
  if (dlerror())
    return -1;
  return f(11); // no-warning
}

// The C idiom that keeps the error as it tests it (fltk's GET_SYM), the
// pointers then used by other functions.
#define GET_SYM(SSS, LLL)                                                      \
  dlerror();                                                                   \
  fl_##SSS = (init_fn)dlsym(LLL, #SSS);                                        \
  if ((pc_dl_error = dlerror()) != nullptr) {                                  \
    found_libs = 0;                                                            \
    return;                                                                    \
  }
static init_fn fl_x_open;
static init_fn fl_x_close;
static int found_libs;
void probe_libs(void *h) {
  char *pc_dl_error;
  GET_SYM(x_open, h);
  found_libs = 1;
}
int open_file() { return fl_x_open(14); } // no-warning

// Kept and tested, but the function goes on: no test of the load.
void probe_logged(void *h) {
  char *pc_dl_error;
  fl_x_close = (init_fn)dlsym(h, "x_close");
  if ((pc_dl_error = dlerror()) != nullptr)
    found_libs = 0;
}
int close_file() { return fl_x_close(15); }
// CHECK-NOTES: :[[@LINE-1]]:27: warning: call through possibly empty callable 'fl_x_close' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:27: note: 'fl_x_close' is assigned the result of 'dlsym', which is null when the symbol is missing, in 'probe_logged' ({{.*}}.cpp:[[@LINE-6]])

// True neighbours: a `dlerror()` test that goes on, one after a use, and
// one of a load that a use comes between.
int start_dlerror_logged() {
  init_fn f = (init_fn)dlsym(lib, "x_init");
  if (const char *e = dlerror())
    (void)e;
  return f(12);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-5]]:24: note: 'f' comes from 'dlsym', which may return an empty callable
}

int start_dlerror_late() {
  init_fn f = (init_fn)dlsym(lib, "x_init");
  int r = f(13);
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:24: note: 'f' comes from 'dlsym', which may return an empty callable
  if (dlerror())
    return -1;
  return r;
}

// A table entry tested right after the load stores it, the function left
// on null (simbody's `cfsqp_fptr = (F)GetProcAddress(h, "cfsqp"); if
// (!cfsqp_fptr) SimTK_THROW1(..);`): the loader reports its failure, as a
// `dlerror()` test would, and the entry is no loader's unchecked result.
struct Solver {
  init_fn solve;
  init_fn report;
  init_fn trace;
};
static Solver solver;
struct LoadError {};
void bind_solver(void *h) {
  if (solver.solve)
    return;
  solver.solve = (init_fn)dlsym(h, "solve");
  if (!solver.solve) {
    throw LoadError();
  }
  solver.report = (init_fn)dlsym(h, "report");
  if (solver.report == nullptr)
    return;
  solver.trace = (init_fn)dlsym(h, "trace");
  if (!solver.trace)
    (void)0; // goes on
}
int run_solver(int x) { return solver.solve(x) + solver.report(x); } // no-warning

// True neighbour: a test that does not leave the block.
int trace_solver(int x) {
  return solver.trace(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'solver.trace' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: 'Solver::trace' is assigned the result of 'dlsym', which is null when the symbol is missing, in 'bind_solver' ({{.*}}.cpp:[[@LINE-10]])
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
