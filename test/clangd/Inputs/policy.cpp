// A policy call without a check, and a variable that could be const: one
// finding for wrapguard-*, one for a check clangd times as slow.
#include <functional>

using WrapFn = std::function<int(int)>;

WrapFn resolve_wrap_policy(bool no_wrap) {
  if (no_wrap)
    return nullptr;
  return [](int x) { return x; };
}

int run(bool no_wrap) {
  WrapFn policy = resolve_wrap_policy(no_wrap);
  int unchanged = 1;
  return policy(unchanged);
}
