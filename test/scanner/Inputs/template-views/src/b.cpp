#include <tv/net.h>

int train_b(const std::function<void()> &on_batch,
            const std::function<int(int)> &f) {
  return tv::Net<int>().fit(2, on_batch) + tv::Trainer().step(f);
}

// An empty callable passed on: the default mode reports the call in run's
// instantiation for std::function, which only this TU makes.
int train_b_empty() {
  std::function<int(int)> none;
  return tv::run(none, 3);
}
