#include "traits.h"
float quantize_error(const Traits *t, const float *x, void *tmp) {
  t->from_float(x, tmp, 4);
  return x[0];
}
float quantize_ref(const Traits &t, const float *x, void *tmp) {
  t.from_float(x, tmp, 4);
  return x[0];
}
float quantize_some(const Traits *t, const float *x, void *tmp) {
  t->from_float(x, tmp, 4);
  return x[0];
}
