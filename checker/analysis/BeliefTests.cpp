//===- BeliefTests.cpp - Which tests of a source are belief ---------------===//

#include "BeliefTests.h"
#include "CallableSyntax.h"
#include "PolicyCallDiagnoser.h"
#include "StripNoise.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace wrapguard {
namespace {

/// E without a leading `*` (or `&`, with AddrOf).
const Expr *pastDeref(const Expr *E, bool AddrOf = false) {
  E = stripNoise(E);
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
      UO &&
      (UO->getOpcode() == UO_Deref || (AddrOf && UO->getOpcode() == UO_AddrOf)))
    return stripNoise(UO->getSubExpr());
  return E;
}

/// Whether S calls through field FD (`o->f(..)`, `(*o.f)(..)`,
/// `o.f->operator()(..)`), as the diagnoser reads call sites.
bool callsThrough(const Stmt *S, const FieldDecl &FD,
                  const CallableTypes &Types) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (std::optional<CallSite> Site = matchCallSite(*Call, Types))
      if (const auto *ME =
              dyn_cast_or_null<MemberExpr>(stripNoise(Site->Callable));
          ME && ME->getMemberDecl() == &FD)
        return true;
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return callsThrough(Child, FD, Types);
  });
}

} // namespace

void FunctionBelief::test(const Expr &Test, const Expr &Tested,
                          std::vector<SourceUse> Sources, const FactLoc &At,
                          std::optional<AssumedAssertion> Unless) {
  const Expr *Object = nullptr;
  const FieldDecl *Field = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(stripNoise(&Tested));
      ME && (Field = dyn_cast<FieldDecl>(ME->getMemberDecl())))
    Object = pastDeref(ME->getBase());
  bool Reports = reported(Test);
  for (SourceUse &U : Sources)
    Tests.push_back({std::move(U), At, Object, Field, Reports, Unless});
}

void FunctionBelief::see(const Expr &E) {
  const auto *Call = dyn_cast<CallExpr>(&E);
  // What a call calls through.
  if (std::optional<CallSite> Site =
          Call ? matchCallSite(*Call, Types) : std::nullopt)
    use(Site->Callable);
  // A comparison with `nullptr` is a test, not a use.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&E)) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      use(OC->getArg(1));
    return;
  }
  if (Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      handed(MC->getImplicitObjectArgument(), Callee);
    for (const Expr *Arg : Call->arguments()) {
      use(Arg);
      handed(Arg, Callee);
    }
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(&E)) {
    if (!initialisesLocal(*CE))
      for (const Expr *Arg : CE->arguments())
        use(Arg);
    return;
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(&E)) {
    for (const Expr *Init : ILE->inits())
      use(Init);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(&E);
      BO && BO->getOpcode() == BO_Assign)
    use(BO->getRHS());
}

void FunctionBelief::seeVar(const VarDecl &VD) {
  if (const Expr *Init = VD.getInit(); Init && VD.hasGlobalStorage())
    use(Init);
}

void FunctionBelief::seeReturn(const ReturnStmt &RS) { use(RS.getRetValue()); }

void FunctionBelief::seeCaptures(const LambdaExpr &L) {
  for (const Expr *Init : L.capture_inits())
    use(Init);
}

std::vector<FunctionBelief::Belief> FunctionBelief::belief() const {
  std::vector<Belief> Out;
  for (const Test &T : Tests) {
    bool HandedOn = T.Object && llvm::any_of(Handed, [&](const auto &H) {
                      return sameStorage(T.Object, H.first) &&
                             callsMember(*H.second, *T.Field);
                    });
    if (T.Reported || HandedOn || Used.contains(T.Source.Key))
      Out.push_back({T.Source, T.At, T.Unless});
  }
  return Out;
}

void FunctionBelief::use(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return;
  // `run(*reader)` hands on what the pointer `reader` points to.
  if (const auto *UO = dyn_cast<UnaryOperator>(stripNoise(E));
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr();
  if (!Types.isNullable(E->getType().getNonReferenceType()))
    return;
  for (const SourceUse &U : sourcesOf(*E, Owner, Ctx, Types, Index).Sources)
    Used.insert(U.Key);
}

void FunctionBelief::handed(const Expr *E, const FunctionDecl *Callee) {
  E = pastDeref(E, /*AddrOf=*/true);
  if (Callee && E && isa<DeclRefExpr, MemberExpr, CXXThisExpr>(E))
    Handed.push_back({E, Callee});
}

bool FunctionBelief::initialisesLocal(const Expr &E) const {
  if (!Owner.getBody())
    return false;
  const ParentMap &PM = Index.parents();
  const Stmt *P = PM.getParent(&E);
  while (P && isa<ExprWithCleanups, CXXBindTemporaryExpr,
                  MaterializeTemporaryExpr, ImplicitCastExpr>(P))
    P = PM.getParent(P);
  return P && isa<DeclStmt>(P);
}

bool FunctionBelief::reported(const Expr &Test) const {
  if (!Owner.getBody())
    return false;
  const ParentMap &PM = Index.parents();
  const Stmt *P = PM.getParent(&Test);
  while (P && isa<Expr>(P))
    P = PM.getParent(P);
  return P && isa<ReturnStmt>(P);
}

bool FunctionBelief::callsMember(const FunctionDecl &Callee,
                                 const FieldDecl &FD) const {
  // Defined in another TU: it may.
  const FunctionDecl *Def = Callee.getDefinition();
  if (!Def || !Def->getBody())
    return true;
  auto [It, New] = Cache.try_emplace({Def, &FD}, false);
  if (New)
    It->second = callsThrough(Def->getBody(), FD, Types);
  return It->second;
}

} // namespace wrapguard
