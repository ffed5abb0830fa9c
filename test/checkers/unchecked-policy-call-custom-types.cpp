// RUN: %check_wrapguard %s %t -check-suffix=CUSTOM \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.NullableCallableTypes: '::mylib::UniqueFunction;::other::Handler$'}}"
// RUN: %check_wrapguard %s %t

// Types named by NullableCallableTypes are treated like std::function:
// operator bool tells whether they hold a target, operator() calls it.
// A class with operator() that also converts to bool is one by default
// (UniqueFunction and Handler, flagged in both runs); callables without a
// way to test them (OtherFunction, HandlerList) are one only when named.

#include <cstddef>

namespace mylib {
class UniqueFunction {
public:
  UniqueFunction() = default;
  UniqueFunction(std::nullptr_t) {}
  UniqueFunction(int (*Fn)(int)) : Fn(Fn) {}
  explicit operator bool() const { return Fn != nullptr; }
  int operator()(int X) const { return Fn(X); }

private:
  int (*Fn)(int) = nullptr;
};
class OtherFunction {
public:
  int operator()(int X) const { return X; }
};
} // namespace mylib

namespace other {
struct Handler {
  explicit operator bool() const { return true; }
  void operator()() const {}
};
struct HandlerList {
  void operator()() const {}
};
} // namespace other

int identity(int x) { return x; }

mylib::UniqueFunction unique_policy();
mylib::OtherFunction other_policy();
other::Handler handler_policy();
other::HandlerList handler_list_policy();

int custom_from_policy(int x) {
  mylib::UniqueFunction f = unique_policy();
  return f(x);
  // CHECK-MESSAGES-CUSTOM: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

void second_regex_matches() {
  other::Handler h = handler_policy();
  h();
  // CHECK-MESSAGES-CUSTOM: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
}

int custom_local_default_constructed(int x) {
  mylib::UniqueFunction f;
  return f(x);
  // CHECK-MESSAGES-CUSTOM: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int custom_assigned_nullptr(int x) {
  mylib::UniqueFunction f(identity);
  f = nullptr;
  return f(x);
  // CHECK-MESSAGES-CUSTOM: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

// Negative cases.

int custom_guarded(int x) {
  mylib::UniqueFunction f = unique_policy();
  if (f)
    return f(x); // no-warning
  return x;
}

int custom_bool_cast_guard(int x) {
  mylib::UniqueFunction f = unique_policy();
  if (!static_cast<bool>(f))
    return x;
  return f(x); // no-warning
}

int unmatched_type_is_ignored(int x) {
  mylib::OtherFunction f = other_policy();
  return f(x); // no-warning
}

void anchored_regex_does_not_match_longer_name() {
  other::HandlerList h = handler_list_policy();
  h(); // no-warning
}

int custom_initialised_from_function(int x) {
  mylib::UniqueFunction f(identity);
  return f(x); // no-warning
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
