// RUN: %check_wrapguard %s %t

// "always empty here" when the callable is empty on every path to the call;
// "possibly empty" otherwise. A moved-from value is only possibly empty.

#include <deque>
#include <functional>
#include <utility>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }
IntFn get_policy(int kind);
IntFn no_wrap_policy() { return nullptr; }
IntFn no_wrap_braces() { return {}; }

int else_of_condition_declaration(int x) {
  if (auto f = get_policy(0))
    return f(x);
  else
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int body_only_returns_empty(int x) {
  IntFn f = no_wrap_policy();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int body_only_returns_braces(int x) {
  IntFn f = no_wrap_braces();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int parameter_in_else_branch(const IntFn &f, int x) {
  if (f)
    return f(x);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int empty_on_all_paths(bool on, int x) {
  IntFn f;
  if (on)
    f = nullptr;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

int moved_from_is_possibly_empty(int x) {
  IntFn f = identity;
  IntFn g = std::move(f);
  (void)g;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int possibly_empty_from_policy(int x) {
  IntFn f = get_policy(1);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int one_path_empty_one_path_unknown(bool on, int x) {
  IntFn f = get_policy(2);
  if (on)
    f = nullptr;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int parameter_in_then_branch(const IntFn &f, int x) {
  if (f)
    return f(x); // no-warning
  return x;
}

int empty_policy_result_checked(int x) {
  IntFn f = no_wrap_policy();
  if (!f)
    return x;
  return f(x); // no-warning
}

int empty_policy_result_not_called(int x) {
  IntFn f = no_wrap_policy();
  return f ? 0 : x; // no-warning
}

// A struct assigned from an object the framework does not model (a library
// container's element) holds what that object holds, not the empty value it
// was initialised with (brpc's usercode backup pool: `UserCode usercode =
// {nullptr, nullptr}; ... usercode = queue.front(); usercode.fn(usercode.arg);`
// was "always empty").
struct UserCode {
  void (*fn)(void *);
  void *arg;
};
void run_user_code(void *);
void enqueue(std::deque<UserCode> &queue, void *arg) {
  queue.push_back({run_user_code, arg});
}
void run_queued(std::deque<UserCode> &queue) {
  UserCode usercode = {nullptr, nullptr};
  usercode = queue.front();
  queue.pop_front();
  usercode.fn(usercode.arg); // no-warning
}

// True neighbour: never assigned.
void run_unassigned(std::deque<UserCode> &queue) {
  UserCode usercode = {nullptr, nullptr};
  queue.pop_front();
  usercode.fn(usercode.arg);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through callable 'usercode.fn', which is always empty here [wrapguard-unchecked-policy-call]
}
