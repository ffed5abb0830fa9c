#include "lib.h"

int careful(const Registry &r) {
  Fn f = r.Get("x");
  if (f)
    return f(1);
  return 0;
}

Fn Strict::make() const { return [](int x) { return x; }; }
Fn Strict::make_always() const { return [](int x) { return x; }; }
