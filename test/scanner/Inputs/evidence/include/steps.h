// Free functions and a virtual method whose callable parameters are
// judged by what the project passes them.
#pragma once
#include <functional>

using StepFn = std::function<int(int)>;
int run_step(const StepFn &hook, int x);      // one caller passes nullptr
int apply_policy(const StepFn &policy, int x); // every caller passes a lambda

struct Sink {
  virtual ~Sink() = default;
  virtual int emit(const StepFn &on_emit, int x) = 0;
};
Sink &file_sink();
