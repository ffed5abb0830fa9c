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
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"
#include <memory>
#include <string>
#include <vector>

namespace wrapguard {

/// Regexes that must match a declaration's whole qualified name, written
/// with a leading "::" ("::llvm::unique_function" does not match
/// "::llvm::unique_function_ref"). Patterns that do not compile are dropped
/// (the check reports them as configuration errors).
class QualifiedNameMatcher {
public:
  explicit QualifiedNameMatcher(const std::vector<std::string> &Patterns);
  bool empty() const { return Res.empty(); }
  bool matches(const clang::NamedDecl &D) const;

private:
  std::vector<std::unique_ptr<llvm::Regex>> Res;
};

class CallableTypes {
public:
  explicit CallableTypes(const std::vector<std::string> &ExtraTypeRegexes,
                         const std::vector<std::string> &InvokeMethods = {});

  /// Classifies T after stripping references and qualifiers.
  CallableKind classify(clang::QualType T) const;
  bool isNullable(clang::QualType T) const {
    return classify(T) != CallableKind::None;
  }

  /// True for a class type that has an operator() its users can call
  /// (lambdas included): public, declared in it or inherited through public
  /// bases.
  static bool hasCallOperator(clang::QualType T);

  /// A class with operator() that also converts to bool or compares with
  /// nullptr: a callable handle that can be empty (packed-function handles,
  /// folly::Function, llvm::unique_function), unless its operator() shows
  /// that calling an empty one cannot fail (EmptyObjectCalls.h).
  static bool isNullableCallableClass(const clang::CXXRecordDecl &RD);

  /// A method of a nullable-callable class that invokes the callable by
  /// name (`pf.CallPacked(args)`): named by InvokeMethods, or one whose body
  /// calls the object's own callable (`(*this)(..)`, `body_(..)`) without
  /// testing it first.
  bool isInvokeMethod(const clang::CXXMethodDecl &M) const;

private:
  QualifiedNameMatcher Extra;
  QualifiedNameMatcher Invoke;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, bool> ClassCache;
  mutable llvm::DenseMap<const clang::CXXMethodDecl *, bool> InvokeCache;
};

/// The name of the record T (or T refers to) when it is declared in
/// namespace std (libc++'s std::__1 included): "vector", "shared_ptr";
/// "" for any other type.
llvm::StringRef stdRecordName(clang::QualType T);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CALLABLETYPES_H
