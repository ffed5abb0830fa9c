//===- CallSite.h - A call through a nullable callable ----------*- C++ -*-===//
//
// The kinds of nullable callable, and one call through one. The engine
// classifies types into CallableKind; the analysis finds CallSites and
// repairs them. Only declarations of Clang's AST classes are needed here.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_VOCAB_CALLSITE_H
#define WRAPGUARD_VOCAB_CALLSITE_H

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class CallExpr;
class Expr;
} // namespace clang

namespace wrapguard {

enum class CallableKind {
  None,
  /// std::function, std::move_only_function, or a user type named by
  /// NullableCallableTypes: a record with operator bool and operator().
  FunctionObject,
  /// std::optional of a callable; called as (*o)(...) or o->operator()(...).
  Optional,
  /// std::shared_ptr / std::unique_ptr to a class with operator().
  SmartPointer,
  /// A raw pointer to a class with operator().
  RawPointer,
  FunctionPointer,
  MemberFunctionPointer,
};

/// Whether the kind's state lives in a record (synthetic fields) rather than
/// in a pointer value.
inline bool isRecordKind(CallableKind K) {
  return K == CallableKind::FunctionObject || K == CallableKind::Optional ||
         K == CallableKind::SmartPointer;
}

/// A call through a nullable callable.
struct CallSite {
  const clang::CallExpr *Call = nullptr;
  /// The expression that denotes the callable object, as written (`f` in
  /// `f(m)`, `p` in `(*p)(m)`, `pm` in `(obj.*pm)(m)`).
  const clang::Expr *Callable = nullptr;
  CallableKind Kind = CallableKind::None;
  /// The call's own arguments, without the callable object.
  llvm::ArrayRef<const clang::Expr *> Args;
  /// True when the call is spelled `callable(args)` with nothing around the
  /// callable (no `*`, `->operator()` or `.*`).
  bool Direct = false;
};

} // namespace wrapguard

#endif // WRAPGUARD_VOCAB_CALLSITE_H
