// RUN: %check_wrapguard %s %t

// A field of an object a function receives through a parameter it keeps
// (`q->from_float` in a helper) is its callers' to test: when every call
// of the helper passes the object with the field proven set, by the flow
// analysis of the caller (`if (q->from_float && q->to_float) helper(q);`),
// the call is no finding, though the table has an entry without the slot.
// The shape of ggml's quantisation tests.

typedef void (*ToFloat)(const void *, float *, long);
typedef void (*FromFloat)(const float *, void *, long);
struct TypeTraits {
  const char *name;
  ToFloat to_float;
  FromFloat from_float;
};
static void to_f(const void *, float *, long) {}
static void from_f(const float *, void *, long) {}
static const TypeTraits traits[3] = {
    {"f32", to_f, from_f}, {"q8", nullptr, from_f}, {"iq", to_f, nullptr}};
const TypeTraits *get_traits(int t) { return &traits[t]; }

static float total_error(const TypeTraits *q, const float *x, void *tmp,
                         float *out) {
  q->from_float(x, tmp, 4); // no-warning
  q->to_float(tmp, out, 4); // no-warning
  return out[0];
}
static float reference_error(const TypeTraits &q, const float *x, void *tmp) {
  q.from_float(x, tmp, 4); // no-warning
  return x[0];
}
float all_types(const float *x, void *tmp, float *out) {
  float e = 0;
  for (int t = 0; t < 3; ++t) {
    const TypeTraits *q = get_traits(t);
    if (q->from_float && q->to_float) {
      e += total_error(q, x, tmp, out);
      e += reference_error(*q, x, tmp);
    }
  }
  return e;
}

// True neighbours: a caller that does not test, and a helper that does not
// keep the parameter it received.
static float some_error(const TypeTraits *q, const float *x, void *tmp) {
  q->from_float(x, tmp, 4);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'q->from_float' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'TypeTraits' is constructed with 'TypeTraits{}', which leaves 'TypeTraits::from_float' empty, in 'traits' ({{.*}}.cpp:20)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'TypeTraits::from_float' is checked for emptiness in 'all_types' ({{.*}}.cpp:37)
  return x[0];
}
static float next_error(const TypeTraits *q, const float *x, void *tmp) {
  q = get_traits(2);
  q->from_float(x, tmp, 4);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'q->from_float' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'TypeTraits' is constructed with 'TypeTraits{}', which leaves 'TypeTraits::from_float' empty, in 'traits' ({{.*}}.cpp:20)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'TypeTraits::from_float' is checked for emptiness in 'all_types' ({{.*}}.cpp:37)
  return x[0];
}
float some_types(const float *x, void *tmp, int t) {
  const TypeTraits *q = get_traits(t);
  float e = q->from_float ? some_error(q, x, tmp) : 0;
  e += next_error(q, x, tmp);
  return e + some_error(get_traits(t + 1), x, tmp);
}

// The object a method is called on is its callers' to test too (a method
// that is not virtual): mlx's `if (callback) { export_with_callback(..);
// return; }`, uWebSockets' `if (data->onWritable) data->callOnWritable(..)`.
using ExportFn = void (*)(const char *);
class Exporter {
public:
  explicit Exporter(ExportFn cb) : callback(cb) {}
  void run(bool loud) {
    if (callback) {
      emit_all();
      return;
    }
    if (loud)
      emit_loud();
  }
  // No call in the project vouches for it.
  void emit_public() {
    callback("public");
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'callback' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Exporter' is constructed with 'Exporter(ExportFn)', which leaves 'Exporter::callback' empty, in 'use_exporters' ({{.*}}.cpp:[[@LINE+44]])
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Exporter::callback' is checked for emptiness in 'Exporter::run' ({{.*}}.cpp:[[@LINE-12]])
  }

  // A public method too, called only under a test of its object's field.
  void emit_all() {
    callback("inputs"); // no-warning
    callback("outputs"); // no-warning
  }

private:
  // Called where the test found the callback empty.
  void emit_loud() {
    callback("loud");
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'callback' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Exporter' is constructed with 'Exporter(ExportFn)', which leaves 'Exporter::callback' empty, in 'use_exporters' ({{.*}}.cpp:[[@LINE+29]])
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Exporter::callback' is checked for emptiness in 'Exporter::run' ({{.*}}.cpp:[[@LINE-27]])
  }
  ExportFn callback;
};

// Another object's test says nothing of the one a helper runs on.
class Relay {
public:
  explicit Relay(ExportFn cb) : callback(cb) {}
  void forward(Relay &other) {
    if (callback) {
      callback("forwarding");
      other.emit();
    }
  }

private:
  void emit() {
    callback("relayed");
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'callback' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Relay' is constructed with 'Relay(ExportFn)', which leaves 'Relay::callback' empty, in 'use_exporters' ({{.*}}.cpp:[[@LINE+11]])
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Relay::callback' is checked for emptiness in 'Relay::forward' ({{.*}}.cpp:[[@LINE-11]])
  }
  ExportFn callback;
};

static void print_it(const char *) {}
void use_exporters() {
  Exporter quiet(nullptr), loud(print_it);
  quiet.run(true);
  loud.run(false);
  Relay a(nullptr), b(print_it);
  b.forward(a);
}

// The object a method is called on may be read from a member: duckdb's
// `if (cast_data.key_cast.HasInitLocalState())
// cast_data.key_cast.InitLocalState(..)`, through an accessor.
using InitFn = int (*)(int);
struct CastInfo {
  explicit CastInfo(InitFn init) : init_local_state(init) {}
  bool HasInitLocalState() const { return init_local_state; }
  int InitLocalState(int x) const {
    return init_local_state(x); // no-warning
  }
  int InitUnchecked(int x) const {
    return init_local_state(x);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'init_local_state' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:12: note: 'CastInfo' is constructed with 'CastInfo(InitFn)', which leaves 'CastInfo::init_local_state' empty, in 'use_casts' ({{.*}}.cpp:[[@LINE+22]])
    // CHECK-NOTES: :[[@LINE-3]]:12: note: a value from 'CastInfo::init_local_state' is checked for emptiness in 'CastInfo::HasInitLocalState' ({{.*}}.cpp:[[@LINE-8]])
  }
  InitFn init_local_state;
};
struct MapCastData {
  CastInfo key_cast;
  CastInfo value_cast;
};
static int twice(int x) { return 2 * x; }
int init_map_cast(const MapCastData &cast_data, int x) {
  int r = 0;
  if (cast_data.key_cast.HasInitLocalState())
    r += cast_data.key_cast.InitLocalState(x);
  if (cast_data.value_cast.HasInitLocalState())
    r += cast_data.value_cast.InitLocalState(x);
  // Another member's test says nothing of this one.
  if (cast_data.key_cast.HasInitLocalState())
    r += cast_data.value_cast.InitUnchecked(x);
  return r;
}
void use_casts() {
  MapCastData plain{CastInfo(nullptr), CastInfo(twice)};
  init_map_cast(plain, 1);
}
