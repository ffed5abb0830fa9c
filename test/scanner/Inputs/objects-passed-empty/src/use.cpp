#include "ops.h"

static void say(int) {}

void use() {
  Ops full{&say, &say};
  exec(&full);
  exec_kind(full, 0);
  Ops none{nullptr, nullptr};
  exec(&none);
  exec_kind(none, 1);
}
