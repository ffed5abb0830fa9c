#include "backend.h"
#include <memory>

std::shared_ptr<Backend> make_conv(ConvP *p) {
  return std::make_shared<Backend>(p, [](int x) { return x; },
                                   [](int x) { return x + 1; });
}
