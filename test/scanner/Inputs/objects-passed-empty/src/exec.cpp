#include "ops.h"

void exec(const Ops *o) { o->run(1); }
void exec_kind(const Ops &o, int kind) {
  if (kind == 0)
    o.run(1);
}
