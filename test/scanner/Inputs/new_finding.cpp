#include <functional>
std::function<void()> make_policy();
void fresh() {
  auto n = make_policy();
  n();
}
