// RUN: %check_wrapguard %s %t

// A call that passes a parameter empty is evidence only for the uses it can
// reach. `blit(.., false)` leaves `f` at its default `nullptr`, but `blit`
// passes `f` on only under `if (reduce)`: with `reduce` false the empty `f`
// never reaches the call (MNN's `_blit`/`_reduceblit`). The flow analysis
// gives what each use requires of the function's boolean parameters; the
// facts keep the literals each call passes them. Each hard negative has a
// true neighbour whose literals do reach the call.

#include <functional>

using Fn = std::function<int(int)>;

// The use requires `use`; the only empty call passes false.
int run(Fn f, bool use) {
  if (use)
    return f(1); // no-warning
  return 0;
}
int run_caller() { return run(nullptr, false) + run([](int x) { return x; }, true); }

// Its neighbour: the empty call passes true.
int run_on(Fn f, bool use) {
  if (use)
    return f(1);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: 'f' of 'run_on' is passed an empty callable in 'run_on_caller' ({{.*}}.cpp:[[@LINE+3]])
  return 0;
}
int run_on_caller() { return run_on(nullptr, true); }

// An early exit on the flag, and the flag's default argument.
int early(Fn f, bool skip = true) {
  if (skip)
    return 0;
  return f(2); // no-warning
}
int early_caller() { return early(nullptr); }

// A constant folds like a literal; a value the call computes does not.
constexpr bool kReduce = false;
bool reduce_enabled();
int folded(Fn f, bool use) { return use ? f(3) : 0; } // no-warning
int folded_caller() { return folded(nullptr, kReduce); }
int computed(Fn f, bool use) { return use ? f(3) : 0; }
// CHECK-NOTES: :[[@LINE-1]]:45: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:45: note: 'f' of 'computed' is passed an empty callable in 'computed_caller' ({{.*}}.cpp:[[@LINE+1]])
int computed_caller() { return computed(nullptr, reduce_enabled()); }

// A flag the function assigns speaks of its new value, not of the call's.
int reassigned(Fn f, bool use) {
  use = use || reduce_enabled();
  if (use)
    return f(4);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: 'f' of 'reassigned' is passed an empty callable in 'reassigned_caller' ({{.*}}.cpp:[[@LINE+3]])
  return 0;
}
int reassigned_caller() { return reassigned(nullptr, false); }

// The note names a call that reaches the use, not the first empty one.
int mixed(Fn f, bool use) { return use ? f(5) : 0; }
// CHECK-NOTES: :[[@LINE-1]]:42: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:42: note: 'f' of 'mixed' is passed an empty callable in 'mixed_second' ({{.*}}.cpp:[[@LINE+2]])
int mixed_first() { return mixed(nullptr, false); }
int mixed_second() { return mixed(nullptr, true); }

// MNN's shape: the parameter is passed on under the flag, and every call
// that leaves it at its default passes the flag false.
static int reduce_rows(int n, Fn convert) { return convert(n); } // no-warning
static int blit(int n, bool reduce, Fn convert = nullptr) {
  if (reduce) {
    if (int r = reduce_rows(n, convert))
      return r;
  }
  return n;
}
int blit_plain(int n) { return blit(n, false) + blit(n + 1, false); }
int blit_reducing(int n) { return blit(n, true, [](int x) { return -x; }); }

// Its neighbour: one call that leaves the default passes the flag true.
static int reduce_cols(int n, Fn convert) { return convert(n); }
// CHECK-NOTES: :[[@LINE-1]]:52: warning: call through possibly empty callable 'convert' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:52: note: 'convert' of 'reduce_cols' is passed a value from 'convert' in 'blit_cols' ({{.*}}.cpp:[[@LINE+4]])
// CHECK-NOTES: :[[@LINE-3]]:52: note: 'convert' of 'blit_cols' is passed an empty callable in 'blit_cols_reducing' ({{.*}}.cpp:[[@LINE+7]])
static int blit_cols(int n, bool reduce, Fn convert = nullptr) {
  if (reduce)
    return reduce_cols(n, convert);
  return n;
}
int blit_cols_plain(int n) { return blit_cols(n, false); }
int blit_cols_reducing(int n) { return blit_cols(n, true); }
