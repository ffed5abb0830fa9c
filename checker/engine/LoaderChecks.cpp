//===- LoaderChecks.cpp - Run-time loads tested through dlerror -----------===//

#include "LoaderChecks.h"
#include "CallableSyntax.h"
#include "StripNoise.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace wrapguard {
namespace {

/// Whether FD is the C library's `dlerror`.
bool isDlerror(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == "dlerror" &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

bool callsDlerror(const Expr *E) {
  const auto *Call =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Call && isDlerror(Call->getDirectCallee());
}

/// The loader call a stored value is, through its casts; null otherwise.
const CallExpr *loaderIn(const Expr *V, CheckedLoads::IsLoaderFn IsLoader) {
  const auto *Call = dyn_cast_or_null<CallExpr>(stripCasts(V));
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && IsLoader(*FD) ? Call : nullptr;
}

/// The loader call that statement S stores: `x = (T)dlsym(..);` or a
/// declaration `T x = (T)dlsym(..);`; with where it stores it (the
/// assignment's left side; null for a declaration, whose variable Var is).
const CallExpr *storedLoad(const Stmt *S, CheckedLoads::IsLoaderFn IsLoader,
                           const Expr *&Into, const VarDecl *&Var) {
  Into = nullptr;
  Var = nullptr;
  if (const auto *E = dyn_cast<Expr>(S)) {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!BO || BO->getOpcode() != BO_Assign)
      return nullptr;
    Into = BO->getLHS();
    return loaderIn(BO->getRHS(), IsLoader);
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
    if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl())) {
      Var = V;
      return loaderIn(V->getInit(), IsLoader);
    }
  return nullptr;
}

/// Whether Cond is true exactly when what the load was stored into is null:
/// `!fn`, `fn == nullptr`, `NULL == api.init`, on the same storage.
bool testsStoredNull(const Expr *Cond, const Expr *Into, const VarDecl *Var,
                     ASTContext &Ctx) {
  auto IsStored = [&](const Expr *E) {
    if (Var) {
      const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(E));
      return DRE && DRE->getDecl() == Var;
    }
    return Into && sameStorage(stripNoise(E), stripNoise(Into));
  };
  const Expr *C = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(C);
      UO && UO->getOpcode() == UO_LNot)
    return IsStored(UO->getSubExpr());
  std::optional<NullComparison> NC = nullComparisonOf(*C, Ctx);
  return NC && NC->IsEq && IsStored(NC->Operand);
}

/// Whether S leaves its block on every path: `return`, `throw`, `break`,
/// `continue`, `goto`, or a block that ends in one.
bool leaves(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    return isa<CXXThrowExpr>(E->IgnoreParenImpCasts());
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && leaves(CS->body_back());
  return false;
}

/// Whether Cond is true exactly when the error is non-null: the result of
/// `dlerror()`, called there or kept in the local Err (may be null): `err`,
/// `err != nullptr`, `NULL != err`, `dlerror() != NULL`, and the C idiom
/// that keeps it as it tests it, `(err = dlerror()) != NULL` (fltk's
/// `GET_SYM`).
bool testsError(const Expr *Cond, const VarDecl *Err, ASTContext &Ctx) {
  auto IsErr = [&](const Expr *E) {
    E = stripNoise(E);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
      return Err && DRE->getDecl() == Err;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Assign)
      return callsDlerror(BO->getRHS());
    return callsDlerror(E);
  };
  auto IsNull = [&](const Expr *E) {
    return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
  };
  const Expr *C = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && BO->getOpcode() == BO_NE)
    return (IsErr(BO->getLHS()) && IsNull(BO->getRHS())) ||
           (IsErr(BO->getRHS()) && IsNull(BO->getLHS()));
  return IsErr(C);
}

/// Every block of a body, for the loads each checks.
class Blocks : public RecursiveASTVisitor<Blocks> {
public:
  Blocks(CheckedLoads::IsLoaderFn IsLoader, ASTContext &Ctx,
         llvm::DenseSet<const CallExpr *> &Out)
      : IsLoader(IsLoader), Ctx(Ctx), Out(Out) {}

  bool VisitCompoundStmt(CompoundStmt *CS) {
    auto Body = CS->body();
    for (auto It = Body.begin(), End = Body.end(); It != End; ++It) {
      const Expr *Into;
      const VarDecl *Var;
      const CallExpr *Load = storedLoad(*It, IsLoader, Into, Var);
      if (!Load)
        continue;
      auto Next = std::next(It);
      // `char *err = dlerror();`
      const VarDecl *Err = nullptr;
      if (Next != End)
        if (const auto *DS = dyn_cast<DeclStmt>(*Next);
            DS && DS->isSingleDecl())
          if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
              V && callsDlerror(V->getInit())) {
            Err = V;
            ++Next;
          }
      const auto *If = Next != End ? dyn_cast<IfStmt>(*Next) : nullptr;
      // Or the stored pointer itself, right after the store (simbody's
      // `cfsqp_fptr = (F)GetProcAddress(h, "cfsqp"); if (!cfsqp_fptr)
      // SimTK_THROW1(..);`): the same test in another spelling.
      if (If && If->getCond() && !If->getElse() && leaves(If->getThen()) &&
          (testsError(If->getCond(), Err, Ctx) ||
           (!Err && testsStoredNull(If->getCond(), Into, Var, Ctx))))
        Out.insert(Load);
    }
    return true;
  }
  // A lambda's body is a function of its own.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  CheckedLoads::IsLoaderFn IsLoader;
  ASTContext &Ctx;
  llvm::DenseSet<const CallExpr *> &Out;
};

} // namespace

bool CheckedLoads::tested(const CallExpr &Load, const FunctionDecl &Owner,
                          IsLoaderFn IsLoader) {
  auto [It, New] = ByFunction.try_emplace(&Owner);
  if (New && Owner.getBody()) {
    Blocks B(IsLoader, Owner.getASTContext(), It->second);
    B.TraverseStmt(Owner.getBody());
  }
  return It->second.count(&Load);
}

} // namespace wrapguard
