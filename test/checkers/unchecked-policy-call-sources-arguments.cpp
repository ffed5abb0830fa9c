// RUN: %check_wrapguard %s %t

// Arguments: a callable parameter is as set as what its callers pass. A
// parameter that some call passes empty makes the calls through it (and
// through what it is stored into) findings, and the note names that call. A
// parameter that every call sets is set, even when some code tests it and
// its name looks like a policy.

#include <functional>
#include <utility>

using Fn = std::function<int(int)>;

int apply_step(const Fn &step, int x) { return step(x); }
// CHECK-NOTES: :[[@LINE-1]]:48: warning: call through possibly empty callable 'step' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:48: note: 'step' of 'apply_step' is passed an empty callable in 'train' ({{.*}}.cpp:19)
int train() {
  int a = apply_step([](int x) { return x + 1; }, 1);
  return a + apply_step(nullptr, 2);
}

// Every caller passes a set value: not a source, though one function tests
// it and its name matches PolicyNames.
int run_policy(Fn policy, int x) { return policy(x); } // no-warning
int run_checked(Fn policy, int x) { return policy ? policy(x) : x; }
int callers() {
  return run_policy([](int x) { return x; }, 1) +
         run_checked([](int x) { return 2 * x; }, 2);
}

// Through a local that both branches set, then passed on.
int forward(Fn f, int x) { return f(x); } // no-warning
int pick(bool c) {
  Fn chosen;
  if (c)
    chosen = [](int x) { return x; };
  else
    chosen = [](int x) { return -x; };
  return forward(chosen, 3);
}

// A virtual method: the base's callers pass nullptr, the override calls it.
struct Visitor {
  virtual ~Visitor() = default;
  virtual int visit(Fn on_node, int x) = 0;
};
struct Printer : Visitor {
  int visit(Fn on_node, int x) override { return on_node(x); }
  // CHECK-NOTES: :[[@LINE-1]]:50: warning: call through possibly empty callable 'on_node' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:50: note: 'on_node' of 'Printer::visit' is passed an empty callable in 'walk' ({{.*}}.cpp:52)
};
int walk(Visitor &v) { return v.visit(nullptr, 1); }

// Stored by a constructor into a member: a construction that passes empty.
struct Task {
  explicit Task(Fn body) : body(std::move(body)) {}
  int run(int x) { return body(x); }
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: call through possibly empty callable 'body' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:27: note: 'Task::body' is not set by the only construction of 'Task' in the project
  // CHECK-NOTES: :[[@LINE-3]]:27: note: 'Task' is constructed with 'Task(Fn)', which leaves 'Task::body' empty, in 'make_task' ({{.*}}.cpp:63)
  Fn body;
};
int make_task() { return Task(nullptr).run(1); }

// Stored by a setter: a caller that passes empty empties the member.
struct Hooks {
  Hooks() : after([](int x) { return x; }) {}
  void set_after(Fn f) { after = std::move(f); }
  int fire(int x) { return after(x); }
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: call through possibly empty callable 'after' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:28: note: 'Hooks::after' is assigned a value from 'f' in 'Hooks::set_after' ({{.*}}.cpp:68)
  // CHECK-NOTES: :[[@LINE-3]]:28: note: 'f' of 'Hooks::set_after' is passed an empty callable in 'configure' ({{.*}}.cpp:75)
  Fn after;
};
void configure(Hooks &h) { h.set_after(nullptr); }

// Passed on from another parameter: the chain is followed to the empty
// argument.
int outer(Fn cb, int x) { return apply_step(cb, x) + cb(x); }
// CHECK-NOTES: :[[@LINE-1]]:54: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:54: note: 'cb' of 'outer' is passed an empty callable in 'start' ({{.*}}.cpp:82)
int start() { return outer(Fn(), 1); }

// Moved into the call: what was moved is what is passed.
int hand_over() {
  Fn mine = [](int x) { return x; };
  return forward(std::move(mine), 4);
}

// Hard negative (cpp-httplib's request body): the member is stored wrapped
// in an adapter object, which makes a callable that is never empty, and it
// is handed on from an object the caller received: whether that object's
// member is set is its own caller's to know (it tests it before the call).
struct Adapter {
  explicit Adapter(Fn f) : inner(std::move(f)) {}
  int operator()(int x) const { return inner ? inner(x) : x; }
  Fn inner;
};
struct Request {
  Fn provider;
};
int write_body(const Fn &provider, int x) { return provider(x); } // no-warning
int send_body(const Request &req) { return write_body(req.provider, 3); }
int build(Request &req, Fn without_length) {
  if (without_length)
    req.provider = Adapter(std::move(without_length));
  return req.provider ? send_body(req) : 0;
}
int post(Request &req) {
  req.provider = nullptr; // emptied here, and tested before send_body
  return build(req, nullptr);
}
