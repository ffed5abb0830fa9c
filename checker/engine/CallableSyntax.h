//===- CallableSyntax.h - What the syntax says about callables --*- C++ -*-===//
//
// What an expression says about a callable as written, asked alike by the
// dataflow model, the summaries, the facts collector and the diagnoser: is
// the value empty as written, is it moved from, is a call a standard
// function, is it a subscript of a map of callables. They depend on the AST
// only, not on the dataflow framework, so they live apart from the model.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CALLABLESYNTAX_H
#define WRAPGUARD_ENGINE_CALLABLESYNTAX_H

#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>

namespace wrapguard {

/// Whether a value is empty as written: `nullptr`, `{}`, `Fn()`,
/// `Fn(nullptr)`, `std::nullopt`, a value-initialised pointer. This is the
/// one emptiness test on syntax that the model's transfer, the facts
/// collector and the notes share; isNullLiteral below is its base case.
bool isEmptyValue(const clang::Expr *E, clang::ASTContext &Ctx);

/// `nullptr`, `NULL`, `0`, `std::nullopt`: the null token itself. Used where
/// only a literal fits, as the other operand of `f == nullptr`, and where an
/// empty *callable* must not be mistaken for an empty *optional*
/// (`std::optional<Fn>(Fn())` holds a value).
bool isNullLiteral(const clang::Expr *E, clang::ASTContext &Ctx);

/// The operands of `a == b` or `a != b` as written, the built-in comparison
/// or an overloaded one (a std::function's, a smart pointer's), and whether
/// it is `==`.
struct Equality {
  const clang::Expr *LHS;
  const clang::Expr *RHS;
  bool IsEq;
};
std::optional<Equality> equalityOf(const clang::Expr &E);

/// For a comparison of a value with a null literal either way round
/// (`f == nullptr`, `NULL != p`, `o == std::nullopt`): the value compared,
/// and whether the comparison is `==`. Every test that reads a value's
/// emptiness from a comparison (the guards, the accessors' tests, the
/// object-state test) splits it here, so they agree on what a null test is.
struct NullComparison {
  const clang::Expr *Operand;
  bool IsEq;
};
std::optional<NullComparison> nullComparisonOf(const clang::Expr &E,
                                               clang::ASTContext &Ctx);

/// For `std::move(x)`, the expression x; else null.
const clang::Expr *movedFromObject(const clang::Expr *Arg);

/// The two sides of `a = b` as written: the built-in assignment, or a call
/// of a class's `operator=` (a std::function's, a smart pointer's).
struct Assignment {
  const clang::Expr *LHS;
  const clang::Expr *RHS;
};
/// S's sides when S itself is an assignment (the caller strips what wraps
/// it); nullopt otherwise, or for a null S.
std::optional<Assignment> assignmentOf(const clang::Stmt *S);

/// Whether A and B name the same variable or the same member of it
/// (`cfg.f`, `this->f`, `p->f`, `d->ops.f`), as written.
bool sameStorage(const clang::Expr *A, const clang::Expr *B);

/// Whether FD is the function std::NAME (libc++'s std::__1 included).
bool isStdFunction(const clang::FunctionDecl *FD, llvm::StringRef Name);

/// std::map or std::unordered_map whose mapped type is a nullable callable.
bool isCallableMap(clang::QualType T, const CallableTypes &Types);

/// For `m[k]` on a std::map or std::unordered_map whose mapped type is a
/// nullable callable, the map expression m; else null. `operator[]` inserts
/// an empty callable when the key is missing.
const clang::Expr *callableMapSubscript(const clang::CallExpr &C,
                                        const CallableTypes &Types);

/// The mapped type of the map that M denotes, as the user spelled it.
std::string mappedTypeName(const clang::Expr &M, clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CALLABLESYNTAX_H
