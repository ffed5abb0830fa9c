// RUN: %check_wrapguard %s %t

// A class with operator() that can also be tested for emptiness (it converts
// to bool, explicitly or not, or compares with nullptr) is a nullable
// callable by default: packed-function handles, folly::Function,
// llvm::unique_function. NullableCallableTypes is not needed for them.

#include <cstddef>

namespace rt {
class PackedFunc {
public:
  PackedFunc() = default;
  PackedFunc(std::nullptr_t) {}
  explicit PackedFunc(int (*f)(int)) : f(f) {}
  explicit operator bool() const { return f != nullptr; }
  int operator()(int x) const { return f(x); }

private:
  int (*f)(int) = nullptr;
};

struct Handle {
  void *impl = nullptr;
  int operator()(int x) const { return x; }
  friend bool operator==(const Handle &h, std::nullptr_t) { return !h.impl; }
  friend bool operator!=(const Handle &h, std::nullptr_t) { return h.impl; }
};

struct Functor {
  int operator()(int x) const { return x; }
};

// Predicates whose `operator bool` is their value, as their call is (ompl's
// PlannerTerminationCondition: `!ptc` asks whether the planner may go on):
// no test of emptiness, so no nullable callable.
class Condition {
public:
  bool operator()() const { return eval(); }
  operator bool() const { return eval(); }
  bool eval() const;
};
struct Deadline {
  bool operator()() const { return left <= 0; }
  explicit operator bool() const { return (*this)(); }
  int left = 0;
};
// Its `operator bool` tests a member, not what its call returns: nullable.
struct Check {
  bool operator()() const { return f(); }
  explicit operator bool() const { return f != nullptr; }
  bool (*f)() = nullptr;
};
} // namespace rt

rt::PackedFunc get_packed_policy();
rt::Handle get_handle_policy();
rt::Functor get_functor_policy();
rt::Condition get_condition_policy();
rt::Deadline get_deadline_policy();
rt::Check get_check_policy();

int packed_from_policy(int x) {
  rt::PackedFunc f = get_packed_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int handle_from_policy(int x) {
  rt::Handle h = get_handle_policy();
  return h(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
}

int packed_default_constructed(int x) {
  rt::PackedFunc f;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

// Negative cases.

int packed_guarded(int x) {
  rt::PackedFunc f = get_packed_policy();
  if (!f)
    return x;
  return f(x); // no-warning
}

int handle_compared_with_nullptr(int x) {
  rt::Handle h = get_handle_policy();
  if (h == nullptr)
    return x;
  return h(x); // no-warning
}

// A functor that cannot be empty is no nullable callable.
int plain_functor(int x) {
  rt::Functor f = get_functor_policy();
  return f(x); // no-warning
}

bool condition_is_a_predicate() {
  rt::Condition c = get_condition_policy();
  if (!c)
    return false;
  return c(); // no-warning
}

bool deadline_is_a_predicate() {
  rt::Deadline d = get_deadline_policy();
  return d(); // no-warning
}

bool check_from_policy() {
  rt::Check c = get_check_policy();
  return c();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'c' [wrapguard-unchecked-policy-call]
}

int lambda_is_not_nullable(int x) {
  auto f = [](int v) { return v; };
  return f(x); // no-warning
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
