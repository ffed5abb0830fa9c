// RUN: %check_wrapguard %s %t -- -std=c++17

// One argument reads a callable and a sibling argument of the same call
// moves it (into a by-value parameter, or a lambda's capture): C++ leaves
// the order in which arguments are evaluated unspecified, so the reader may
// get the moved-from, empty value. couchbase's transactions passed `cb` and
// `[cb = std::move(cb)] {..}` to one call, and the handler the first
// argument copied threw std::bad_function_call on the error path.

#include <functional>
#include <utility>

using Fn = std::function<void()>;

// The handler is copied, and a sibling argument, a lambda, moves the same
// variable into its capture: which of the two is evaluated first is
// unspecified, so the copy may be of the moved-from, empty callable.
void submit(Fn on_error, Fn task) {
  task();
  on_error();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'on_error' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'on_error' of 'submit' may be passed a moved-from, empty callable in 'schedule' ({{.*}}.cpp:[[@LINE+3]]): another argument of that call moves from it, and the order in which arguments are evaluated is unspecified
}
void schedule(Fn cb) {
  submit(cb, [cb = std::move(cb)] { cb(); });
}

// A by-value parameter move-constructed from the variable that another
// argument reads.
void both(const Fn &first, Fn second) {
  second();
  first();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'first' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'first' of 'both' may be passed a moved-from, empty callable in 'pass_twice' ({{.*}}.cpp:[[@LINE+2]]): another argument of that call moves from it, and the order in which arguments are evaluated is unspecified
}
void pass_twice(Fn f) { both(f, std::move(f)); }

// Not moved while the arguments are evaluated: a parameter by rvalue
// reference binds the variable without moving it, a lambda's body moves
// only when it runs, a capture by copy moves nothing, and a move from
// another variable leaves this one alone.
void by_ref(const Fn &first, Fn &&second) {
  first();
  second();
}
void pass_ref(Fn f) { by_ref(f, std::move(f)); }
void submit_later(Fn on_error, std::function<void(Fn &)> task) { on_error(); }
void schedule_body(Fn cb) {
  submit_later(cb, [](Fn &f) { Fn g = std::move(f); });
}
void schedule_copy(Fn cb) {
  submit(cb, [cb] { cb(); });
}
void schedule_other(Fn cb, Fn other) {
  submit(cb, [other = std::move(other)] { other(); });
}

void callers() {
  schedule([] {});
  pass_twice([] {});
  pass_ref([] {});
  schedule_body([] {});
  schedule_copy([] {});
  schedule_other([] {}, [] {});
}
