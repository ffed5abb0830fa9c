#include "trainer.h"

Module fsdp2_prepare_model(const Config &cfg, Module m) {
  WrapFn policy = resolve_wrap_policy(cfg);
  if (!policy)
    return m;
  return policy(m);
}

Module fsdp2_apply_ac(const Config &cfg, Module m) {
  WrapFn policy = resolve_wrap_policy(cfg);
  return policy(m);
}

Module apply_default(Module m) {
  WrapFn policy = default_policy();
  return policy(m);
}
