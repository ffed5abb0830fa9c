#include "check.h"

int starts(Hooks &h, int x) {
  Assert(h.on_start != nullptr, "no start hook");
  return h.on_start(x);
}

int steps(Hooks &h, int x) {
  check(h.on_step != nullptr, "no step hook");
  return h.on_step(x);
}

int logs(Hooks &h, int x) {
  LogUnless(h.on_log != nullptr, "no log hook");
  return h.on_log(x);
}

int ends(Hooks &h, int x) {
  Require("no end hook", static_cast<bool>(h.on_end));
  return h.on_end(x);
}

int fails(Hooks &h, int x) {
  Refute(h.on_fail != nullptr, "a fail hook");
  return h.on_fail(x);
}

int begins(Job &j, LoggedJob &l, int x) {
  Assert(j.done != nullptr, "no job");
  LogUnless(l.done != nullptr, "no logged job");
  return j.done(x) + l.done(x);
}
