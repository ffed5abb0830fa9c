//===- ExitEffects.h - What a method leaves in *this ------------*- C++ -*-===//
//
// A constructor or a method can set a callable field outright, copy a
// parameter into it, normalise a parameter first (`p_ = p; if (!p_) p_ =
// dflt;`), or set it only on some paths. Which one it is comes from the flow
// analysis of its body, read at its exit over every path that returns, never
// from how its statements look: a setter that copies its argument makes the
// field exactly as non-empty as that argument; one that tests first does
// not.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_EXITEFFECTS_H
#define WRAPGUARD_ENGINE_EXITEFFECTS_H

#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "PathQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace wrapguard {

/// What the flow analysis of a constructor's or method's body proves of
/// `*this`'s callable fields at its exit, over every path that returns.
struct ExitEffect {
  /// False when the analysis was skipped or went over budget: nothing is
  /// proved.
  bool Analysed = false;
  /// Non-empty whatever the arguments.
  llvm::SmallPtrSet<const clang::FieldDecl *, 4> Set;
  /// Non-empty exactly when this parameter is (`p_ = p;` and nothing else).
  llvm::DenseMap<const clang::FieldDecl *, unsigned> SameAsParameter;
  /// Empty whatever the arguments (`reset() { fp_ = nullptr; }`).
  llvm::SmallPtrSet<const clang::FieldDecl *, 4> Emptied;
  /// Neither of the above nor as they were at the entry: some paths change
  /// them.
  llvm::SmallPtrSet<const clang::FieldDecl *, 4> Changed;
  /// Non-empty on every path where this bool member is true at the exit
  /// (`sampling_ = true;` and then each branch sets the callable or
  /// aborts).
  llvm::DenseMap<const clang::FieldDecl *, const clang::FieldDecl *>
      SetWhenFlag;
};

/// Runs the model over Def, a constructor or a non-static method with a
/// body, within the budgets, and reads the fields of `*this` at its exit.
ExitEffect exitEffectOf(const clang::FunctionDecl &Def, clang::ASTContext &Ctx,
                        const CallableTypes &Types, CallResultOracle &Oracle,
                        std::int64_t MaxSolverIterations,
                        std::int32_t MaxBlockVisits);

/// The callable fields of `*this` that the state Q describes proves
/// non-empty (at a constructor's or method's exit).
llvm::SmallVector<const clang::FieldDecl *, 2>
fieldsProvenSet(const PathQuery &Q, const CallableTypes &Types);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_EXITEFFECTS_H
