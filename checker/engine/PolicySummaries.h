//===- PolicySummaries.h - What a call returning a callable yields C++ -*-===//
//
// Classifies calls whose result is a nullable callable. A visible,
// non-virtual definition is summarised once per TU by running the dataflow
// model over it and folding the states at its returns; without one, the
// callee's annotations and name decide.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_POLICYSUMMARIES_H
#define WRAPGUARD_ENGINE_POLICYSUMMARIES_H

#include "AnalysisOptions.h"
#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "ExitEffects.h"
#include "HandleConstructors.h"
#include "LoaderChecks.h"
#include "NeverReturns.h"
#include "PathQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Regex.h"
#include <optional>

namespace wrapguard {

class PolicySummaries : public CallResultOracle {
public:
  PolicySummaries(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
                  const CallableTypes &Types);

  Emptiness classifyCallResult(const clang::CallExpr &Call) override;
  bool endsPath(const clang::CFGElement &Elt) override {
    return NoReturn.stopsAt(Elt) != nullptr;
  }
  std::optional<unsigned>
  returnsOnlyIf(const clang::FunctionDecl &FD) override {
    return NoReturn.returnsOnlyIf(FD);
  }
  Emptiness afterConstruction(const clang::CXXConstructExpr &CE) override {
    return Handles.afterConstruction(CE);
  }
  const MethodEffect *methodEffect(const clang::CXXMethodDecl &Method) override;
  const MethodEffect *
  constructorEffect(const clang::CXXConstructorDecl &Ctor) override;
  std::optional<AccessorTest>
  accessorTest(const clang::CXXMethodDecl &Method) override;
  const clang::VarDecl *storageReturned(const clang::FunctionDecl &FD) override;
  FieldPath fieldReturned(const clang::CXXMethodDecl &Method) override;
  bool isPure(const clang::FunctionDecl &FD) override;
  bool isLoader(const clang::FunctionDecl &FD) override;
  bool isPointerAccessor(const clang::CXXMethodDecl &Method) override;
  /// The pointer member of `*this` that Method returns (directly, through
  /// `*`, or through another such accessor) while writing nothing of
  /// `*this`; null if none.
  const clang::FieldDecl *
  pointerAccessorField(const clang::CXXMethodDecl &Method);
  bool loadTested(const clang::CallExpr &Load,
                  const clang::FunctionDecl &Owner) override {
    return Loads.tested(Load, Owner, [this](const clang::FunctionDecl &FD) {
      return isLoader(FD);
    });
  }
  /// Whether no call of FD returns (see NeverReturns.h).
  bool neverReturns(const clang::FunctionDecl &FD) { return NoReturn(FD); }
  /// Whether every call of FD ends the process (see NeverReturns.h).
  bool endsProcess(const clang::FunctionDecl &FD) {
    return NoReturn.endsProcess(FD);
  }
  /// The parameter FD ends the process unless it is true (NeverReturns.h).
  std::optional<unsigned> endsProcessUnless(const clang::FunctionDecl &FD) {
    return NoReturn.returnsOnlyIf(FD, /*Process=*/true);
  }

  /// Summary of a definition's returns; Unknown when not every return is
  /// understood or the analysis went over budget. EmptyAt, when given,
  /// receives a return that may yield an empty callable.
  Emptiness summarize(const clang::FunctionDecl &Def,
                      clang::SourceLocation *EmptyAt = nullptr);

  /// The name a reader knows the callee by: the function's name, or for a
  /// call through a callable object, the object's name ("" when none).
  static std::string calleeName(const clang::CallExpr &Call);

  bool matchesPolicyName(llvm::StringRef Name) const;

private:
  bool holdsCallableField(clang::QualType T) const;
  /// What Method (a method or a constructor), whose definition is Body,
  /// leaves in the callable fields of its object at its exit, cached.
  const MethodEffect *effectAtExit(const clang::CXXMethodDecl &Method,
                                   const clang::FunctionDecl &Body);
  /// A source when the callee's name matches PolicyNames, else unknown.
  Emptiness byName(const clang::CallExpr &Call);
  /// For a callee with a declaration of its own: unknown when the project's
  /// facts decide (the analysis defers to them), else byName.
  Emptiness deferOrByName(const clang::CallExpr &Call);

  clang::ASTContext &Ctx;
  const AnalysisOptions &Opts;
  const CallableTypes &Types;
  NeverReturns NoReturn;
  CheckedLoads Loads;
  HandleConstructors Handles;
  llvm::Regex PolicyRe;
  QualifiedNameMatcher Lookups;
  struct Summary {
    Emptiness Result;
    clang::SourceLocation EmptyAt;
  };
  llvm::DenseMap<const clang::FunctionDecl *, Summary> Cache;
  /// Per method definition; none where nothing is proved.
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<MethodEffect>>
      Effects;
  llvm::DenseMap<const clang::FunctionDecl *, const clang::VarDecl *> Returned;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Pure;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Loaders;
  /// The pointer member each accessor returns; null for a method that is
  /// none (or whose body is being read).
  llvm::DenseMap<const clang::FunctionDecl *, const clang::FieldDecl *>
      PointerAccessors;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
  /// Set when a summary in progress met the depth bound or a recursion.
  bool Truncated = false;
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_POLICYSUMMARIES_H
