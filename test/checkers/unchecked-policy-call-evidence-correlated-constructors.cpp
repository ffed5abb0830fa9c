// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// Correlated slots, decided by the constructors of a class that the
// project never constructs (a library scanned alone). mfem's
// FunctionCoefficient has one constructor per kind of function, each
// setting its own slot from its parameter and leaving the other empty, and
// evaluates `if (Function) return Function(x); else return TDFunction(x,
// t);`. The `else` meets only objects whose constructor left `Function`
// empty, so not one made by the constructor that sets it: the one that
// leaves `TDFunction` empty is no evidence there. A constructor that sets
// neither, a call that does not test the sibling, and a sibling that a
// setter assigns after construction keep the finding; StrictMode reports
// the correlated calls too.

#include <functional>
#include <utility>

struct Vector {};
using SpaceFn = std::function<double(const Vector &)>;
using TimeFn = std::function<double(const Vector &, double)>;

class FunctionCoefficient {
  SpaceFn Function;
  TimeFn TDFunction;
  double time = 0;

public:
  explicit FunctionCoefficient(SpaceFn F) : Function(std::move(F)) {}
  explicit FunctionCoefficient(TimeFn TDF) : TDFunction(std::move(TDF)) {}
  double Eval(const Vector &x) {
    if (Function)
      return Function(x);
    else
      return TDFunction(x, time); // no-warning in the default mode
      // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-2]]:14: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
      // CHECK-NOTES-STRICT: :[[@LINE-3]]:14: note: 'FunctionCoefficient::TDFunction' is not set by the constructor 'FunctionCoefficient(SpaceFn)' ({{.*}}.cpp:[[@LINE-9]])
  }
  double EvalEarly(const Vector &x) {
    if (TDFunction)
      return TDFunction(x, time);
    return Function(x); // no-warning in the default mode
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:12: warning: call through possibly empty callable 'Function' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:12: note: check that 'Function' is not empty before this call, e.g. 'if (Function)'
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:12: note: 'FunctionCoefficient::Function' is not set by the constructor 'FunctionCoefficient(TimeFn)' ({{.*}}.cpp:[[@LINE-16]])
  }
  double EvalUnchecked(const Vector &x) { return TDFunction(x, time); }
  // CHECK-NOTES: :[[@LINE-1]]:50: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:50: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
  // CHECK-NOTES: :[[@LINE-3]]:50: note: 'FunctionCoefficient::TDFunction' is not set by the constructor 'FunctionCoefficient(SpaceFn)' ({{.*}}.cpp:[[@LINE-22]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:50: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:50: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:50: note: 'FunctionCoefficient::TDFunction' is not set by the constructor 'FunctionCoefficient(SpaceFn)' ({{.*}}.cpp:[[@LINE-25]])
};

class Blank {
  SpaceFn Function;
  TimeFn TDFunction;

public:
  explicit Blank(SpaceFn F) : Function(std::move(F)) {}
  explicit Blank(TimeFn TDF) : TDFunction(std::move(TDF)) {}
  Blank() = default;
  double Eval(const Vector &x) {
    if (Function)
      return Function(x);
    return TDFunction(x, 0);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
    // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Blank::TDFunction' is not set by the constructor 'Blank()' ({{.*}}.cpp:[[@LINE-7]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:12: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: note: 'Blank::TDFunction' is not set by the constructor 'Blank()' ({{.*}}.cpp:[[@LINE-10]])
  }
};

class Settable {
  SpaceFn Function;
  TimeFn TDFunction;

public:
  explicit Settable(SpaceFn F) : Function(std::move(F)) {}
  explicit Settable(TimeFn TDF) : TDFunction(std::move(TDF)) {}
  void SetFunction(SpaceFn F) { Function = std::move(F); }
  double Eval(const Vector &x) {
    if (Function)
      return Function(x);
    return TDFunction(x, 0);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
    // CHECK-NOTES: :[[@LINE-3]]:12: note: 'Settable::TDFunction' is not set by the constructor 'Settable(SpaceFn)' ({{.*}}.cpp:[[@LINE-9]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:12: warning: call through possibly empty callable 'TDFunction' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:12: note: check that 'TDFunction' is not empty before this call, e.g. 'if (TDFunction)'
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: note: 'Settable::TDFunction' is not set by the constructor 'Settable(SpaceFn)' ({{.*}}.cpp:[[@LINE-12]])
  }
};
