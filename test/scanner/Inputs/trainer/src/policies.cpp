#include "trainer.h"

WrapFn resolve_wrap_policy(const Config &cfg) {
  switch (cfg.mode) {
  case WrapMode::NO_WRAP:
    return {};
  case WrapMode::TRANSFORMER_BASED:
    return [](Module m) { m.depth += 1; return m; };
  case WrapMode::SIZE_BASED:
    return [](Module m) { m.depth += 2; return m; };
  }
  return [](Module m) { return m; };
}

WrapFn default_policy() {
  return [](Module m) { return m; };
}
