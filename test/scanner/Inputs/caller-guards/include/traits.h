// A table of per-type conversions; some entries have no from_float.
typedef void (*FromFloat)(const float *, void *, long);
struct Traits {
  const char *name;
  FromFloat from_float;
};
const Traits *get_traits(int type);
float quantize_error(const Traits *t, const float *x, void *tmp);
float quantize_ref(const Traits &t, const float *x, void *tmp);
float quantize_some(const Traits *t, const float *x, void *tmp);
