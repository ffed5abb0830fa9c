#include "trainer.h"
#include <utility>

Engine::Engine(Hook after_step) : after_step_(std::move(after_step)) {}

Engine::Engine(int steps) : steps_(steps) {}

Logger::Logger() : sink_([](int) {}) {}

Logger::Logger(Hook sink) : sink_(std::move(sink)) {
  if (!sink_)
    sink_ = [](int) {};
}

void Logger::flush() {
  if (sink_)
    sink_(-1);
}
