#include "search.h"
static void on_step(int) {}
static const Task tasks[2] = {{"plain", nullptr}, {"full", on_step}};
const Task *get_task(int k) { return &tasks[k]; }
void step_if_any(const Task *t) {
  if (t->step)
    t->step(0);
}
