//===- ComparisonHelpers.h - Calls whose result is a comparison -*- C++ -*-===//
//
// Check macros that compare two values do the comparison in a helper, not in
// the code that uses them. glog's `CHECK_EQ(m.count(k), 1)` (and the same
// shape in absl, Chromium and their copies) expands to
//
//   while (CheckOpString r = Check_EQImpl(GetReferenceableValue(m.count(k)),
//                                         GetReferenceableValue(1), "..."))
//     LogMessageFatal(__FILE__, __LINE__, r).stream();
//
// where `Check_EQImpl` returns null when `v1 == v2` and a message otherwise,
// and the loop's body never returns. Past the statement the comparison
// holds, so `m[k]` finds the key; without this, caffe's registries were
// findings behind their own CHECK_EQ.
//
// What this file reads from the helpers' visible bodies, never from their
// names:
//  - a forwarder hands back its one argument (`return t;`);
//  - a comparison helper returns a null pointer exactly when two of its
//    parameters compare (`if (v1 == v2) return NULL; else return msg;`,
//    `__builtin_expect` around the test, or a call of another such helper
//    with its parameters);
//  - a truth wrapper is a class built from a pointer whose `operator bool`
//    says that the pointer is not null (glog's CheckOpString).
// The transfer function evaluates the comparison on the caller's arguments
// where the helper's result is tested.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_COMPARISONHELPERS_H
#define WRAPGUARD_ENGINE_COMPARISONHELPERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/OperationKinds.h"
#include <optional>

namespace wrapguard {

/// E with calls of forwarders (functions whose body is `return p;` for their
/// only parameter p) and implicit conversions taken off.
const clang::Expr &forwardedValue(const clang::Expr &E);

/// What a comparison helper's result says: it is a null pointer exactly when
/// `LHS Op RHS` holds (NullWhenTrue) or exactly when it does not.
struct ComparisonResult {
  unsigned LHS = 0, RHS = 0; ///< Indexes of the compared parameters.
  clang::BinaryOperatorKind Op = clang::BO_EQ;
  bool NullWhenTrue = true;
};

/// F's summary, when F returns a pointer and its visible body is a comparison
/// helper's; the branch that does not return null must return something
/// other than a null literal.
std::optional<ComparisonResult> comparisonHelper(const clang::FunctionDecl &F);

/// The expression whose pointer value a variable of a truth-wrapper class
/// was built from, when Conv (the conversion to bool called on V) says that
/// this pointer is not null; else null. V must be initialised by a
/// constructor that stores its pointer parameter in the field Conv tests.
const clang::Expr *wrappedPointer(const clang::VarDecl &V,
                                  const clang::CXXConversionDecl &Conv);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_COMPARISONHELPERS_H
