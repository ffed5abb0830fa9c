// RUN: %check_wrapguard %s %t

// Member-function pointers, called with .* and ->*.

struct Layer {
  int forward(int x) { return x; }
  int backward(int x) { return -x; }
};

using MemFn = int (Layer::*)(int);

MemFn member_policy(int kind);
MemFn pick_member(int kind); // not a policy by name, no definition

int dot_star_call(Layer &layer, int x) {
  MemFn pm = member_policy(0);
  return (layer.*pm)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: call through possibly empty callable 'pm' [wrapguard-unchecked-policy-call]
}

int arrow_star_call(Layer *layer, int x) {
  MemFn pm = member_policy(1);
  return (layer->*pm)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: call through possibly empty callable 'pm' [wrapguard-unchecked-policy-call]
}

void statement_member_call(Layer &layer, int x) {
  MemFn pm = member_policy(2);
  (layer.*pm)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'pm' [wrapguard-unchecked-policy-call]
}

int local_null_member_pointer(Layer &layer, int x) {
  MemFn pm = nullptr;
  return (layer.*pm)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: call through callable 'pm', which is always empty here [wrapguard-unchecked-policy-call]
}

// Negative cases.

int member_guarded(Layer &layer, int x) {
  MemFn pm = member_policy(0);
  if (pm)
    return (layer.*pm)(x); // no-warning
  return x;
}

int member_compared_with_nullptr(Layer *layer, int x) {
  MemFn pm = member_policy(0);
  if (pm == nullptr)
    return x;
  return (layer->*pm)(x); // no-warning
}

int member_assigned_address(Layer &layer, int x) {
  MemFn pm = member_policy(0);
  pm = &Layer::backward;
  return (layer.*pm)(x); // no-warning
}

int member_unknown_origin(Layer &layer, int x) {
  MemFn pm = pick_member(0);
  return (layer.*pm)(x); // no-warning
}

int member_parameter(Layer &layer, MemFn pm, int x) {
  return (layer.*pm)(x); // no-warning
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
