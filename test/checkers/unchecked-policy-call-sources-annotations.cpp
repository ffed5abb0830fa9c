// RUN: %check_wrapguard %s %t

// [[clang::annotate("wrapguard::nullable")]] on a function, or _Nullable on
// its returned pointer type, makes its result a source whatever its name.

#include <functional>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

int identity(int x) { return x; }

[[clang::annotate("wrapguard::nullable")]] IntFn pick_wrapper(int kind);
[[clang::annotate("wrapguard::nullable")]] FnPtr pick_pointer(int kind);
FnPtr _Nullable lookup_pointer(int kind);
[[clang::annotate("something::else")]] IntFn other_annotation(int kind);
FnPtr _Nonnull checked_pointer(int kind);

struct Registry {
  [[clang::annotate("wrapguard::nullable")]] IntFn find(int kind) const;
};

int annotated_function(int x) {
  IntFn f = pick_wrapper(0);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

int annotated_pointer_function(int x) {
  FnPtr p = pick_pointer(0);
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int nullable_return_type(int x) {
  FnPtr p = lookup_pointer(0);
  return (*p)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int annotated_method(const Registry &r, int x) {
  IntFn f = r.find(1);
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Negative cases.

int annotated_and_checked(int x) {
  IntFn f = pick_wrapper(0);
  if (!f)
    return x;
  return f(x); // no-warning
}

int nullable_and_checked(int x) {
  FnPtr p = lookup_pointer(0);
  return p ? p(x) : x; // no-warning
}

int other_annotation_is_ignored(int x) {
  IntFn f = other_annotation(0);
  return f(x); // no-warning
}

int nonnull_return_type(int x) {
  FnPtr p = checked_pointer(0);
  return p(x); // no-warning
}
