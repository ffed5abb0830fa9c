// A header-only library: every finding is in a header. Scanned with
// --source-root and no header filter, they are all reported, once each.
#pragma once
#include "detail/../util.h"
#include <functional>
#include <type_traits>

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

// Calls through a policy only in the instantiation for long, which only
// b_test.cpp makes: the TU that claims the template first (a_test.cpp, with
// int) must not keep b_test.cpp from analysing its own instantiation.
template <class T> int only_for_long(T v) {
  if constexpr (std::is_same_v<T, long>) {
    auto late = get_policy();
    return late(static_cast<int>(v));
  }
  return 0;
}

} // namespace hol
