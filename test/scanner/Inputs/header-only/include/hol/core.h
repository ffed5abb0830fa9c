// A header-only library: every finding is in a header. Scanned with
// --source-root and no header filter, they are all reported, once each.
#pragma once
#include "detail/../util.h"
#include <functional>

namespace hol {

inline int apply(int x) {
  auto policy = get_policy();
  return policy(x);
}

template <class T> struct Runner {
  T run(T v) {
    auto step = get_policy();
    return step(static_cast<int>(v));
  }
};

} // namespace hol
