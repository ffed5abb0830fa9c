// RUN: %check_wrapguard %s %t \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: none}}"

// FixMode none diagnoses only: no edits, and no "check that" note (the
// notes about where the empty value comes from stay).

#include <functional>

using IntFn = std::function<int(int)>;

IntFn int_policy();

int value_call_unchanged(int x) {
  IntFn f = int_policy();
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'f' comes from 'int_policy', which may return an empty callable
  // CHECK-FIXES: {{^}}  return f(x);{{$}}
}

void statement_call_unchanged(int x) {
  IntFn g = int_policy();
  g(x);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'g' comes from 'int_policy', which may return an empty callable
  // CHECK-FIXES: {{^}}  g(x);{{$}}
}

void unbraced_call_has_no_note(bool on, int x) {
  IntFn h = int_policy();
  if (on)
    h(x);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-DAG: :[[@LINE-4]]:13: note: 'h' comes from 'int_policy', which may return an empty callable
    // CHECK-FIXES: {{^}}    h(x);{{$}}
}

int local_empty_unchanged(int x) {
  IntFn e;
  return e(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through callable 'e', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:9: note: 'e' is made empty here
  // CHECK-FIXES: {{^}}  return e(x);{{$}}
}

// Negative cases.

int checked_call_unchanged(int x) {
  IntFn c = int_policy();
  if (!c)
    return x;
  return c(x); // no-warning
}
