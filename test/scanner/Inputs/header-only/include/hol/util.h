// Reached as "detail/../util.h" from core.h and as <hol/util.h> from
// b_test.cpp: one file, one name in the report.
#pragma once
#include <functional>

std::function<int(int)> get_policy();

namespace hol {
inline int twice(int x) {
  auto f = get_policy();
  return f(f(x));
}
} // namespace hol
