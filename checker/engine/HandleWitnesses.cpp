//===- HandleWitnesses.cpp - The fields that say a handle is empty --------===//

#include "HandleWitnesses.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace wrapguard {

namespace {
/// The fields of the object a method reads (`impl_`, `this->impl_`), and the
/// methods of the same object it calls (`is_empty()`).
class OwnReads : public RecursiveASTVisitor<OwnReads> {
public:
  bool VisitMemberExpr(MemberExpr *ME) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (!isa<CXXThisExpr>(Base))
      return true;
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Fields.push_back(F);
    else if (const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
      Methods.push_back(M);
    return true;
  }
  llvm::SmallVector<const FieldDecl *, 2> Fields;
  llvm::SmallVector<const CXXMethodDecl *, 2> Methods;
};
} // namespace

bool comparesWithNullptr(const FunctionDecl &FD) {
  OverloadedOperatorKind Op = FD.getOverloadedOperator();
  if (Op != OO_EqualEqual && Op != OO_ExclaimEqual)
    return false;
  for (const ParmVarDecl *P : FD.parameters())
    if (P->getType().getNonReferenceType()->isNullPtrType())
      return true;
  return false;
}

bool testsEmptiness(const FunctionDecl &FD) {
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(&FD))
    return Conv->getConversionType()->isBooleanType();
  return comparesWithNullptr(FD);
}

/// The field of RD or a base that F, read in a member template's pattern,
/// stands for in RD, a specialization: the one of the same name.
static const FieldDecl *inRecord(const FieldDecl *F, const CXXRecordDecl &RD) {
  if (F->getParent() == &RD || !F->getDeclName().isIdentifier())
    return F;
  const FieldDecl *Found = nullptr;
  auto Find = [&](const CXXRecordDecl &C) {
    for (const FieldDecl *G : C.fields())
      if (!Found && G->getDeclName() == F->getDeclName())
        Found = G;
  };
  Find(RD);
  RD.forallBases([&](const CXXRecordDecl *Base) {
    Find(*Base);
    return true;
  });
  return Found ? Found : F;
}

llvm::SmallVector<const Expr *, 2> emptinessTestOperands(const Expr &E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(&E); BO && BO->isEqualityOp())
    return {BO->getLHS(), BO->getRHS()};
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&E);
      OC && (OC->getOperator() == OO_EqualEqual ||
             OC->getOperator() == OO_ExclaimEqual))
    return {OC->arg_begin(), OC->arg_end()};
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(&E);
      IC && (IC->getCastKind() == CK_PointerToBoolean ||
             IC->getCastKind() == CK_MemberPointerToBoolean))
    return {IC->getSubExpr()};
  return {};
}

llvm::SmallVector<const FieldDecl *, 2>
emptinessWitnesses(const CXXRecordDecl &RD, bool ReadPatterns) {
  llvm::SmallVector<const FunctionDecl *, 4> Work;
  auto AddTests = [&](const CXXRecordDecl &C) {
    for (const CXXMethodDecl *M : C.methods())
      if (testsEmptiness(*M))
        Work.push_back(M);
  };
  AddTests(RD);
  RD.forallBases([&](const CXXRecordDecl *Base) {
    AddTests(*Base);
    return true;
  });
  llvm::SmallVector<const FieldDecl *, 2> Out;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  // Follow calls to the object's own methods a little way: `operator bool`
  // -> `is_empty()` -> `impl_ == nullptr`.
  for (unsigned Step = 0; Step < 3 && !Work.empty(); ++Step) {
    llvm::SmallVector<const FunctionDecl *, 4> Next;
    for (const FunctionDecl *FD : Work) {
      const FunctionDecl *Def = nullptr;
      if (!Seen.insert(FD).second)
        continue;
      // A member of a class template's specialization that nothing called
      // has no body of its own: its pattern says what it reads.
      if (!FD->hasBody(Def) && ReadPatterns)
        if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
          P->hasBody(Def);
      if (!Def)
        continue;
      OwnReads R;
      R.TraverseStmt(Def->getBody());
      for (const FieldDecl *F : R.Fields)
        if (const FieldDecl *G = inRecord(F, RD); !llvm::is_contained(Out, G))
          Out.push_back(G);
      Next.append(R.Methods.begin(), R.Methods.end());
    }
    Work = std::move(Next);
  }
  return Out;
}

} // namespace wrapguard
