#include "traits.h"
float all_types(const float *x, void *tmp) {
  float e = 0;
  for (int type = 0; type < 3; ++type) {
    const Traits *t = get_traits(type);
    if (!t->from_float)
      continue;
    e += quantize_error(t, x, tmp);
    e += quantize_ref(*t, x, tmp);
    e += quantize_some(t, x, tmp);
  }
  return e;
}
float one_type(const float *x, void *tmp, int type) {
  return quantize_some(get_traits(type), x, tmp);
}
