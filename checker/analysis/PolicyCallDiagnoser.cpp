//===- PolicyCallDiagnoser.cpp - Verdicts at calls through callables -----===//

#include "PolicyCallDiagnoser.h"
#include "CallableSyntax.h"
#include "PolicyCallModel.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

//===----------------------------------------------------------------------===//
// Recognising calls through nullable callables.
//===----------------------------------------------------------------------===//

/// `*x` on a smart pointer or optional, or on a raw pointer: returns x.
static const Expr *dereferenced(const Expr *E) {
  E = stripNoise(E);
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Star && OC->getNumArgs() == 1)
      return stripNoise(OC->getArg(0)); // Also past the cast to a base.
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return UO->getSubExpr();
  return nullptr;
}

/// `x->` on a smart pointer or optional: returns x.
static const Expr *arrowed(const Expr *E) {
  E = stripNoise(E);
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
      return stripNoise(OC->getArg(0));
  return nullptr;
}

/// The type of the object E denotes, before its conversions to a base
/// (`cb()` of a class whose operator() it inherits): whether calling it
/// empty can fail is its own class's question, whose overrides of the
/// base's virtual methods run.
static QualType objectType(const Expr &E) {
  const Expr *X = &E;
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(X->IgnoreParens())) {
    if (Cast->getCastKind() != CK_DerivedToBase &&
        Cast->getCastKind() != CK_UncheckedDerivedToBase &&
        Cast->getCastKind() != CK_NoOp)
      break;
    X = Cast->getSubExpr();
  }
  return X->IgnoreParens()->getType();
}

std::optional<CallSite> matchCallSite(const CallExpr &C,
                                      const CallableTypes &Types) {
  CallSite S;
  S.Call = &C;
  auto Accept = [&](const Expr *Callable,
                    std::initializer_list<CallableKind> Kinds,
                    llvm::ArrayRef<const Expr *> Args,
                    bool Direct) -> std::optional<CallSite> {
    if (!Callable)
      return std::nullopt;
    CallableKind K = Types.classify(objectType(*Callable));
    if (llvm::find(Kinds, K) == Kinds.end())
      return std::nullopt;
    S.Callable = Callable;
    S.Kind = K;
    S.Args = Args;
    S.Direct = Direct;
    return S;
  };
  llvm::ArrayRef<const Expr *> AllArgs(C.getArgs(), C.getNumArgs());

  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&C)) {
    if (OC->getOperator() != OO_Call || OC->getNumArgs() == 0)
      return std::nullopt;
    const Expr *Obj = OC->getArg(0);
    if (const Expr *Inner = dereferenced(Obj))
      return Accept(Inner,
                    {CallableKind::SmartPointer, CallableKind::Optional,
                     CallableKind::RawPointer},
                    AllArgs.drop_front(), false);
    return Accept(Obj, {CallableKind::FunctionObject}, AllArgs.drop_front(),
                  true);
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&C)) {
    const Expr *Callee = MC->getCallee()->IgnoreParens();
    if (const auto *BO = dyn_cast<BinaryOperator>(Callee))
      if (BO->isPtrMemOp())
        return Accept(BO->getRHS(), {CallableKind::MemberFunctionPointer},
                      AllArgs, false);
    const auto *ME = dyn_cast<MemberExpr>(Callee);
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!ME || !MD)
      return std::nullopt;
    // `pf.CallPacked(args)`: a method that invokes the handle's callable.
    if (MD->getOverloadedOperator() != OO_Call) {
      if (!Types.isInvokeMethod(*MD))
        return std::nullopt;
      if (!ME->isArrow())
        return Accept(stripNoise(ME->getBase()), {CallableKind::FunctionObject},
                      AllArgs, false);
      if (const Expr *Inner = arrowed(ME->getBase()))
        return Accept(Inner, {CallableKind::SmartPointer}, AllArgs, false);
      return Accept(stripNoise(ME->getBase()), {CallableKind::RawPointer},
                    AllArgs, false);
    }
    if (!ME->isArrow()) // f.operator()(x)
      return Accept(stripNoise(ME->getBase()), {CallableKind::FunctionObject},
                    AllArgs, false);
    if (const Expr *Inner = arrowed(ME->getBase()))
      return Accept(Inner, {CallableKind::SmartPointer, CallableKind::Optional},
                    AllArgs, false);
    return Accept(ME->getBase(), {CallableKind::RawPointer}, AllArgs, false);
  }
  if (C.getDirectCallee() || isa<CUDAKernelCallExpr>(C))
    return std::nullopt;
  const Expr *Callee = C.getCallee();
  if (const Expr *Inner = dereferenced(Callee))
    return Accept(Inner, {CallableKind::FunctionPointer}, AllArgs, false);
  return Accept(Callee, {CallableKind::FunctionPointer}, AllArgs, true);
}

//===----------------------------------------------------------------------===//
// Verdicts.
//===----------------------------------------------------------------------===//

llvm::SmallVector<PolicyCallVerdict, 1>
PolicyCallDiagnoser::operator()(const CFGElement &Elt, const PathQuery &Q) {
  llvm::SmallVector<PolicyCallVerdict, 1> Out;
  auto S = Elt.getAs<CFGStmt>();
  if (!S)
    return Out;
  const auto *C = dyn_cast<CallExpr>(S->getStmt());
  if (!C || Seen.count(C))
    return Out;
  std::optional<CallSite> Site = matchCallSite(*C, Types);
  if (!Site)
    return Out;
  CallableState St = stateOf(*Site->Callable, Q.env(), Types);
  // Where the framework has no location for the callable (a field reached
  // through a handle's operator->, `get()->f`), its state is unknown.
  Emptiness V = St.NonEmpty ? judgeState(St, Q) : Emptiness::Unknown;
  if (!St.NonEmpty && Q.proves(Q.env().arena().makeLiteral(false)))
    return Out;                 // No path reaches the call.
  if (V == Emptiness::NonEmpty) // Also when no path reaches the call.
    return Out;
  Seen.insert(C);
  Out.push_back({*Site, V, {}});
  return Out;
}

} // namespace wrapguard
