//===- AccessorTests.cpp - Methods that test a field ----------------------===//

#include "AccessorTests.h"
#include "CallableSyntax.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include <functional>

using namespace clang;

namespace wrapguard {

/// The callable field of `*this` that E tests, as the one statement of an
/// accessor returns it (`rawAlloc`, `!fn_`, `function == nullptr`,
/// `static_cast<bool>(cb_)`); Negated when E is true for an empty one.
static const FieldDecl *testedFieldOfThis(const Expr &E, bool &Negated,
                                          const CallableTypes &Types,
                                          ASTContext &Ctx) {
  auto FieldOfThis = [&](const Expr *X) -> const FieldDecl * {
    const auto *ME = dyn_cast<MemberExpr>(X->IgnoreParenImpCasts());
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    return F && Types.isNullable(F->getType()) &&
                   isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())
               ? F
               : nullptr;
  };
  const Expr *X = E.IgnoreParens();
  while (true) {
    if (const auto *UO = dyn_cast<UnaryOperator>(X);
        UO && UO->getOpcode() == UO_LNot) {
      Negated = !Negated;
      X = UO->getSubExpr()->IgnoreParens();
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(X)) {
      switch (Cast->getCastKind()) {
      case CK_PointerToBoolean:
      case CK_MemberPointerToBoolean:
        return FieldOfThis(Cast->getSubExpr());
      case CK_UserDefinedConversion:
      case CK_NoOp:
        X = Cast->getSubExpr()->IgnoreParens();
        continue;
      default:
        return nullptr;
      }
    }
    break;
  }
  // `operator bool` of a function object or smart pointer.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X)) {
    const auto *Conv = dyn_cast_or_null<CXXConversionDecl>(MC->getMethodDecl());
    return Conv && Conv->getConversionType()->isBooleanType()
               ? FieldOfThis(MC->getImplicitObjectArgument())
               : nullptr;
  }
  std::optional<NullComparison> NC = nullComparisonOf(*X, Ctx);
  if (!NC)
    return nullptr;
  const FieldDecl *F = FieldOfThis(NC->Operand);
  if (F && NC->IsEq)
    Negated = !Negated;
  return F;
}

/// Whether E may reach the callable fields of `*this`: it names one, a
/// method, or `this` itself (`Sync s(*this);`). A field of another type is
/// no way to them (`mu_` of `std::lock_guard<std::mutex> lock(mu_)`).
static bool reachesCallablesOfThis(const Stmt &E, const CallableTypes &Types) {
  if (const auto *ME = dyn_cast<MemberExpr>(&E);
      ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    return !F || Types.isNullable(F->getType());
  }
  if (isa<CXXThisExpr>(E))
    return true;
  return llvm::any_of(E.children(), [&](const Stmt *Child) {
    return Child && reachesCallablesOfThis(*Child, Types);
  });
}

/// Whether DS declares only locals (not static) whose initialisers cannot
/// reach the callable fields of `*this` (`std::lock_guard<std::mutex>
/// lock(mu_);`), so that what follows reads them as the caller left them.
static bool declaresUnreachingLocals(const DeclStmt &DS,
                                     const CallableTypes &Types) {
  return llvm::all_of(DS.decls(), [&](const Decl *D) {
    const auto *V = dyn_cast<VarDecl>(D);
    return V && !V->isStaticLocal() &&
           !(V->getInit() && reachesCallablesOfThis(*V->getInit(), Types));
  });
}

/// The return statement of a body that is declarations of locals and then
/// that return: `std::lock_guard<std::mutex> lock(mu_); return cb_ !=
/// nullptr;` (IXWebSocket's `isOnMessageCallbackRegistered`). The locals'
/// initialisers must not reach the callable fields (see above), so the
/// return reads them as the caller left them.
static const ReturnStmt *
onlyReturnAfterDeclarations(const Stmt *S, const CallableTypes &Types) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(S);
  if (!Body || Body->body_empty())
    return nullptr;
  for (const Stmt *Before : llvm::drop_end(Body->body())) {
    const auto *DS = dyn_cast<DeclStmt>(Before);
    if (!DS || !declaresUnreachingLocals(*DS, Types))
      return nullptr;
  }
  return dyn_cast<ReturnStmt>(Body->body_back());
}

/// Whether S is `return false;`, alone or as the one statement of a block.
static bool returnsFalse(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  const auto *Ret = dyn_cast_or_null<ReturnStmt>(S);
  const auto *B = Ret && Ret->getRetValue()
                      ? dyn_cast<CXXBoolLiteralExpr>(
                            Ret->getRetValue()->IgnoreParenImpCasts())
                      : nullptr;
  return B && !B->getValue();
}

