#include "lib.h"

Fn Lenient::make() const {
  static int calls = 0;
  if (++calls > 3)
    return nullptr;
  return [](int x) { return x; };
}
Fn Lenient::make_always() const { return [](int x) { return -x; }; }

// Made here with the implicit default constructor: after_step stays empty.
Hooks default_hooks() {
  Hooks h;
  return h;
}
