#include "check.h"

int tick(Hooks &h, Job &j, LoggedJob &l, int x) {
  int sum = h.on_start(x);
  sum += h.on_step(x);
  sum += h.on_log(x);
  sum += h.on_end(x);
  sum += h.on_fail(x);
  sum += j.done(x);
  sum += l.done(x);
  return sum;
}
