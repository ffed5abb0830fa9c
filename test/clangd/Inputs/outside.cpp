// Opened from a folder that no compile database covers: clangd's fallback
// flags still parse it, and the check still runs.
#include <functional>
std::function<void()> make_policy(bool no_wrap) {
  if (no_wrap)
    return nullptr;
  return [] {};
}
void apply(bool no_wrap) {
  auto policy = make_policy(no_wrap);
  policy();
}
