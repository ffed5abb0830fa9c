#include <functional>

namespace demo {
template <typename T> struct Holder {
  void run() {
    std::function<void()> e;
    e();
  }
};
} // namespace demo

void instantiate() { demo::Holder<int>().run(); }

void lambda_inside() {
  auto l = [] {
    std::function<int(int)> z = nullptr;
    return z(1);
  };
  l();
}
