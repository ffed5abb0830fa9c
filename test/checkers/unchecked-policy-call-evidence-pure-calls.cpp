// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// Two calls of a pure function (its visible body reads only its parameters
// and constants, and writes nothing outside itself) with the same argument
// values give the same value: the solver sees one boolean, so a test under
// the first call guards a call under the second.

#include <functional>
#include <stdexcept>

enum Type { F32, F16, Q4, Q8 };
struct Tensor {
  Type type;
};
struct Traits {
  std::function<void(const void *, float *)> to_float;
};

static bool is_quantized(Type t) { return t == Q4 || t == Q8; }
// Pure through another pure function.
static bool needs_dequant(Type t) { return is_quantized(t) && t != F16; }

void convert(const Tensor *t, Traits *tr, const void *src, float *dst) {
  if (is_quantized(t->type)) {
    if (!tr->to_float)
      throw std::runtime_error("no dequantizer for this type");
  }
  if (t->type == F32) {
    *dst = 0;
  } else if (is_quantized(t->type)) {
    tr->to_float(src, dst); // no-warning
  }
}

void convert_nested(const Tensor *t, Traits *tr, const void *src, float *dst) {
  if (needs_dequant(t->type) && !tr->to_float)
    return;
  if (needs_dequant(t->type))
    tr->to_float(src, dst); // no-warning
}

// True neighbours: the argument changes in between, or the function reads
// state of its own.

void convert_after_write(Tensor *t, Traits *tr, const void *src, float *dst) {
  if (is_quantized(t->type)) {
    if (!tr->to_float)
      throw std::runtime_error("no dequantizer for this type");
  }
  t->type = Q4;
  if (is_quantized(t->type))
    tr->to_float(src, dst);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'tr->to_float' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'tr->to_float' [wrapguard-unchecked-policy-call]
}

static int calls = 0;
static bool flaky(Type t) { return ++calls % 2 == 0 && t == Q4; }

void convert_flaky(const Tensor *t, Traits *tr, const void *src, float *dst) {
  if (flaky(t->type) && !tr->to_float)
    return;
  if (flaky(t->type))
    tr->to_float(src, dst);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'tr->to_float' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'tr->to_float' [wrapguard-unchecked-policy-call]
}

// A pure function that returns a pointer into a constant table gives the
// same table entry for the same argument values: a test of the entry's
// slot guards a call through the slot read by a second lookup. Q8's entry
// has no from_float, which is the evidence for the neighbours below.
typedef void (*FromFloat)(const float *, void *, int);
struct CpuTraits {
  const char *name;
  FromFloat from_float;
};
static void quantize_q4(const float *, void *, int) {}
static const CpuTraits cpu_traits[4] = {
    {"f32", nullptr}, {"f16", quantize_q4}, {"q4", quantize_q4}, {"q8", nullptr}};
const CpuTraits *get_cpu_traits(Type t) { return &cpu_traits[t]; }
const CpuTraits &cpu_traits_of(Type t) { return cpu_traits[t]; }

void quantize(const Tensor *dst, const float *src, void *out) {
  if (dst->type != F32 && get_cpu_traits(dst->type)->from_float) {
    FromFloat const quantize_row = get_cpu_traits(dst->type)->from_float;
    quantize_row(src, out, 1); // no-warning
  }
  if (cpu_traits_of(dst->type).from_float)
    cpu_traits_of(dst->type).from_float(src, out, 1); // no-warning
}

// True neighbours: no test, a test of another entry, a changed argument.
void quantize_unchecked(const Tensor *dst, const float *src, void *out) {
  FromFloat const quantize_row = get_cpu_traits(dst->type)->from_float;
  quantize_row(src, out, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'quantize_row' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: call through possibly empty callable 'quantize_row' [wrapguard-unchecked-policy-call]
}

void quantize_other(const Tensor *dst, const float *src, void *out) {
  if (get_cpu_traits(Q4)->from_float)
    get_cpu_traits(dst->type)->from_float(src, out, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'get_cpu_traits(dst->type)->from_float' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'get_cpu_traits(dst->type)->from_float' [wrapguard-unchecked-policy-call]
}

void quantize_retyped(Tensor *dst, const float *src, void *out) {
  if (get_cpu_traits(dst->type)->from_float) {
    dst->type = Q8;
    get_cpu_traits(dst->type)->from_float(src, out, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'get_cpu_traits(dst->type)->from_float' [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: call through possibly empty callable 'get_cpu_traits(dst->type)->from_float' [wrapguard-unchecked-policy-call]
  }
}
