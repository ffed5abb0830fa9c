#include "long.h"

int small_b(int x) {
  IntFn f = get_policy();
  return f ? f(x) : x;
}
