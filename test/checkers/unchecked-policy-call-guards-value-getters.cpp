// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// Getters that return a member by value. A method whose one statement
// returns a member of its object as a copy (`Fab fab() const { return
// m_fab; }`) gives what the member holds where it is called: a test of
// `r.fab()` guards `r.fab()(x)` on the same object where nothing in between
// writes the member (amrex's `DeriveRec::derFuncFab()`), also with other
// calls between, and for a function pointer. A test of another object's
// getter, a method that may empty the member in between, and a method that
// moves the member out keep their findings.

#include <functional>
#include <utility>

using Fab = std::function<void(int)>;
using Func = void (*)(int);

void note(int);

struct Rec {
  Fab fab() const { return m_fab; }
  Func func() const { return m_func; }
  Fab take() { return std::move(m_fab); }
  void clear();
  Fab m_fab;
  Func m_func = nullptr;
};

void derive(const Rec &r, int n) {
  if (r.fab() != nullptr) {
    for (int i = 0; i < n; ++i) {
      note(i);
      r.fab()(i);
    }
  } else if (r.func()) {
    note(n);
    r.func()(n); // no-warning
  }
}

void other(const Rec &a, const Rec &b) {
  if (a.fab())
    b.fab()(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'b.fab()' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'b.fab()' is not empty before this call, e.g. 'if (b.fab())'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Rec::fab' is checked for emptiness in 'derive' ({{.*}}.cpp:[[@LINE-16]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: warning: call through possibly empty callable 'b.fab()' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:5: note: check that 'b.fab()' is not empty before this call, e.g. 'if (b.fab())'
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:5: note: a value from 'Rec::fab' is checked for emptiness in 'derive' ({{.*}}.cpp:[[@LINE-19]])
}

void cleared(Rec &r) {
  if (r.fab()) {
    r.clear();
    r.fab()(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'r.fab()' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'r.fab()' is not empty before this call, e.g. 'if (r.fab())'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Rec::fab' is checked for emptiness in 'derive' ({{.*}}.cpp:[[@LINE-28]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: warning: call through possibly empty callable 'r.fab()' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:5: note: check that 'r.fab()' is not empty before this call, e.g. 'if (r.fab())'
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:5: note: a value from 'Rec::fab' is checked for emptiness in 'derive' ({{.*}}.cpp:[[@LINE-31]])
  }
}

void taken(Rec &r) {
  if (r.take())
    r.take()(3);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'r.take()' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'r.take()' is not empty before this call, e.g. 'if (r.take())'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Rec::take' is checked for emptiness in 'taken' ({{.*}}.cpp:[[@LINE-4]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: warning: call through possibly empty callable 'r.take()' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:5: note: check that 'r.take()' is not empty before this call, e.g. 'if (r.take())'
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:5: note: a value from 'Rec::take' is checked for emptiness in 'taken' ({{.*}}.cpp:[[@LINE-7]])
}
