// RUN: %check_wrapguard %s %t

// Every finding points at where the empty value comes from; a finding with
// no automatic edit says which check to add.

#include <functional>
#include <utility>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

int identity(int x) { return x; }
IntFn get_policy();
IntFn no_wrap_policy() { return nullptr; }
void consume(IntFn f);

int note_on_possible_source(int x) {
  IntFn f = get_policy();
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'f' comes from 'get_policy', which may return an empty callable
}

int note_on_always_empty_source(int x) {
  IntFn f = no_wrap_policy();
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'f' comes from 'no_wrap_policy', which always returns an empty callable
}

int note_on_default_construction(int x) {
  IntFn f;
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:9: note: 'f' is made empty here
}

int note_on_nullptr_assignment(int x) {
  FnPtr p = &identity;
  p = nullptr;
  return p(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through callable 'p', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:3: note: 'p' is made empty here
}

int note_on_braces_assignment(int x) {
  IntFn f = identity;
  f = {};
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:3: note: 'f' is made empty here
}

int note_on_move(int x) {
  IntFn f = identity;
  consume(std::move(f));
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:11: note: 'f' is moved from here
}

// Regression (issue 2): the body of an unbraced if got an edit.
int note_when_no_automatic_fix(bool on, int x) {
  IntFn f = get_policy();
  if (on)
    f(x);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-DAG: :[[@LINE-4]]:13: note: 'f' comes from 'get_policy', which may return an empty callable
    // CHECK-NOTES-DAG: :[[@LINE-3]]:5: note: check that 'f' is not empty before this call, e.g. 'if (f)'
  return x;
}

int note_when_argument_has_side_effects(int x) {
  IntFn f = get_policy();
  return f(x++);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'f' comes from 'get_policy', which may return an empty callable
  // CHECK-NOTES-DAG: :[[@LINE-3]]:10: note: check that 'f' is not empty before this call, e.g. 'if (f)'
}

// Negative cases: no warning, so no note either.

int no_notes_when_checked(int x) {
  IntFn f = get_policy();
  if (!f)
    return x;
  return f(x); // no-warning
}

int no_notes_when_filled(int x) {
  IntFn f;
  f = identity;
  return f(x); // no-warning
}
