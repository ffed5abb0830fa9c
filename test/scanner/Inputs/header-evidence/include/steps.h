// A header whose call through get_step's result is flagged: by the TU that
// defines get_step on its own, and by the others only with the project's
// facts. Either way it is one finding.
#pragma once
#include <functional>

using StepFn = std::function<int(int)>;
StepFn get_step(int kind);
StepFn get_fixed_step();

inline int run_step(int kind, int x) {
  StepFn step = get_step(kind);
  return step(x);
}

inline int run_fixed(int x) {
  StepFn step = get_fixed_step();
  return step(x);
}
