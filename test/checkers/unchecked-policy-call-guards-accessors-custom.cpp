// RUN: %check_wrapguard %s %t \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.NullableCallableTypes: '::lib::FunctionRef$'}}"

// A nullable callable's own `operator bool` is the test of the callable,
// even where its body is an accessor's (`return callback;`, as in
// llvm::function_ref): `if (f) f(x);` stays guarded, and the field behind
// it is no other callable to check.

namespace lib {
class FunctionRef {
public:
  FunctionRef() = default;
  FunctionRef(int (*fn)(int)) : callback(fn) {}
  int operator()(int x) const { return callback(x); }
  explicit operator bool() const { return callback; }

private:
  int (*callback)(int) = nullptr;
};
} // namespace lib

int run(int x, lib::FunctionRef AtExit = {}) {
  if (AtExit)
    return AtExit(x); // no-warning
  return x;
}
int twice(int y) { return 2 * y; }
int caller() { return run(1) + run(2, &twice); }

// True neighbour: the same call without the test.
int run_always(int x, lib::FunctionRef AtExit = {}) { return AtExit(x); }
// CHECK-MESSAGES: :[[@LINE-1]]:62: warning: call through possibly empty callable 'AtExit' [wrapguard-unchecked-policy-call]
int always_caller() { return run_always(1); }
