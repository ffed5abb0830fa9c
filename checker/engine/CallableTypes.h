//===- CallableTypes.h - Which types are nullable callables ----*- C++ -*-===//
//
// A nullable callable is a value that can be called and can also be empty:
// std::function, a function pointer, a smart pointer to a functor, ... This
// file decides, per type, whether and how a type is one.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CALLABLETYPES_H
#define WRAPGUARD_ENGINE_CALLABLETYPES_H

#include "CallSite.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"
#include <string>
#include <vector>

namespace wrapguard {

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

#endif // WRAPGUARD_ENGINE_CALLABLETYPES_H
