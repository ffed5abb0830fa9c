#include "log.h"

std::map<std::string, Fn> registry;

int run(const std::string &name, int x) {
  if (!registry.count(name))
    fatal("unknown");
  return registry[name](x);
}

int run_code(const std::string &name, int x) {
  if (!registry.count(name))
    die_with("unknown", 3);
  return registry[name](x);
}

int run_chain(const std::string &name, int x) {
  if (!registry.count(name))
    give_up("unknown");
  return registry[name](x);
}

int run_warned(const std::string &name, int x) {
  if (!registry.count(name))
    warn("unknown");
  return registry[name](x);
}

int run_picked(const std::string &name, int x) {
  Fn f = pick(name);
  if (!f)
    fatal("nothing picked");
  return f(x);
}

int run_picked_warned(const std::string &name, int x) {
  Fn f = pick(name);
  if (!f)
    warn("nothing picked");
  return f(x);
}
