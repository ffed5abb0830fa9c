// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A project's own assertion function, `void AssertIn(bool ok, const
// std::string &msg) { if (!ok) ErrorIn(msg); }` with `ErrorIn` exiting,
// returns only when its argument is true: past `AssertIn(toFloat !=
// nullptr, "..")` the pointer is set (fastllm's GEMM kernels). Which
// parameter a function returns only with, if any, is read from its body:
// on every path where the parameter is false the body ends in a call that
// never returns, or hands it to another such function; it never assigns
// it. C-style code passes the condition as an integer (`void check(int
// ok)`, tested as `!ok` or `ok == 0`); its truth is the condition's. A
// function that only logs, that may assign its parameter, that tests it for
// something other than its truth, or that a virtual call may replace is no
// assertion. An assertion that ends the
// process states the project's contract, not that the value may be empty
// (no belief, as for `assert`); one that throws is a test a caller may
// catch, so elsewhere it is belief.

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

using ToFloat = void (*)(const void *, float *, int);
void dequant_q4(const void *, float *, int);
ToFloat type_to_float(int type) {
  if (type == 4)
    return dequant_q4;
  return nullptr;
}

static void ErrorIn(const std::string &error) {
  printf("Error: %s\n", error.c_str());
  exit(0);
}
static void AssertIn(bool condition, const std::string &error) {
  if (!condition) {
    ErrorIn(error);
  }
}
static void Check(bool ok) { AssertIn(ok, "check failed"); }
static void Expect(bool ok) {
  if (ok)
    return;
  abort();
}
static void Ensure(bool ok, const char *what) {
  if (!ok)
    throw std::runtime_error(what);
}
static void Warn(bool ok, const char *what) {
  if (!ok)
    printf("warning: %s\n", what);
}
static void Flip(bool ok) {
  ok = !ok;
  if (ok)
    exit(1);
}
static void CheckInt(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "%s\n", what);
    abort();
  }
}
static void CheckZero(long ok) {
  if (ok == 0)
    ErrorIn("zero");
}
static void CheckNonNegative(int n) {
  if (n < 0)
    abort();
}
struct Checker {
  virtual void require(bool ok) {
    if (!ok)
      abort();
  }
  virtual ~Checker() = default;
};

// The hard negatives.
void gemm(int type, const void *b, float *out, int n) {
  auto toFloat = type_to_float(type);
  AssertIn(toFloat != nullptr, "cannot convert");
  toFloat(b, out, n); // no-warning
}
void gemm_through_a_helper(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  Check(toFloat);
  toFloat(b, out, n); // no-warning
}
void gemm_expect(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  Expect(!!toFloat);
  toFloat(b, out, n); // no-warning
}
void gemm_ensure(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  Ensure(toFloat != nullptr, "cannot convert");
  toFloat(b, out, n); // no-warning
}
void run_hook(std::function<void(int)> hook, int step) {
  AssertIn(static_cast<bool>(hook), "no hook");
  hook(step); // no-warning
}
void gemm_int(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  CheckInt(toFloat != nullptr, "cannot convert");
  toFloat(b, out, n); // no-warning
}
void gemm_zero(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  CheckZero(!!toFloat);
  toFloat(b, out, n); // no-warning
}

// The true neighbours.
// An integer that is no converted condition proves nothing of the callable,
// and the analysis goes on (it crashed on `CheckInt(3, ..)` once).
void gemm_constant(int type, const void *b, float *out, int n, int k) {
  ToFloat toFloat = type_to_float(type);
  CheckInt(3, "three");
  CheckInt(k + 1, "k");
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-5]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}
void gemm_unchecked(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}
void gemm_warned(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  Warn(toFloat != nullptr, "cannot convert");
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}
void gemm_flipped(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  Flip(toFloat != nullptr);
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}
void gemm_other(int type, const void *b, float *out, int n, float *scale) {
  ToFloat toFloat = type_to_float(type);
  AssertIn(scale != nullptr, "no scale");
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}
void gemm_non_negative(int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  CheckNonNegative(toFloat != nullptr);
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}
void gemm_virtual(Checker &c, int type, const void *b, float *out, int n) {
  ToFloat toFloat = type_to_float(type);
  c.require(toFloat != nullptr);
  toFloat(b, out, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'toFloat' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:21: note: 'toFloat' comes from 'type_to_float', which may return an empty callable
}

// Belief. Nothing says `find`'s result may be empty but the tests of it:
// an assertion that ends the process is none, one that throws is.
using Handler = void (*)(int);
Handler find(int kind);
Handler find_other(int kind);
void handle_asserted(int kind) {
  Handler h = find(kind);
  AssertIn(h != nullptr, "no handler");
  h(kind); // no-warning
}
void handle_checked(int kind) {
  Handler h = find(kind);
  CheckInt(h != nullptr, "no handler");
  h(kind); // no-warning
}
void handle(int kind) {
  find(kind)(kind); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'find(kind)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: note: check that 'find(kind)' is not empty before this call, e.g. 'if (find(kind))'
}
void handle_other_ensured(int kind) {
  Handler h = find_other(kind);
  Ensure(h != nullptr, "no handler");
  h(kind); // no-warning
}
void handle_other(int kind) {
  find_other(kind)(kind);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'find_other(kind)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'find_other(kind)' is not empty before this call, e.g. 'if (find_other(kind))'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'find_other' is checked for emptiness in 'handle_other_ensured' ({{.*}}.cpp:[[@LINE-7]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: warning: call through possibly empty callable 'find_other(kind)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:3: note: check that 'find_other(kind)' is not empty before this call, e.g. 'if (find_other(kind))'
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:3: note: a value from 'find_other' is checked for emptiness in 'handle_other_ensured' ({{.*}}.cpp:[[@LINE-10]])
}
