// RUN: %check_wrapguard %s %t

// What a call passes is judged by the flow analysis of the caller, where
// the argument reads the variable: a parameter normalised before it is
// passed on (`if (!f) f = &dflt;`, faiss's shape), or tested and ended by a
// function that never returns, is set there on every path, whatever the
// caller's caller passed. The syntax alone sees only where the variable's
// values come from, the empty argument of the outer call among them. Each
// hard negative has a true neighbour that normalises on one path only.

#include <functional>
#include <utility>

using Fn = std::function<int(int)>;
typedef int (*IntFn)(int);

static int identity(int x) { return x; }
void fatal(const char *what); // Defined below: never returns.

// A function pointer normalised to a default, then handed on.
int apply(IntFn f, int x) { return f(x); } // no-warning
int apply_or_identity(IntFn f, int x) {
  if (!f)
    f = &identity;
  return apply(f, x);
}
int pointer_caller() { return apply_or_identity(nullptr, 1); }

// Its true neighbour: normalised only when `c` holds, and the only caller
// passes nullptr with `c` false.
int apply_some(IntFn f, int x) { return f(x); }
// CHECK-NOTES: :[[@LINE-1]]:41: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:41: note: 'f' of 'apply_some' is passed a value from 'f' in 'apply_sometimes' ({{.*}}.cpp:[[@LINE+5]])
// CHECK-NOTES: :[[@LINE-3]]:41: note: 'f' of 'apply_sometimes' is passed an empty callable in 'partial_caller' ({{.*}}.cpp:[[@LINE+6]])
int apply_sometimes(IntFn f, int x, bool c) {
  if (!f && c)
    f = &identity;
  return apply_some(f, x);
}
int partial_caller() { return apply_sometimes(nullptr, 1, false); }

// A std::function normalised by a lambda, and moved on: the read inside
// std::move sees the normalised value.
int run_step(Fn f, int x) { return f(x); } // no-warning
int run_or_identity(Fn f, int x) {
  if (f == nullptr)
    f = [](int y) { return y; };
  return run_step(std::move(f), x);
}
int function_caller() { return run_or_identity(nullptr, 2); }

// Tested, and ended by a function that never returns.
void fatal(const char *what) { throw what; }
int checked_step(Fn f, int x) { return f(x); } // no-warning
int require_step(Fn f, int x) {
  if (!f)
    fatal("no step");
  return checked_step(f, x);
}
int required_caller() { return require_step(nullptr, 3); }

// A constructor argument: the construction passes the normalised value, so
// it sets the member.
struct Task {
  explicit Task(Fn b) : body(std::move(b)) {}
  int run(int x) { return body(x); } // no-warning
  Fn body;
};
int make_task(Fn f) {
  if (!f)
    f = [](int x) { return x; };
  Task t(f);
  return t.run(1);
}
int task_caller() { return make_task(nullptr); }

// Its true neighbour: the other branch leaves the argument as passed.
struct Job {
  explicit Job(Fn b) : body(std::move(b)) {}
  int run(int x) { return body(x); }
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: call through possibly empty callable 'body' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:27: note: 'Job::body' is not surely set by the only construction of 'Job' in the project
  // CHECK-NOTES: :[[@LINE-3]]:27: note: 'Job' is constructed with 'Job(Fn)', which sets 'Job::body' from a value that may be empty, in 'make_job' ({{.*}}.cpp:[[@LINE+7]])
  // CHECK-NOTES: :[[@LINE-4]]:27: note: 'f' of 'make_job' is passed an empty callable in 'job_caller' ({{.*}}.cpp:[[@LINE+9]])
  Fn body;
};
int make_job(Fn f, bool c) {
  if (!f && c)
    f = [](int x) { return x; };
  Job j(f);
  return j.run(1);
}
int job_caller() { return make_job(nullptr, false); }

// A field read to be passed on is judged the same way: `this->callback`
// under `if (callback)` (nlohmann's parser, which builds its callback
// parser only then), and `debug->before` under a test of it.
struct CallbackParser {
  CallbackParser(int &r, const Fn cb) : result(r), callback(cb) {}
  int start(int x) { return callback(x); } // no-warning
  int &result;
  const Fn callback = nullptr;
};
class Parser {
public:
  explicit Parser(Fn cb = nullptr) : callback(std::move(cb)) {}
  int parse() {
    int r = 0;
    if (callback) {
      CallbackParser p(r, callback);
      return p.start(1);
    }
    return r;
  }

private:
  const Fn callback = nullptr;
};
int parse_plain() { return Parser().parse(); }

struct DebugHooks {
  Fn before;
  Fn after;
};
int run_hooked(const Fn &enter, const Fn &exit) { return enter(1) + exit(2); } // no-warning
int run_all(DebugHooks *debug) {
  if (debug->before != nullptr && debug->after != nullptr)
    return run_hooked(debug->before, debug->after);
  return 0;
}
int hooks_caller() {
  DebugHooks d;
  return run_all(&d);
}

// Its true neighbour: the same hooks passed without the test. The caller's
// flow analysis proves the member of its local empty where it reads it.
int run_traced(const Fn &enter) { return enter(1); }
// CHECK-NOTES: :[[@LINE-1]]:42: warning: call through possibly empty callable 'enter' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:42: note: 'enter' of 'run_traced' is passed an empty callable in 'run_untested' ({{.*}}.cpp:[[@LINE+3]])
int run_untested() {
  DebugHooks d;
  return run_traced(d.before);
}

// A callable captured by move and handed on by move on several paths, each
// of which returns (couchbase's transaction callbacks): no earlier move
// reaches a later pass, whatever source order says. The flow cannot prove
// a capture set, so only where the move is decides.
template <typename Cb> int finish(Cb &&cb, int v) { return cb(v); } // no-warning
int on_result(bool found, bool optional, Fn &&cb) {
  auto handler = [found, optional, cb = std::move(cb)]() mutable {
    if (found)
      return finish(std::move(cb), 1);
    if (optional) {
      int r = finish(std::move(cb), 2);
      return r;
    }
    return finish(std::move(cb), 3);
  };
  return handler();
}

// Its true neighbour: a move on a path that goes on to the next pass.
int finish_twice(Fn cb, int v) { return cb(v); }
// CHECK-NOTES: :[[@LINE-1]]:41: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
// CHECK-NOTES: :[[@LINE-2]]:41: note: 'cb' of 'finish_twice' is passed an empty callable in 'on_retry' ({{.*}}.cpp:[[@LINE+6]])
int on_retry(bool retry, Fn &&cb) {
  auto handler = [retry, cb = std::move(cb)]() mutable {
    int r = 0;
    if (retry)
      r = finish_twice(std::move(cb), 1);
    return r + finish_twice(std::move(cb), 2);
  };
  return handler();
}
