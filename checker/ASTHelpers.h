//===- ASTHelpers.h - AST queries shared by the model and the check -*- C++
//-*-===//
//
// Small questions about expressions that the dataflow model, the summaries,
// the facts collector and the diagnoser all ask. They depend on the AST only,
// not on the dataflow framework, so they live apart from the model.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_CHECKER_ASTHELPERS_H
#define WRAPGUARD_CHECKER_ASTHELPERS_H

#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>

namespace wrapguard {

/// Strips what never changes which object an expression denotes: parens,
/// implicit casts, temporaries and full-expression cleanups.
const clang::Expr *stripNoise(const clang::Expr *E);

/// `nullptr`, `NULL`, `0`, `std::nullopt`: a literal empty value.
bool isNullLiteral(const clang::Expr *E, clang::ASTContext &Ctx);

/// For `std::move(x)`, the expression x; else null.
const clang::Expr *movedFromObject(const clang::Expr *Arg);

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

#endif // WRAPGUARD_CHECKER_ASTHELPERS_H
