#include "lib.h"

int careless(const Registry &r) {
  Fn f = r.Get("y");
  return f(2);
}

int unknown(const Registry &r) {
  Fn f = r.Lookup("z");
  return f(3);
}

int via_policy(const Policy &p) {
  Fn f = p.make();
  return f(4);
}

int via_always(const Policy &p) {
  Fn f = p.make_always();
  return f(4);
}

int hooks(Hooks &h) { return h.after_step(1) + h.before_step(2); }

int trusting(const Registry &r) {
  Fn f = r.Require("w");
  return f(5);
}
