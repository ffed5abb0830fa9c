//===- FlagParameters.cpp - What a point requires of the flags ------------===//

#include "FlagParameters.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

/// Each question is two solver calls at an undecided use; a function with
/// more flags than this keeps the first ones.
constexpr unsigned MaxFlags = 6;

namespace {

/// Counts, per parameter, its references and those that only read its
/// value (an lvalue-to-rvalue conversion of the bare name). Any other
/// reference may write it: an assignment, `++`, `&b`, a reference bound.
class ReadsOnly : public RecursiveASTVisitor<ReadsOnly> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      ++Refs[P];
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() != CK_LValueToRValue)
      return true;
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        ++Reads[P];
    return true;
  }
  bool onlyRead(const ParmVarDecl *P) const {
    auto R = Refs.find(P);
    auto W = Reads.find(P);
    unsigned RefCount = R == Refs.end() ? 0 : R->second;
    unsigned ReadCount = W == Reads.end() ? 0 : W->second;
    return RefCount == ReadCount;
  }

private:
  llvm::DenseMap<const ParmVarDecl *, unsigned> Refs, Reads;
};

} // namespace

FlagParameters::FlagParameters(const FunctionDecl &Owner) {
  bool Any = llvm::any_of(Owner.parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isBooleanType();
  });
  if (!Any || !Owner.getBody())
    return;
  ReadsOnly Walk;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&Owner))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten())
        Walk.TraverseStmt(Init->getInit());
  Walk.TraverseStmt(Owner.getBody());
  for (unsigned I = 0; I < Owner.getNumParams() && Kept.size() < MaxFlags;
       ++I) {
    const ParmVarDecl *P = Owner.getParamDecl(I);
    if (P->getType()->isBooleanType() && Walk.onlyRead(P))
      Kept.push_back({I, P});
  }
}

FlagValues FlagParameters::requiredAt(const PathQuery &Q) const {
  FlagValues Out;
  for (const auto &[Index, P] : Kept) {
    const auto *B = dyn_cast_or_null<BoolValue>(Q.env().getValue(*P));
    if (!B)
      continue;
    const Formula &F = B->formula();
    bool True = Q.proves(F), False = Q.proves(F, /*Negated=*/true);
    // Both: no path reaches the point, which requires nothing of anyone.
    if (True != False)
      Out.Values.emplace(Index, True);
  }
  return Out;
}

FlagValues literalFlags(const FunctionDecl &Callee, ArrayRef<const Expr *> Args,
                        const ASTContext &Ctx) {
  FlagValues Out;
  for (unsigned I = 0; I < Args.size() && I < Callee.getNumParams(); ++I) {
    if (!Callee.getParamDecl(I)->getType()->isBooleanType())
      continue;
    const Expr *Arg = Args[I];
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = D->getExpr();
    bool Value = false;
    if (Arg && !Arg->isValueDependent() &&
        Arg->EvaluateAsBooleanCondition(Value, Ctx))
      Out.Values.emplace(I, Value);
  }
  return Out;
}

} // namespace wrapguard
