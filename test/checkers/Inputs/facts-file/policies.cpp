// The other TU of the project that unchecked-policy-call-facts-file.cpp
// reads facts about through a facts file.
#include "trainer.h"

WrapFn select_wrapper(const Config &cfg) {
  if (cfg.no_wrap)
    return nullptr;
  return [](int x) { return x; };
}

WrapFn default_policy() {
  return [](int x) { return x + 1; };
}

int prepare_model(const Config &cfg, int x) {
  WrapFn w = lookup_wrapper(cfg.no_wrap ? 0 : 1);
  if (!w)
    return x;
  return w(x);
}

Layer::Layer(int in, int out) {}
Layer::Layer(HookFn h) : grad_hook(std::move(h)) {}
