//===- Captures.h - What a lambda's captured callables hold -----*- C++ -*-===//
//
// A lambda that captures a callable and calls it is judged by the captured
// value's state at the capture: the lambda object itself is never empty,
// but that says nothing of what it captured. The model runs over the
// function that makes the lambda, and records, where the lambda is made,
// the state of every callable it captures.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_CAPTURES_H
#define WRAPGUARD_ANALYSIS_CAPTURES_H

#include "AnalysisOptions.h"
#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "Emptiness.h"
#include "PathQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>

namespace wrapguard {

/// A captured callable where the lambda is made (for one captured by
/// reference into a lambda that the function only calls, where it is
/// called).
struct CaptureState {
  /// NonEmpty, MayBeEmpty (tracked), AlwaysEmpty, or Unknown (of unknown
  /// origin there, or the enclosing function could not be analysed).
  Emptiness State = Emptiness::Unknown;
  /// The capture, as written or (implicit) the lambda.
  clang::SourceLocation Loc;
  /// The expression that initialises the capture, in Enclosing's body.
  const clang::Expr *Init = nullptr;
  const clang::FunctionDecl *Enclosing = nullptr;
  /// Captured by reference: read when the lambda runs, not where it is made.
  bool ByRef = false;
};

class Captures {
public:
  Captures(clang::ASTContext &Ctx, const CallableTypes &Types,
           CallResultOracle &Oracle, const AnalysisOptions &Opts)
      : Ctx(Ctx), Types(Types), Oracle(Oracle), Opts(Opts) {}

  /// If CallOp is a lambda's call operator that captures V, V's state where
  /// the lambda is made.
  std::optional<CaptureState> of(const clang::FunctionDecl &CallOp,
                                 const clang::VarDecl &V);

private:
  /// Runs the model once over Enclosing and records every lambda in it.
  void analyse(const clang::FunctionDecl &Enclosing);
  void recordCaptures(const clang::LambdaExpr &L,
                      const clang::FunctionDecl &Def, const PathQuery &Q);

  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  const AnalysisOptions &Opts;
  using PerLambda = llvm::DenseMap<const clang::VarDecl *, CaptureState>;
  llvm::DenseMap<const clang::CXXRecordDecl *, PerLambda> States;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Analysed;
  /// While one function is analysed: per init-capture initializer, its
  /// source's state before it.
  llvm::DenseMap<const clang::Expr *, Emptiness> InitStates;
  /// The parent map of each enclosing function's body, made when a
  /// reference capture asks whether the function writes the variable.
  clang::ParentMap &parentsOf(const clang::FunctionDecl &Def);
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<clang::ParentMap>>
      Parents;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_CAPTURES_H
