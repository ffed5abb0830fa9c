// RUN: %check_wrapguard %s %t

// A virtual call's facts are the join over the overrides that are seen: one
// override that may return empty makes every virtual call a source; when
// every override seen never returns empty, the call is not one, whatever its
// name says.

#include <functional>

using IntFn = std::function<int(int)>;

struct Strategy {
  virtual ~Strategy() = default;
  virtual IntFn wrapper() const = 0;
  virtual IntFn wrap_policy() const { return [](int x) { return x; }; }
};

struct SizeBased : Strategy {
  IntFn wrapper() const override { return [](int x) { return x * 2; }; }
};

struct NoWrap : Strategy {
  IntFn wrapper() const override { return nullptr; }
  IntFn wrap_policy() const override { return [](int x) { return x; }; }
};

int through_base(const Strategy &s, int x) {
  IntFn f = s.wrapper();
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'f' comes from 'Strategy::wrapper', which returns an empty callable on some path ({{.*}}.cpp:23)
}

int through_override(const NoWrap &s, int x) {
  IntFn f = s.wrapper();
  return f(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-3]]:13: note: 'f' comes from 'NoWrap::wrapper', which always returns an empty callable ({{.*}}.cpp:23)
}

// Negative cases.

// Every override seen never returns empty: not a source, though its name
// matches PolicyNames.
int policy_name_with_non_empty_overrides(const Strategy &s, int x) {
  IntFn f = s.wrap_policy();
  return f(x); // no-warning
}

// Qualified, so not virtual: SizeBased's own definition decides.
int devirtualized(const SizeBased &s, int x) {
  IntFn f = s.SizeBased::wrapper();
  return f(x); // no-warning
}

int guarded_virtual(const Strategy &s, int x) {
  IntFn f = s.wrapper();
  if (!f)
    return x;
  return f(x); // no-warning
}
