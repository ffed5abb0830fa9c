// RUN: %check_wrapguard %s %t

// Callee summaries recurse MaxSummaryDepth (3) definitions deep. A summary
// cut short by that bound depends on where it was asked from, so it is not
// kept: c_policy, reached first at depth 3 through x(), is summarised again
// in full for y() and for the project's facts, and its result never depends
// on the order functions are analysed in.

#include <functional>

using IntFn = std::function<int(int)>;

IntFn d_policy() { return [](int v) { return v; }; }
IntFn c_policy() { return d_policy(); }
IntFn b_policy() { return c_policy(); }
IntFn a_policy() { return b_policy(); }

int x(int v) {
  IntFn f = a_policy();
  return f(v); // no-warning
}

int y(int v) {
  IntFn f = c_policy();
  return f(v); // no-warning
}

IntFn empty_policy() { return nullptr; }
IntFn forwards_empty() { return empty_policy(); }

int z(int v) {
  IntFn f = forwards_empty();
  return f(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}
