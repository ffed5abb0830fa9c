//===- BodyIndex.cpp - What a function body does to its locals ------------===//

#include "BodyIndex.h"
#include "CallableSyntax.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace wrapguard {
namespace {

class IndexWalker : public RecursiveASTVisitor<IndexWalker> {
public:
  explicit IndexWalker(llvm::DenseMap<const VarDecl *, BodyIndex::Local> &Out)
      : Out(Out) {}

  bool VisitVarDecl(VarDecl *D) {
    if (D->getInit())
      add(D, {BodyIndex::Event::Init, D->getLocation(), D->getInit()});
    else
      add(D, {BodyIndex::Event::DefaultInit, D->getLocation()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const VarDecl *V = local(BO->getLHS()))
        add(V, {BodyIndex::Event::Assign, BO->getBeginLoc(), BO->getRHS()});
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (const VarDecl *V = local(OC->getArg(0)))
        add(V, {BodyIndex::Event::Assign, OC->getBeginLoc(), OC->getArg(1)});
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    // std::move(V) only casts: it leaves V moved-from for the notes, and
    // what receives it is seen on its own.
    if (const Expr *Moved = movedFromObject(C)) {
      if (const VarDecl *V = local(Moved))
        add(V, {BodyIndex::Event::MovedFrom, C->getBeginLoc(), nullptr, C});
      return true;
    }
    noteEscapes(*C);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = local(UO->getSubExpr()))
        Out[V].Escapes = true;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  static const VarDecl *local(const Expr *E) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripNoise(E));
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }
  void add(const VarDecl *V, BodyIndex::Event E) { Out[V].Events.push_back(E); }

  /// Whether parameter I of FD, a library function template, is a
  /// forwarding reference (`Args &&...args` of `emplace_back`,
  /// `std::make_pair`): an lvalue bound there is copied from, not assigned.
  static bool libraryForwards(const FunctionDecl &FD, unsigned I) {
    const FunctionDecl *Pattern = FD.getTemplateInstantiationPattern();
    const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
    bool Library =
        FD.isInStdNamespace() || (MD && MD->getParent()->isInStdNamespace());
    if (!Pattern || !Library)
      return false;
    const ParmVarDecl *Q = nullptr;
    for (unsigned J = 0; J < Pattern->getNumParams() && !Q; ++J)
      if (J == I || Pattern->getParamDecl(J)->isParameterPack())
        Q = Pattern->getParamDecl(J);
    if (!Q)
      return false;
    QualType T = Q->getType();
    if (const auto *PE = T->getAs<PackExpansionType>())
      T = PE->getPattern();
    const auto *RR = T->getAs<RValueReferenceType>();
    return RR && RR->getPointeeType()->getAs<TemplateTypeParmType>();
  }

  /// Arguments passed by non-const reference: the callee may assign them.
  void noteEscapes(const CallExpr &C) {
    const FunctionDecl *FD = C.getDirectCallee();
    for (unsigned I = 0; I < C.getNumArgs(); ++I) {
      const VarDecl *V = local(C.getArg(I));
      if (!V)
        continue;
      unsigned P = I;
      if (isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(FD)) {
        if (I == 0)
          continue; // The object itself.
        P = I - 1;
      }
      if (!FD || P >= FD->getNumParams()) {
        Out[V].Escapes = true;
        continue;
      }
      QualType T = FD->getParamDecl(P)->getType();
      if (T->isLValueReferenceType() &&
          !T->getPointeeType().isConstQualified() && !libraryForwards(*FD, P))
        Out[V].Escapes = true;
    }
  }

  llvm::DenseMap<const VarDecl *, BodyIndex::Local> &Out;
};

} // namespace

BodyIndex::BodyIndex(const FunctionDecl &Owner) : Body(Owner.getBody()) {
  if (Body)
    IndexWalker(Locals).TraverseStmt(Body);
}

ParentMap &BodyIndex::parents() const {
  assert(Body && "a parent map of a function without a body");
  if (!Parents)
    Parents = std::make_unique<ParentMap>(Body);
  return *Parents;
}

const BodyIndex::Local *BodyIndex::find(const VarDecl &V) const {
  auto It = Locals.find(&V);
  return It == Locals.end() ? nullptr : &It->second;
}

const BodyIndex &BodyIndexes::of(const FunctionDecl &FD) {
  std::unique_ptr<BodyIndex> &I = Built[&FD];
  if (!I)
    I = std::make_unique<BodyIndex>(FD);
  return *I;
}

std::optional<BodyIndex::Event>
BodyIndex::latestBefore(const VarDecl &V, SourceLocation Before,
                        const SourceManager &SM) const {
  const Local *L = find(V);
  if (!L)
    return std::nullopt;
  std::optional<Event> Latest;
  SourceLocation LatestLoc;
  for (const Event &E : L->Events) {
    SourceLocation Loc = SM.getExpansionLoc(E.Loc);
    if (!SM.isBeforeInTranslationUnit(Loc, Before))
      continue;
    if (!Latest || SM.isBeforeInTranslationUnit(LatestLoc, Loc)) {
      Latest = E;
      LatestLoc = Loc;
    }
  }
  return Latest;
}

} // namespace wrapguard
