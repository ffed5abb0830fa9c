//===- FlagParameters.h - What a point requires of the flags ----*- C++ -*-===//
//
// The engine's side of FlagValues (vocab/FlagValues.h): which values of a
// function's boolean parameters every path to a program point requires, read
// off the flow condition, and which values a call's literal arguments give
// them.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_FLAGPARAMETERS_H
#define WRAPGUARD_ENGINE_FLAGPARAMETERS_H

#include "FlagValues.h"
#include "PathQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace wrapguard {

class FlagParameters {
public:
  /// Owner's boolean parameters that its body only reads: a requirement on
  /// one that is assigned would speak of its new value, not of what the
  /// call passed.
  explicit FlagParameters(const clang::FunctionDecl &Owner);

  bool empty() const { return Kept.empty(); }
  /// The values every path to Q's point requires of them (each one a
  /// solver question, so only asked where a use is undecided).
  FlagValues requiredAt(const PathQuery &Q) const;

private:
  llvm::SmallVector<std::pair<unsigned, const clang::ParmVarDecl *>, 4> Kept;
};

/// The values a call's constant arguments (`blit(.., false)`, a default
/// argument) give Callee's boolean parameters.
FlagValues literalFlags(const clang::FunctionDecl &Callee,
                        llvm::ArrayRef<const clang::Expr *> Args,
                        const clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_FLAGPARAMETERS_H
