#include "trainer.h"
#include <utility>

void Registry::add(const std::string &name, Act fn) {
  fns_[name] = std::move(fn);
}

const Act *Registry::get(const std::string &name) const {
  auto it = fns_.find(name);
  if (it == fns_.end())
    return nullptr;
  return &it->second;
}
