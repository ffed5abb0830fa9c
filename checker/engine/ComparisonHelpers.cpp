//===- ComparisonHelpers.cpp - Calls whose result is a comparison ---------===//

#include "ComparisonHelpers.h"
#include "CallableSyntax.h"
#include "SingleReturn.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Builtins.h"

using namespace clang;

namespace wrapguard {

namespace {

/// Helpers that delegate to helpers are followed this far; a cycle of them
/// (or a long chain) is no comparison helper.
constexpr unsigned MaxDelegation = 4;

/// The index of the parameter of Def that E names, after conversions. A
/// lambda's body may name its enclosing function's parameters: those are
/// not its own.
std::optional<unsigned> parameterIndex(const Expr *E, const FunctionDecl &Def) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripNoise(E));
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != &Def)
    return std::nullopt;
  return P->getFunctionScopeIndex();
}

/// F's definition, when its body is visible.
const FunctionDecl *definitionOf(const FunctionDecl &F) {
  const FunctionDecl *Def = nullptr;
  return F.hasBody(Def) ? Def : nullptr;
}

/// E without `__builtin_expect` (glog's GOOGLE_PREDICT_TRUE, the kernel's
/// likely()), a hint that keeps its first argument's value, and without
/// logical negations, whose parity goes to Negated.
const Expr *withoutExpect(const Expr *E, bool &Negated) {
  while (true) {
    E = stripNoise(E);
    if (const auto *Not = dyn_cast_or_null<UnaryOperator>(E);
        Not && Not->getOpcode() == UO_LNot) {
      Negated = !Negated;
      E = Not->getSubExpr();
      continue;
    }
    const auto *Call = dyn_cast_or_null<CallExpr>(E);
    if (!Call || Call->getNumArgs() < 1)
      return E;
    unsigned ID = Call->getBuiltinCallee();
    if (ID != Builtin::BI__builtin_expect &&
        ID != Builtin::BI__builtin_expect_with_probability)
      return E;
    E = Call->getArg(0);
  }
}

/// The value a branch of the helper returns: the branch is a `return e;` or
/// a block whose first statement is one.
const Expr *branchReturn(const Stmt *S, bool &Returns) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    S = Block->body_empty() ? nullptr : Block->body_front();
  const auto *Ret = dyn_cast_or_null<ReturnStmt>(S);
  Returns = Ret && Ret->getRetValue();
  return Returns ? Ret->getRetValue() : nullptr;
}

std::optional<ComparisonResult> summarise(const FunctionDecl &F,
                                          unsigned Depth) {
  if (Depth > MaxDelegation || !F.getReturnType()->isPointerType())
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!F.hasBody(Def) || !Def)
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return std::nullopt;
  ASTContext &Ctx = F.getASTContext();

  // `return other(p1, p2, ...);`: that helper's summary, on F's parameters.
  if (const Expr *R = onlyReturned(F)) {
    const auto *Call = dyn_cast<CallExpr>(stripNoise(R));
    const FunctionDecl *G = Call ? Call->getDirectCallee() : nullptr;
    if (!G || G == &F || G == Def)
      return std::nullopt;
    std::optional<ComparisonResult> Inner = summarise(*G, Depth + 1);
    if (!Inner || Inner->LHS >= Call->getNumArgs() ||
        Inner->RHS >= Call->getNumArgs())
      return std::nullopt;
    std::optional<unsigned> L = parameterIndex(Call->getArg(Inner->LHS), *Def);
    std::optional<unsigned> Rt = parameterIndex(Call->getArg(Inner->RHS), *Def);
    if (!L || !Rt)
      return std::nullopt;
    return ComparisonResult{*L, *Rt, Inner->Op, Inner->NullWhenTrue};
  }

  // `if (p1 OP p2) return NULL; [else] return msg;` or the other way round.
  const auto *If = dyn_cast<IfStmt>(Body->body_front());
  if (!If || If->getInit() || If->getConditionVariable() || If->isConstexpr())
    return std::nullopt;
  bool Negated = false;
  const auto *Cmp =
      dyn_cast_or_null<BinaryOperator>(withoutExpect(If->getCond(), Negated));
  if (!Cmp || !Cmp->isComparisonOp())
    return std::nullopt;
  std::optional<unsigned> L = parameterIndex(Cmp->getLHS(), *Def);
  std::optional<unsigned> R = parameterIndex(Cmp->getRHS(), *Def);
  if (!L || !R || *L == *R)
    return std::nullopt;
  bool ThenReturns = false, ElseReturns = false;
  const Expr *Then = branchReturn(If->getThen(), ThenReturns);
  const Stmt *ElseStmt = If->getElse();
  if (!ElseStmt && Body->size() >= 2)
    ElseStmt = *std::next(Body->body_begin());
  const Expr *Else = branchReturn(ElseStmt, ElseReturns);
  if (!ThenReturns || !ElseReturns)
    return std::nullopt;
  // Exactly one branch returns null, so the result's nullness is the test.
  bool ThenNull = isNullLiteral(Then, Ctx), ElseNull = isNullLiteral(Else, Ctx);
  if (ThenNull == ElseNull)
    return std::nullopt;
  return ComparisonResult{*L, *R, Cmp->getOpcode(), ThenNull != Negated};
}

