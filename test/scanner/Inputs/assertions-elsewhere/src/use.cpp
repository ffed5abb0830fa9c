#include "check.h"

std::map<std::string, Fn> registry;

int asserted(const std::string &name, int x) {
  Fn f = pick(name);
  Assert(f != nullptr, "nothing picked");
  return f(x);
}

int checked(const std::string &name, int x) {
  Fn f = pick(name);
  check(f != nullptr, "nothing picked");
  return f(x);
}

int required(const std::string &name, int x) {
  Fn f = pick(name);
  Require("nothing picked", static_cast<bool>(f));
  return f(x);
}

int registered(const std::string &name, int x) {
  Assert(registry.count(name) > 0, "unknown");
  return registry[name](x);
}

int logged(const std::string &name, int x) {
  Fn f = pick(name);
  LogUnless(f != nullptr, "nothing picked");
  return f(x);
}

int refuted(const std::string &name, int x) {
  Fn f = pick(name);
  Refute(f != nullptr, "picked");
  return f(x);
}

int other(const std::string &name, int x) {
  Fn f = pick(name);
  Fn g = pick("default");
  Assert(g != nullptr, "no default");
  return f(x);
}

int unchecked(const std::string &name, int x) {
  Fn f = pick(name);
  return f(x);
}
