//===- ExitsElsewhere.cpp - Functions that may never return, elsewhere ----===//

#include "ExitsElsewhere.h"
#include "NeverReturns.h"
#include "SourceKeys.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wrapguard {

bool mayBeDefinedElsewhere(const FunctionDecl &FD, const SourceManager &SM) {
  const FunctionDecl *Def = nullptr;
  if (FD.hasBody(Def) || FD.isNoReturn() || FD.getBuiltinID() ||
      !FD.getReturnType()->isVoidType() || !FD.isExternallyVisible() ||
      SM.isInSystemHeader(FD.getLocation()))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD); MD && MD->isVirtual())
    return false;
  return functionKey(FD).has_value();
}

namespace {
class CalleeFinder : public RecursiveASTVisitor<CalleeFinder> {
public:
  CalleeFinder(const SourceManager &SM, unsigned Max) : SM(SM), Max(Max) {}
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (F && mayBeDefinedElsewhere(*F, SM) &&
        !llvm::is_contained(Found, F->getCanonicalDecl()))
      Found.push_back(F->getCanonicalDecl());
    return Found.size() < Max;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  llvm::SmallVector<const FunctionDecl *, 4> Found;

private:
  const SourceManager &SM;
  unsigned Max;
};
} // namespace

llvm::SmallVector<const FunctionDecl *, 4>
calledDefinedElsewhere(const FunctionDecl &FD, const SourceManager &SM,
                       unsigned Max) {
  CalleeFinder Finder(SM, Max);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit())
        Finder.TraverseStmt(Init->getInit());
  Finder.TraverseStmt(FD.getBody());
  return std::move(Finder.Found);
}

namespace {
class ReturnFinder : public RecursiveASTVisitor<ReturnFinder> {
public:
  bool VisitReturnStmt(ReturnStmt *) {
    Found = true;
    return false;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool Found = false;
};
} // namespace

bool mayNeverReturn(const FunctionDecl &Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def.getBody());
  if (!Body || Body->body_empty())
    return false;
  // Only a call, a throw or a statement with paths of its own can end the
  // last path; `x = 1;` or a declaration falls through to the return.
  const Stmt *Last = Body->body_back();
  if (const auto *E = dyn_cast<Expr>(Last)) {
    const Expr *X = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(X))
      X = Cleanups->getSubExpr()->IgnoreParenImpCasts();
    if (!isa<CallExpr, CXXThrowExpr, CXXConstructExpr, ConditionalOperator,
             BinaryOperator>(X))
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && !BO->isLogicalOp())
      return false;
  } else if (isa<DeclStmt, NullStmt>(Last)) {
    return false;
  }
  ReturnFinder Returns;
  Returns.TraverseStmt(const_cast<CompoundStmt *>(Body));
  return !Returns.Found;
}

std::vector<std::string> neverReturnsIf(const FunctionDecl &Def,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A fresh instance per question, so that what it assumed answers this
  // question alone.
  NeverReturns Assuming(Ctx, [&SM](const FunctionDecl &F) {
    return mayBeDefinedElsewhere(F, SM);
  });
  std::vector<std::string> Keys;
  if (!Assuming(Def) || Assuming.Assumed.empty())
    return Keys;
  for (const FunctionDecl *F : Assuming.Assumed)
    if (std::optional<std::string> K = functionKey(*F))
      Keys.push_back(*K);
  llvm::sort(Keys);
  return Keys;
}

std::optional<unsigned> truthParameter(const FunctionDecl &FD) {
  std::optional<unsigned> Integer;
  for (unsigned I = 0; I < FD.getNumParams(); ++I) {
    QualType T = FD.getParamDecl(I)->getType();
    if (T->isBooleanType())
      return I;
    // A character or an enumerator is no truth value.
    if (!Integer && T->isIntegerType() && !T->isAnyCharacterType() &&
        !T->isEnumeralType())
      Integer = I;
  }
  return Integer;
}

AssumedExits::AssumedExits(CallResultOracle &Inner,
                           llvm::ArrayRef<const FunctionDecl *> Exits,
                           llvm::ArrayRef<AssertionHypothesis> Assertions)
    : ForwardingOracle(Inner) {
  for (const FunctionDecl *F : Exits)
    this->Exits.insert(F->getCanonicalDecl());
  for (const auto &[F, I] : Assertions)
    this->Assertions[F->getCanonicalDecl()] = I;
}

std::optional<unsigned> AssumedExits::returnsOnlyIf(const FunctionDecl &FD) {
  if (auto It = Assertions.find(FD.getCanonicalDecl()); It != Assertions.end())
    return It->second;
  return Inner.returnsOnlyIf(FD);
}

bool AssumedExits::endsPath(const CFGElement &Elt) {
  if (Inner.endsPath(Elt))
    return true;
  auto S = Elt.getAs<CFGStmt>();
  const auto *Call = S ? dyn_cast<CallExpr>(S->getStmt()) : nullptr;
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return F && Exits.count(F->getCanonicalDecl());
}

} // namespace wrapguard