/// Whether the one statement of Conv returns "Field is not null".
bool testsNotNull(const CXXConversionDecl &Conv, const FieldDecl &Field) {
  bool Negated = false;
  const Expr *R = withoutExpect(onlyReturned(Conv), Negated);
  if (Negated)
    return false;
  auto IsField = [&](const Expr *E) {
    const auto *ME = dyn_cast_or_null<MemberExpr>(stripNoise(E));
    return ME && ME->getMemberDecl() == &Field &&
           isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  };
  // `return str_;`: the pointer's conversion to bool (stripped above).
  if (IsField(R))
    return true;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(R);
  if (!BO || BO->getOpcode() != BO_NE)
    return false;
  ASTContext &Ctx = Conv.getASTContext();
  return (IsField(BO->getLHS()) && isNullLiteral(BO->getRHS(), Ctx)) ||
         (IsField(BO->getRHS()) && isNullLiteral(BO->getLHS(), Ctx));
}

} // namespace

const Expr &forwardedValue(const Expr &E) {
  const Expr *X = stripNoise(&E);
  for (unsigned I = 0; I < MaxDelegation; ++I) {
    const auto *Call = dyn_cast<CallExpr>(X);
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    if (!F || F->getNumParams() != 1 || Call->getNumArgs() != 1)
      break;
    const FunctionDecl *Def = definitionOf(*F);
    std::optional<unsigned> P =
        Def ? parameterIndex(onlyReturned(*F), *Def) : std::nullopt;
    if (!P || *P != 0)
      break;
    X = stripNoise(Call->getArg(0));
  }
  return *X;
}

std::optional<ComparisonResult> comparisonHelper(const FunctionDecl &F) {
  return summarise(F, 0);
}

const Expr *wrappedPointer(const VarDecl &V, const CXXConversionDecl &Conv) {
  if (!Conv.getConversionType()->isBooleanType() || !V.getInit())
    return nullptr;
  const auto *CE = dyn_cast<CXXConstructExpr>(stripNoise(V.getInit()));
  // Before C++17, `CheckOpString r = f(..)` copies a converted temporary;
  // the copy is elided, and the conversion is what stores the pointer.
  while (CE && CE->isElidable() && CE->getNumArgs() == 1)
    CE = dyn_cast<CXXConstructExpr>(stripNoise(CE->getArg(0)));
  const CXXConstructorDecl *Ctor = CE ? CE->getConstructor() : nullptr;
  if (!Ctor || CE->getNumArgs() != 1 || Ctor->getNumParams() != 1 ||
      !Ctor->getParamDecl(0)->getType()->isPointerType())
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Ctor->hasBody(Def))
    return nullptr;
  const auto *CtorDef = dyn_cast_or_null<CXXConstructorDecl>(Def);
  if (!CtorDef)
    return nullptr;
  // The field the constructor initialises from its pointer parameter; the
  // conversion must test that field.
  for (const CXXCtorInitializer *Init : CtorDef->inits()) {
    const FieldDecl *Field = Init->getMember();
    std::optional<unsigned> P = parameterIndex(Init->getInit(), *CtorDef);
    if (Field && P && *P == 0 && testsNotNull(Conv, *Field))
      return CE->getArg(0);
  }
  return nullptr;
}

} // namespace wrapguard
