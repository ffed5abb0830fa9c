// RUN: %check_wrapguard %s %t

// Raw pointers, std::shared_ptr and std::unique_ptr to class types with
// operator(), called as (*p)(...) or p->operator()(...).

#include <memory>

struct Wrapper {
  int operator()(int x) const { return x; }
};

std::shared_ptr<Wrapper> shared_policy();
std::unique_ptr<Wrapper> unique_policy();
Wrapper *raw_policy();
std::shared_ptr<Wrapper> find_wrapper(); // not a policy by name, no definition

int shared_star_call(int x) {
  std::shared_ptr<Wrapper> p = shared_policy();
  return (*p)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int shared_operator_call(int x) {
  auto p = shared_policy();
  return p->operator()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int unique_star_call(int x) {
  std::unique_ptr<Wrapper> p = unique_policy();
  return (*p)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

void unique_operator_statement(int x) {
  std::unique_ptr<Wrapper> p = unique_policy();
  p->operator()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int raw_star_call(int x) {
  Wrapper *p = raw_policy();
  return (*p)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int raw_operator_call(int x) {
  Wrapper *p = raw_policy();
  return p->operator()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int default_constructed_shared(int x) {
  std::shared_ptr<Wrapper> p;
  return (*p)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'p', which is always empty here [wrapguard-unchecked-policy-call]
}

// Negative cases.

int shared_guarded(int x) {
  auto p = shared_policy();
  if (p)
    return (*p)(x); // no-warning
  return x;
}

int unique_not_null(int x) {
  auto p = unique_policy();
  if (p != nullptr)
    return p->operator()(x); // no-warning
  return x;
}

int raw_early_return(int x) {
  Wrapper *p = raw_policy();
  if (!p)
    return x;
  return (*p)(x); // no-warning
}

int made_shared(int x) {
  auto p = std::make_shared<Wrapper>();
  return (*p)(x); // no-warning
}

int made_unique(int x) {
  std::unique_ptr<Wrapper> p = std::make_unique<Wrapper>();
  return p->operator()(x); // no-warning
}

int shared_unknown_origin(int x) {
  auto p = find_wrapper();
  return (*p)(x); // no-warning
}

int address_of_local(int x) {
  Wrapper w;
  Wrapper *p = &w;
  return (*p)(x); // no-warning
}
