// RUN: %check_wrapguard %s %t

// A caller's test reaches one pointer member further than the object it
// passes: `if (priv.task && priv.task->step) from_cache(priv);` vouches for
// `priv.task->step` in from_cache, as `if (q->f) run(q);` vouches for `q->f`
// (-evidence-caller-guards.cpp), while the helper changes neither the
// pointer nor the object it reads it from. The shape of vowpal_wabbit's
// `foreach_action_from_cache`, whose every caller tests
// `priv.metaoverride && priv.metaoverride->_foreach_action`.

typedef void (*StepFn)(int);
struct Task {
  const char *name;
  StepFn step;
};
static void on_step(int) {}
static const Task tasks[2] = {{"plain", nullptr}, {"full", on_step}};
const Task *get_task(int k) { return &tasks[k]; }
void careful(const Task *t) {
  if (t->step)
    t->step(1);
}

struct Priv {
  const Task *task = nullptr;
  int t = 0;
  void attach(int k) { task = get_task(k); }
  // Through `this`: its one caller tests `task->step` first.
  void fire() { task->step(t); } // no-warning
  // True neighbour: called unguarded.
  void fire_unguarded() {
    task->step(t);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'task->step' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Task' is constructed with 'Task{}', which leaves 'Task::step' empty, in 'tasks' ({{.*}}.cpp:17)
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Task::step' is checked for emptiness in 'careful' ({{.*}}.cpp:20)
  }
  void run() {
    if (task && task->step)
      fire();
    fire_unguarded();
  }
};

// By reference and by pointer, under a loop and beside other reads of
// the object's fields.
static void from_cache(Priv &priv, int n) {
  for (int i = 0; i < n; ++i)
    priv.task->step(i + priv.t); // no-warning
}
static void from_ptr(Priv *priv) { priv->task->step(priv->t); } // no-warning
void search(Priv &priv) {
  if (priv.task && priv.task->step) {
    from_cache(priv, 3);
    from_ptr(&priv);
  }
}
void search_other(Priv &priv, bool over) {
  if (over && priv.task && priv.task->step)
    from_cache(priv, 1);
}

// True neighbours: a caller that does not test; a helper that repoints the
// member, by a method or by an assignment; a test of another object.
static void unguarded(Priv &priv) {
  priv.task->step(0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'priv.task->step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Task' is constructed with 'Task{}', which leaves 'Task::step' empty, in 'tasks' ({{.*}}.cpp:17)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Task::step' is checked for emptiness in 'careful' ({{.*}}.cpp:20)
}
static void repointed(Priv &priv) {
  priv.attach(0);
  priv.task->step(0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'priv.task->step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Task' is constructed with 'Task{}', which leaves 'Task::step' empty, in 'tasks' ({{.*}}.cpp:17)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Task::step' is checked for emptiness in 'careful' ({{.*}}.cpp:20)
}
static void reseated(Priv &priv) {
  priv.task = get_task(0);
  priv.task->step(0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'priv.task->step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Task' is constructed with 'Task{}', which leaves 'Task::step' empty, in 'tasks' ({{.*}}.cpp:17)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Task::step' is checked for emptiness in 'careful' ({{.*}}.cpp:20)
}
static void other_object(Priv &priv) {
  priv.task->step(0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'priv.task->step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Task' is constructed with 'Task{}', which leaves 'Task::step' empty, in 'tasks' ({{.*}}.cpp:17)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Task::step' is checked for emptiness in 'careful' ({{.*}}.cpp:20)
}
void caller(Priv &priv, Priv &other) {
  unguarded(priv);
  if (priv.task && priv.task->step) {
    repointed(priv);
    reseated(priv);
  }
  if (other.task && other.task->step)
    other_object(priv);
}
