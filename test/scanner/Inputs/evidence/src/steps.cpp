#include "steps.h"

int run_step(const StepFn &hook, int x) {
  return hook(x);
}

int apply_policy(const StepFn &policy, int x) {
  return policy(x);
}
