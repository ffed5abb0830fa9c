// A search whose state points to the task it runs; a task may have no
// step (vowpal_wabbit's `priv.metaoverride->_foreach_action`).
typedef void (*StepFn)(int);
struct Task {
  const char *name;
  StepFn step;
};
struct Priv {
  const Task *task;
  int t;
};
const Task *get_task(int k);
void from_cache(Priv &p);
void from_other(Priv &p);
