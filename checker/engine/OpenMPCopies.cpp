//===- OpenMPCopies.cpp - OpenMP's private copies of callables ------------===//

#include "OpenMPCopies.h"
#include "Wording.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace wrapguard {

/// A deferred task's body may run at any point up to the next
/// synchronisation, so what the code after it does to a shared variable may
/// come first.
static bool isDeferred(const OMPExecutableDirective &D) {
  OpenMPDirectiveKind K = D.getDirectiveKind();
  return isOpenMPTaskingDirective(K) || (isOpenMPTargetExecutionDirective(K) &&
                                         D.hasClausesOfKind<OMPNowaitClause>());
}

/// One walk over a function body that records its regions' copies and the
/// references that name them.
class OpenMPWalker {
public:
  OpenMPWalker(OpenMPCopies &Out, const CallableTypes &Types)
      : Out(Out), Types(Types) {}

  void walk(const Stmt *S);

private:
  /// A directive's region while the walk is inside it.
  struct Scope {
    OpenMPCopies::Region *R; // null when its clauses copy no callable
    bool Deferred;
    /// Variables declared in the region: private to it by scope.
    llvm::SmallPtrSet<const VarDecl *, 4> Declared;
  };

  void directive(const OMPExecutableDirective &D);
  void clause(const OMPClause &C, OpenMPCopies::Region &R);
  void addCopy(const Expr *Ref, OpenMPCopies::Region &R, bool FromOriginal,
               bool CopiesBack);
  void reference(const DeclRefExpr &E);
  const OpenMPCopies::Copy *enclosingCopy(const VarDecl &V) const;
  const OpenMPCopies::Region *innermost() const;
  void unsupported(llvm::StringRef Why) {
    if (Out.Unsupported.empty())
      Out.Unsupported = Why;
  }
  /// Whether C is a ClauseT over a callable.
  template <class ClauseT> bool reduces(const OMPClause &C) const {
    const auto *R = dyn_cast<ClauseT>(&C);
    return R && llvm::any_of(R->varlists(), [&](const Expr *Ref) {
             return callableVar(Ref) != nullptr;
           });
  }
  const VarDecl *callableVar(const Expr *Ref) const {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Ref->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && Types.isNullable(V->getType()) ? V : nullptr;
  }

  OpenMPCopies &Out;
  const CallableTypes &Types;
  llvm::SmallVector<Scope, 4> Stack;
};

void OpenMPWalker::walk(const Stmt *S) {
  if (!S)
    return;
  if (const OpenMPCopies::Region *R = innermost())
    Out.InRegion[S] = R;
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S))
    return directive(*D);
  // A lambda's body is analysed as its own function; its captures are
  // evaluated here.
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : L->capture_inits())
      walk(Init);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (!Stack.empty())
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Stack.back().Declared.insert(V);
  } else if (const auto *E = dyn_cast<DeclRefExpr>(S)) {
    reference(*E);
  }
  for (const Stmt *Child : S->children())
    walk(Child);
}

void OpenMPWalker::directive(const OMPExecutableDirective &D) {
  Out.Regions.emplace_back();
  OpenMPCopies::Region &R = Out.Regions.back();
  R.Directive = &D;
  R.Outer = innermost();
  for (const OMPClause *C : D.clauses())
    if (C)
      clause(*C, R);
  OpenMPCopies::Region *Opened = &R;
  if (R.Copies.empty()) {
    Out.Regions.pop_back();
    Opened = nullptr;
  } else {
    Out.Opened[&D] = Opened;
  }
  Stack.push_back({Opened, isDeferred(D), {}});
  // The CFG lays out the raw statement, the captured statements peeled off.
  if (D.hasAssociatedStmt())
    walk(D.getRawStmt());
  Stack.pop_back();
}

void OpenMPWalker::clause(const OMPClause &C, OpenMPCopies::Region &R) {
  if (const auto *P = dyn_cast<OMPPrivateClause>(&C))
    for (const Expr *Ref : P->varlists())
      addCopy(Ref, R, /*FromOriginal=*/false, /*CopiesBack=*/false);
  else if (const auto *F = dyn_cast<OMPFirstprivateClause>(&C))
    for (const Expr *Ref : F->varlists())
      addCopy(Ref, R, /*FromOriginal=*/true, /*CopiesBack=*/false);
  else if (const auto *L = dyn_cast<OMPLastprivateClause>(&C))
    for (const Expr *Ref : L->varlists())
      addCopy(Ref, R, /*FromOriginal=*/false, /*CopiesBack=*/true);
  else if (reduces<OMPReductionClause>(C) ||
           reduces<OMPTaskReductionClause>(C) ||
           reduces<OMPInReductionClause>(C))
    unsupported(CallableReductionConstruct);
}

/// `firstprivate(f) lastprivate(f)` is one copy with both properties.
void OpenMPWalker::addCopy(const Expr *Ref, OpenMPCopies::Region &R,
                           bool FromOriginal, bool CopiesBack) {
  const VarDecl *V = callableVar(Ref);
  if (!V)
    return;
  OpenMPCopies::Copy *C = nullptr;
  for (OpenMPCopies::Copy &Existing : R.Copies)
    if (Existing.Var == V)
      C = &Existing;
  if (!C) {
    C = &R.Copies.emplace_back();
    C->Var = V;
    C->In = &R;
    C->Outer = enclosingCopy(*V);
    C->ClauseLoc = Ref->getExprLoc().isValid() ? Ref->getExprLoc()
                                               : R.Directive->getBeginLoc();
  }
  C->FromOriginal |= FromOriginal;
  C->CopiesBack |= CopiesBack;
}

void OpenMPWalker::reference(const DeclRefExpr &E) {
  const auto *V = dyn_cast<VarDecl>(E.getDecl());
  if (!V || !Types.isNullable(V->getType()))
    return;
  for (const Scope &S : llvm::reverse(Stack)) {
    if (S.R)
      for (const OpenMPCopies::Copy &C : S.R->Copies)
        if (C.Var == V) {
          Out.Refs[&E] = &C;
          return;
        }
    if (S.Declared.contains(V))
      return;
    // Globals and members are beyond the model in any case.
    if (S.Deferred && V->isLocalVarDeclOrParm())
      unsupported(SharedInTaskConstruct);
  }
}

const OpenMPCopies::Copy *OpenMPWalker::enclosingCopy(const VarDecl &V) const {
  for (const Scope &S : llvm::reverse(Stack)) {
    if (S.R)
      for (const OpenMPCopies::Copy &C : S.R->Copies)
        if (C.Var == &V)
          return &C;
    if (S.Declared.contains(&V))
      return nullptr;
  }
  return nullptr;
}

const OpenMPCopies::Region *OpenMPWalker::innermost() const {
  for (const Scope &S : llvm::reverse(Stack))
    if (S.R)
      return S.R;
  return nullptr;
}

OpenMPCopies::OpenMPCopies(const FunctionDecl &FD, const CallableTypes &Types) {
  OpenMPWalker(*this, Types).walk(FD.getBody());
}

} // namespace wrapguard
