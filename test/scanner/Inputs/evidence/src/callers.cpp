#include "steps.h"

int train(int x) {
  int a = run_step([](int v) { return v; }, x);
  int b = run_step(nullptr, x);
  int c = apply_policy([](int v) { return v * 2; }, x);
  return a + b + c;
}

int flush(Sink &s) {
  return s.emit(nullptr, 0) + apply_policy([](int v) { return v; }, 1);
}