/// A predicate that checks more than its fields: a body of early exits
/// `if (..) return false;`, declarations and statements that cannot reach
/// the callable fields of `*this`, then one `return`, where some early exit
/// is taken when a callable field is empty (HiGHS's `callbackActive`: `if
/// (!this->user_callback) return false;`, then checks of its argument and
/// of other state). A `true` result passed that exit with nothing after it
/// able to empty the field, so the field is set; a `false` one may come
/// from another exit and says nothing of it.
static std::optional<AccessorTest>
earlyExitTestOf(const Stmt *S, const CallableTypes &Types, ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(S);
  if (!Body || Body->size() < 2 || !isa<ReturnStmt>(Body->body_back()))
    return std::nullopt;
  AccessorTest Out;
  Out.Partial = true;
  for (const Stmt *Before : llvm::drop_end(Body->body())) {
    if (const auto *If = dyn_cast<IfStmt>(Before);
        If && !If->getElse() && !If->getInit() && !If->getConditionVariable() &&
        returnsFalse(If->getThen())) {
      bool Negated = false;
      if (const FieldDecl *F =
              testedFieldOfThis(*If->getCond(), Negated, Types, Ctx);
          F && Negated) {
        if (!llvm::is_contained(Out.Fields, F))
          Out.Fields.push_back(F);
        continue;
      }
      if (reachesCallablesOfThis(*If->getCond(), Types))
        return std::nullopt;
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Before)) {
      if (!declaresUnreachingLocals(*DS, Types))
        return std::nullopt;
      continue;
    }
    // An assertion, a log line: anything that cannot reach the fields.
    if (!isa<Expr>(Before) || reachesCallablesOfThis(*Before, Types))
      return std::nullopt;
  }
  const Expr *Result = cast<ReturnStmt>(Body->body_back())->getRetValue();
  if (Out.Fields.empty() || Out.Fields.size() > 4 || !Result ||
      reachesCallablesOfThis(*Result, Types))
    return std::nullopt;
  return Out;
}

std::optional<AccessorTest> accessorTestOf(const CXXMethodDecl &M,
                                           const CallableTypes &Types,
                                           ASTContext &Ctx) {
  const FunctionDecl *Def = nullptr;
  // A virtual accessor may be overridden by one that says something else.
  if (M.isStatic() || !M.getReturnType()->isBooleanType() ||
      (M.isVirtual() && !M.hasAttr<FinalAttr>() &&
       !M.getParent()->hasAttr<FinalAttr>()) ||
      !M.hasBody(Def) || !Def)
    return std::nullopt;
  const auto *Ret = onlyReturnAfterDeclarations(Def->getBody(), Types);
  if (!Ret)
    return earlyExitTestOf(Def->getBody(), Types, Ctx);
  if (!Ret->getRetValue())
    return std::nullopt;
  // `return a_ && b_ && c_;` (brpc's `Protocol::support_client`) is true
  // only where each of the fields is set. Conjuncts that test other state
  // (`m_origin != nullptr && m_eventId != INVALID_ID && m_callback !=
  // nullptr`, iceoryx's `Event_t::isInitialized`) make it a predicate:
  // true still implies the fields are set, false says nothing of them.
  // Its negation, `return a_ == nullptr || b_ == nullptr;` (Jolt's
  // `RTTI::IsAbstract`), is false only where each of them is set; other
  // disjuncts (`|| !enabled_`) make it a predicate whose false result still
  // implies the fields are set.
  const auto *Top =
      dyn_cast<BinaryOperator>(Ret->getRetValue()->IgnoreParens());
  BinaryOperatorKind Joins =
      Top && Top->getOpcode() == BO_LOr ? BO_LOr : BO_LAnd;
  llvm::SmallVector<const Expr *, 8> Tests;
  std::function<void(const Expr &)> Split = [&](const Expr &X) {
    const auto *BO = dyn_cast<BinaryOperator>(X.IgnoreParens());
    if (BO && BO->getOpcode() == Joins) {
      Split(*BO->getLHS());
      Split(*BO->getRHS());
    } else {
      Tests.push_back(&X);
    }
  };
  Split(*Ret->getRetValue());
  if (Tests.size() > 8)
    return std::nullopt;
  AccessorTest Out;
  for (const Expr *T : Tests) {
    bool TestNegated = false;
    const FieldDecl *F = testedFieldOfThis(*T, TestNegated, Types, Ctx);
    if (!F && Tests.size() > 1 && !reachesCallablesOfThis(*T, Types)) {
      Out.Partial = true;
      continue;
    }
    // In a conjunction, only tests that the fields are set; in a
    // disjunction, only tests that they are empty.
    if (!F || (Tests.size() > 1 && TestNegated != (Joins == BO_LOr)))
      return std::nullopt;
    Out.Negated = TestNegated;
    Out.Fields.push_back(F);
  }
  if (Out.Fields.empty() || Out.Fields.size() > 4)
    return std::nullopt;
  return Out;
}

} // namespace wrapguard
