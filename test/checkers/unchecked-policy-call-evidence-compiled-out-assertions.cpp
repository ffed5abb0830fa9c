// RUN: %check_wrapguard %s %t -- -DNDEBUG
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -DNDEBUG

// An assertion compiled out of the build (a release database: NDEBUG)
// still states what a debug build's flow analysis proves: a statement
// spelled as a macro invocation whose expansion reads nothing, before the
// call in a block that encloses it, whose argument says the callable is
// set. duckdb's `D_ASSERT(callbacks.state_size); callbacks.state_size(..)`.

#include <cassert>
#include <functional>

using Fn = std::function<int(int)>;
typedef int (*RawFn)(int);

#define D_ASSERT(cond) ((void)0)
#define QUIET_ASSERT(cond)
#define CHECK_MSG(cond, msg) do { } while (0)
// glog's DCHECK under NDEBUG, and Chromium's (brpc's, butil's): the check is
// still there, behind a condition the compiler decides is false.
void fatal_check(bool);
#define DEAD_CHECK(cond) while (false) fatal_check(cond)
#define DCHECK_IS_ON() 0
#define LAZY_CHECK(cond) (!(DCHECK_IS_ON() && !(cond)) ? (void)0 : fatal_check(false))
// Runs its check: not compiled out.
#define LIVE_CHECK(cond) while (true) { fatal_check(cond); break; }
// Not an assertion: it reads its argument.
#define LOG_VALUE(v) log_value(v != nullptr)
void log_value(bool);

// Every caller below passes an empty callable somewhere: the evidence.
int standard(Fn f) {
  assert(f != nullptr);
  return f(1); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int project_macro(Fn f) {
  D_ASSERT(f);
  return f(2); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int empty_macro(RawFn f, int x) {
  if (x > 0) {
    QUIET_ASSERT(x > 0 && f != NULL);
    return f(x); // no-warning
    // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  }
  return 0;
}
int with_message(RawFn f) {
  CHECK_MSG(nullptr != f, "no callback");
  int y = 3;
  return f(y); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int dead_loop(Fn f) {
  DEAD_CHECK(f != nullptr);
  return f(9); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int short_circuit(RawFn f) {
  LAZY_CHECK(f);
  return f(10); // no-warning
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// True neighbours: an assertion of another value, one after the call, one
// in a branch that does not enclose the call, a macro that reads its
// argument, and a value empty on every path.
int other_value(Fn f, Fn g) {
  D_ASSERT(g);
  return f(4);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int after_the_call(Fn f) {
  int r = f(5);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:11: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  D_ASSERT(f);
  return r;
}
int in_a_branch(Fn f, bool loud) {
  if (loud) {
    D_ASSERT(f);
  }
  return f(6);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int logged(RawFn f) {
  LOG_VALUE(f);
  return f(7);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int live_loop(RawFn f) {
  LIVE_CHECK(f);
  return f(11);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int always_empty() {
  Fn f = nullptr;
  D_ASSERT(f);
  return f(8);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

void callers(bool b) {
  standard(nullptr);
  project_macro(nullptr);
  empty_macro(nullptr, 1);
  with_message(nullptr);
  other_value(nullptr, nullptr);
  after_the_call(nullptr);
  in_a_branch(nullptr, b);
  logged(nullptr);
  dead_loop(nullptr);
  short_circuit(nullptr);
  live_loop(nullptr);
}
