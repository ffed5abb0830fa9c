#include "log.h"

void give_up(const char *why) { die_with(why, 2); }

Fn pick(const std::string &name) {
  if (name.empty())
    return nullptr;
  return [](int x) { return x; };
}
