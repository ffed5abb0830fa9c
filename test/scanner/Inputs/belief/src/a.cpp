#include "lib.h"

int careful(const Registry &r) {
  Fn f = r.Get("x");
  if (f)
    return f(1);
  return 0;
}

Fn Strict::make() const { return [](int x) { return x; }; }
Fn Strict::make_always() const { return [](int x) { return x; }; }

// A gate: it rejects a missing entry and never uses the value, which is no
// belief that a use may meet an empty one.
bool validate(const Registry &r) {
  Fn f = r.Require("w");
  if (!f)
    return false;
  return true;
}
