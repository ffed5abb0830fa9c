//===- CallableTypes.h - Which types are nullable callables ----*- C++ -*-===//
//
// A nullable callable is a value that can be called and can also be empty:
// std::function, a function pointer, a smart pointer to a functor, ... This
// file decides, per type, whether and how a type is one.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_CHECKER_CALLABLETYPES_H
#define WRAPGUARD_CHECKER_CALLABLETYPES_H

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"
#include <string>
#include <vector>

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

inline bool isRecordKind(CallableKind K) {
  return K == CallableKind::FunctionObject || K == CallableKind::Optional ||
         K == CallableKind::SmartPointer;
}

class CallableTypes {
public:
  explicit CallableTypes(const std::vector<std::string> &ExtraTypeRegexes);

  /// Classifies T after stripping references and qualifiers.
  CallableKind classify(clang::QualType T) const;
  bool isNullable(clang::QualType T) const {
    return classify(T) != CallableKind::None;
  }

  /// True for a class type that has an operator() (lambdas included).
  static bool hasCallOperator(clang::QualType T);

  /// A class with operator() that also converts to bool or compares with
  /// nullptr: a callable handle that can be empty (packed-function handles,
  /// folly::Function, llvm::unique_function).
  static bool isNullableCallableClass(const clang::CXXRecordDecl &RD);

private:
  bool matchesExtra(const clang::CXXRecordDecl &RD) const;
  std::vector<std::unique_ptr<llvm::Regex>> Extra;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, bool> ClassCache;
};

} // namespace wrapguard

#endif // WRAPGUARD_CHECKER_CALLABLETYPES_H
