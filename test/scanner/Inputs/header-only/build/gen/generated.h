// A header generated into the build folder: not the project's own code.
#pragma once
#include <functional>
std::function<int(int)> get_policy();
inline int generated(int x) {
  auto g = get_policy();
  return g(x);
}
