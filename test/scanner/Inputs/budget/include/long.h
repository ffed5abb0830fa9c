#pragma once
#include <functional>

using IntFn = std::function<int(int)>;
IntFn get_policy();

namespace ns {
// Over the budget; a.cpp and b.cpp both include it: one skip.
inline int long_in_header(int x) {
  IntFn f = get_policy();
  if (x > 1)
    x += 1;
  if (x > 2)
    x += 2;
  if (x > 3)
    x += 3;
  if (x > 4)
    x += 4;
  if (x > 5)
    x += 5;
  if (x > 6)
    x += 6;
  if (x > 7)
    x += 7;
  if (x > 8)
    x += 8;
  for (int i = 0; i < x; ++i)
    if (i % 3 == 0)
      x -= 1;
  if (f)
    x = f(x);
  return x;
}
} // namespace ns
