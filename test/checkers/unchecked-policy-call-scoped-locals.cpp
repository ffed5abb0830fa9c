// RUN: %check_wrapguard %s %t

// Locals die at the end of their block, and the engine drops them from its
// state there (issue 24). Findings must be those of an engine that kept them:
// calls guarded inside the block are quiet, the state of a callable copied
// or moved out of a block survives it, and what a guard proved of a
// callable that lives on is still proven after a block's locals die.

#include <functional>
#include <utility>

using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);

IntFn get_policy(int kind);
FnPtr get_pointer(int kind);

// The benchmark's `scoped` shape (tools/bench/gen-pathological-tu.py), small:
// blocks with their own callable and flag alternate with blocks that return
// early when their callable is empty.
int scoped(int acc, int limit) {
  if (acc > limit + 0) {
    IntFn f = get_policy(0);
    bool ok = static_cast<bool>(f);
    if (ok && (acc & 1))
      acc = f(acc); // no-warning
    acc += 1;
  }
  {
    IntFn h = get_policy(1);
    if (!h)
      return acc;
    acc = h(acc); // no-warning
  }
  if (acc > limit + 2) {
    IntFn f = get_policy(2);
    bool ok = static_cast<bool>(f);
    if (ok && (acc & 4))
      acc = f(acc); // no-warning
    acc += 3;
  }
  {
    IntFn h = get_policy(3);
    if (!h)
      return acc;
    acc = h(acc); // no-warning
  }
  IntFn g = get_policy(-1);
  return g(acc);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
}

int copied_out_of_a_block(int x) {
  IntFn outer;
  {
    IntFn inner = get_policy(0);
    if (!inner)
      return x;
    outer = inner;
  }
  return outer(x); // no-warning
}

int moved_out_of_a_block(int x) {
  IntFn outer;
  {
    IntFn inner = get_policy(0);
    if (!inner)
      return x;
    outer = std::move(inner);
  }
  return outer(x); // no-warning
}

int unguarded_copy_out_of_a_block(int x) {
  IntFn outer;
  {
    IntFn inner = get_policy(0);
    outer = inner;
  }
  return outer(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'outer' [wrapguard-unchecked-policy-call]
}

int flag_dies_callable_lives(int x) {
  IntFn f = get_policy(0);
  {
    bool ok = static_cast<bool>(f);
    if (!ok)
      return x;
  }
  return f(x); // no-warning
}

int flag_lives_callable_dies(int x) {
  bool ok;
  {
    IntFn f = get_policy(0);
    ok = static_cast<bool>(f);
    if (ok)
      x = f(x); // no-warning
  }
  return ok ? x : -x;
}

int pointer_copied_out_of_a_block(int x) {
  FnPtr outer = nullptr;
  {
    FnPtr inner = get_pointer(0);
    if (!inner)
      return x;
    outer = inner;
  }
  return outer(x); // no-warning
}

int empty_in_a_block_then_outer(int x) {
  {
    IntFn none;
    x += 1;
  }
  IntFn g = get_policy(0);
  return g(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
}

int block_in_a_loop(int n, int x) {
  for (int i = 0; i < n; ++i) {
    IntFn f = get_policy(i);
    if (!f)
      continue;
    x = f(x); // no-warning
  }
  for (int i = 0; i < n; ++i) {
    IntFn f = get_policy(i);
    x = f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  }
  return x;
}

struct Holder {
  IntFn fn;
  int n = 0;
};

int record_member_in_a_block(int x) {
  {
    Holder h{get_policy(0), 1};
    if (!h.fn)
      return x;
    x = h.fn(x); // no-warning
  }
  Holder g{get_policy(1), 2};
  return g.fn(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g.fn' [wrapguard-unchecked-policy-call]
}

int reference_to_outer_dies(int x) {
  IntFn f = get_policy(0);
  if (!f)
    return x;
  {
    IntFn &r = f;
    x = r(x); // no-warning
  }
  return f(x); // no-warning
}
