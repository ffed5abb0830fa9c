//===- ForwardingOperators.cpp - Calls that are their callers' to guard ---===//

#include "ForwardingOperators.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace wrapguard {

namespace {
/// The implementation a call goes through: a member of `*this`, or a const,
/// parameterless method called on `this`.
struct Implementation {
  const FieldDecl *Field = nullptr;
  const CXXMethodDecl *Method = nullptr;
  bool valid() const { return Field || Method; }
};
} // namespace

/// The implementation E denotes (through one `*`), if it is one.
static Implementation implementationOf(const Expr *E) {
  Implementation I;
  E = E ? stripNoise(E) : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = stripNoise(UO->getSubExpr());
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E)) {
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      I.Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  } else if (const auto *Call = dyn_cast_or_null<CallExpr>(E)) {
    // A CXXMemberCallExpr; in a template's pattern, where the result's type
    // is dependent, a plain call of a member expression.
    const auto *Callee =
        dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts());
    const auto *M =
        Callee ? dyn_cast<CXXMethodDecl>(Callee->getMemberDecl()) : nullptr;
    if (M && M->isConst() && !Call->getNumArgs() &&
        isa<CXXThisExpr>(Callee->getBase()->IgnoreParenImpCasts()))
      I.Method = M->getCanonicalDecl();
  }
  return I;
}

/// M as its class template declares it: a member of a specialization that
/// the TU did not instantiate has no body, and its pattern's body names the
/// pattern's members.
static const CXXMethodDecl *pattern(const CXXMethodDecl *M) {
  if (!M)
    return nullptr;
  if (const FunctionDecl *P = M->getTemplateInstantiationPattern())
    M = cast<CXXMethodDecl>(P);
  return M->getCanonicalDecl();
}

/// The same implementation, in one specialization or in its pattern: the
/// same method's pattern, or the field at the same place with the same name.
static bool same(const Implementation &A, const Implementation &B) {
  if (A.Method || B.Method)
    return A.Method && B.Method && pattern(A.Method) == pattern(B.Method);
  return A.Field && B.Field &&
         A.Field->getFieldIndex() == B.Field->getFieldIndex() &&
         A.Field->getName() == B.Field->getName();
}

/// The one expression FD returns, or the one expression statement of its
/// body.
static const Expr *onlyStatement(const FunctionDecl &FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const Stmt *S = Body->body_front();
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return R->getRetValue() ? stripNoise(R->getRetValue()) : nullptr;
  if (const auto *E = dyn_cast<Expr>(S))
    return stripNoise(E);
  return nullptr;
}

/// Whether E, the value of a `bool` method, tests Impl for emptiness:
/// `impl`, `!impl`, `impl == nullptr`, `nullptr != impl`, casts of them.
static bool testsImplementation(const Expr *E, const Implementation &Impl) {
  if (!E)
    return false;
  // `static_cast<bool>(code_)`, simgrid's `Context::has_code`.
  E = stripCasts(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot)
    return testsImplementation(UO->getSubExpr(), Impl);
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isEqualityOp()) {
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
             OC && OC->getNumArgs() == 2 &&
             (OC->getOperator() == OO_EqualEqual ||
              OC->getOperator() == OO_ExclaimEqual)) {
    L = OC->getArg(0);
    R = OC->getArg(1);
  }
  if (L && R) {
    auto IsNull = [](const Expr *X) {
      return X->IgnoreParenImpCasts()->getType()->isNullPtrType() ||
             isa<GNUNullExpr, CXXNullPtrLiteralExpr>(X->IgnoreParenImpCasts());
    };
    if (IsNull(R))
      return same(implementationOf(L), Impl);
    if (IsNull(L))
      return same(implementationOf(R), Impl);
    return false;
  }
  // `return impl;` converted to bool (a pointer, or a handle's explicit
  // operator bool).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && isa<CXXConversionDecl>(MC->getMethodDecl()))
    return same(implementationOf(MC->getImplicitObjectArgument()), Impl);
  return same(implementationOf(E), Impl);
}

bool forwardsToTestedImplementation(const CallExpr &Call, const Expr &Callable,
                                    const FunctionDecl &FD,
                                    const CallableTypes &Types) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || MD->isStatic() ||
      (MD->getOverloadedOperator() != OO_Call && !Types.isInvokeMethod(*MD)) ||
      onlyStatement(FD) != stripNoise(&Call))
    return false;
  Implementation Impl = implementationOf(&Callable);
  if (!Impl.valid())
    return false;
  for (const CXXMethodDecl *M : MD->getParent()->methods()) {
    if (M == MD || M->getAccess() != AS_public || !M->isConst() ||
        M->getNumParams() || !M->getReturnType()->isBooleanType())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def) || !Def)
      if (const CXXMethodDecl *P = pattern(M))
        P->hasBody(Def);
    if (Def && testsImplementation(onlyStatement(*Def), Impl))
      return true;
  }
  return false;
}

} // namespace wrapguard
