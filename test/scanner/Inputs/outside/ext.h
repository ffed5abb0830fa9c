// A header outside the source root (another checkout, not a system one).
#pragma once
#include <functional>
std::function<int(int)> get_policy();
inline int external(int x) {
  auto e = get_policy();
  return e(x);
}
