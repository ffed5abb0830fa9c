#include "trainer.h"

void Engine::run_epoch(int n) {
  for (int i = 0; i < n * steps_; ++i)
    after_step_(i);
}

void Logger::log(int value) { sink_(value); }

void train(Engine &engine, Logger &logger, int epochs) {
  for (int e = 0; e < epochs; ++e) {
    engine.run_epoch(e);
    logger.log(e);
  }
  logger.flush();
}
