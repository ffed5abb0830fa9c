// RUN: %check_wrapguard %s %t

// A call to a [[noreturn]] function on the empty branch guards the rest:
// assert, abort, glog-style CHECK macros and user functions, through their
// macros, with no list of names.

#include <cassert>
#include <cstdlib>
#include <exception>
#include <functional>

using IntFn = std::function<int(int)>;

IntFn get_policy();

[[noreturn]] void fail(const char *why);
void log_error(const char *why); // returns

namespace logging {
[[noreturn]] void check_failed(const char *file, int line, const char *cond);
}
#define CHECK(cond)                                                            \
  ((cond) ? (void)0 : ::logging::check_failed(__FILE__, __LINE__, #cond))
#define SOFT_CHECK(cond) ((cond) ? (void)0 : log_error(#cond))

int logging_does_not_guard(int x) {
  IntFn f = get_policy();
  if (!f)
    log_error("no policy");
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int soft_check_macro_does_not_guard(int x) {
  IntFn f = get_policy();
  SOFT_CHECK(f);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int noreturn_on_the_wrong_branch(int x) {
  IntFn f = get_policy();
  if (f)
    fail("unexpected policy");
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

// Negative cases.

int guarded_by_assert(int x) {
  IntFn f = get_policy();
  assert(f);
  return f(x); // no-warning
}

int guarded_by_assert_with_message(int x) {
  IntFn f = get_policy();
  assert(f && "a policy is required");
  return f(x); // no-warning
}

int guarded_by_assert_comparison(int x) {
  IntFn f = get_policy();
  assert(f != nullptr);
  return f(x); // no-warning
}

int guarded_by_abort(int x) {
  IntFn f = get_policy();
  if (!f)
    std::abort();
  return f(x); // no-warning
}

int guarded_by_user_noreturn(int x) {
  IntFn f = get_policy();
  if (f == nullptr)
    fail("no policy");
  return f(x); // no-warning
}

int guarded_by_check_macro(int x) {
  IntFn f = get_policy();
  CHECK(f);
  return f(x); // no-warning
}

int guarded_by_check_macro_comparison(int x) {
  IntFn f = get_policy();
  CHECK(f != nullptr);
  return f(x); // no-warning
}

int guarded_by_terminate(int x) {
  IntFn f = get_policy();
  if (!f)
    std::terminate();
  return f(x); // no-warning
}

int guarded_by_exit(int x) {
  IntFn f = get_policy();
  if (!f) {
    log_error("no policy");
    std::exit(1);
  }
  return f(x); // no-warning
}

// `__attribute__((analyzer_noreturn))` says the same for analyzers, on a
// function whose body (an abort) is in another TU (zmq's zmq_abort, behind
// zmq_assert). A function that only logs says nothing.
void abort_elsewhere(const char *why) __attribute__((analyzer_noreturn));
#define ZMQ_STYLE_ASSERT(x)                                                    \
  do {                                                                         \
    if (!(x))                                                                  \
      abort_elsewhere(#x);                                                     \
  } while (false)
#define LOGGING_ASSERT(x)                                                      \
  do {                                                                         \
    if (!(x))                                                                  \
      log_error(#x);                                                           \
  } while (false)

int analyzer_noreturn_assert(int x) {
  IntFn f = get_policy();
  ZMQ_STYLE_ASSERT(f);
  return f(x); // no-warning
}

int logging_assert(int x) {
  IntFn f = get_policy();
  LOGGING_ASSERT(f);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
