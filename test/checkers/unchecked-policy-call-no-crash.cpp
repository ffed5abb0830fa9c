// RUN: %check_wrapguard %s %t -no-compile -expect-error
// RUN: %check_wrapguard %s %t -check-suffix=VALID -no-compile -- -DVALID_ONLY

// Inputs that must not crash or hang the check: invalid code (the check
// stays quiet once the TU has errors), uninstantiated templates, recursion,
// goto, try/catch, and odd callables.

#include <functional>
#include <memory>

using IntFn = std::function<int(int)>;

IntFn get_policy();

#ifndef VALID_ONLY
int uses_undeclared(int x) {
  IntFn f = undeclared_policy();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: error: use of undeclared identifier 'undeclared_policy' [clang-diagnostic-error]
  return f(x);
}

int wrong_arity(int x) {
  IntFn f = get_policy();
  return f(x, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: error: no matching function for call to object of type 'IntFn' (aka 'function<int (int)>') [clang-diagnostic-error]
}
#endif

template <class T> T uninstantiated(T x) {
  std::function<T(T)> f;
  return f(x); // no-warning
}

template <class T> struct UninstantiatedClass {
  T run(T x) {
    auto f = get_policy();
    return f(x); // no-warning
  }
};

int recursive(int x) {
  IntFn f = get_policy();
  if (x <= 0 || !f)
    return x;
  return recursive(f(x - 1)); // no-warning
}

int with_goto(int x) {
  IntFn f = get_policy();
retry:
  if (!f) {
    f = get_policy();
    goto retry;
  }
  return f(x); // no-warning
}

int with_try_catch(int x) {
  IntFn f = get_policy();
  try {
    if (!f)
      throw 1;
    return f(x); // no-warning
  } catch (...) {
    return x;
  }
}

int infinite_loop_with_exit(int x) {
  IntFn f;
  for (;;) {
    f = get_policy();
    if (f)
      break;
  }
  return f(x); // no-warning
}

struct SelfReferential {
  std::function<SelfReferential(int)> next;
};

int callable_returning_callable(int x) {
  std::function<IntFn(int)> make = [](int) -> IntFn { return [](int v) { return v; }; };
  return make(x)(x); // no-warning
}

int array_of_function_pointers(int x) {
  int (*table[2])(int) = {nullptr, nullptr};
  return table[0] ? table[0](x) : x; // no-warning
}

void unevaluated_operands() {
  IntFn f;
  (void)sizeof(f(1));    // no-warning
  decltype(f(1)) y = 0; // no-warning
  (void)y;
}

int deleted_function(int) = delete;
void declared_only(IntFn f);

// Regression (issue 14): a pointer cast that changes the pointee type handed
// its operand's value on, so the framework later read a `void` location (or a
// base class's) as the record the cast names, and crashed copying it
// (clang::dataflow::copyRecord). The cast now gets a pointer of its own with
// the operand's state.
int copy_through_void_pointer(void *p, int x) {
  auto fn = *static_cast<IntFn *>(p);
  return fn(x); // no-warning: of unknown origin
}

int copy_through_reinterpret_cast(void *p, int x) {
  IntFn g = *reinterpret_cast<IntFn *>(p);
  return g(x); // no-warning: of unknown origin
}

struct BaseFunctor {
  int operator()(int x) const { return x; }
};
struct DerivedFunctor : BaseFunctor {
  int extra = 0;
};

#ifdef VALID_ONLY
int copy_through_base_to_derived(int x) {
  BaseFunctor *b = nullptr;
  auto *d = static_cast<DerivedFunctor *>(b);
  DerivedFunctor copy = *d;
  return copy.extra + (*d)(x);
  // CHECK-MESSAGES-VALID: :[[@LINE-1]]:25: warning: call through callable 'd', which is always empty here [wrapguard-unchecked-policy-call]
}
#endif

#ifdef VALID_ONLY
// A callable class moved into itself, then passed on: following a local's
// value back through its assignments came back to the self-move itself,
// without end (a stack overflow, from eventpp's "move assign to self" test).
struct SelfMovable {
  IntFn f;
  int operator()(int x) const { return f(x); }
  explicit operator bool() const { return bool(f); }
};
void verify(SelfMovable &c);
void take(SelfMovable c);
void self_moved() {
  SelfMovable a;
  a = std::move(a);
  verify(a);
  take(a);
}
#endif
