//===- Guards.cpp - Conditions over members that hold at a call -----------===//

#include "Guards.h"
#include "CallableSyntax.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace wrapguard {

std::string negateAtom(llvm::StringRef Atom) {
  if (Atom.consume_front("!"))
    return Atom.str();
  return ("!" + Atom).str();
}

/// The member of `this` that E reads (or a constructor parameter stored in
/// one).
static const FieldDecl *memberOf(const Expr *E, const ParamMembers *Params) {
  E = stripNoise(E);
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()); P && Params)
      return Params->lookup(P);
  return nullptr;
}

/// An enumerator's qualified name or an integer's value: what a member is
/// compared with.
static std::optional<std::string> constantOf(const Expr *E) {
  E = stripNoise(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return EC->getQualifiedNameAsString();
  if (const auto *IL = dyn_cast_or_null<IntegerLiteral>(E))
    return llvm::toString(IL->getValue(), /*Radix=*/10, /*Signed=*/true);
  return std::nullopt;
}

static std::optional<std::string> memberAtom(const FieldDecl &F) {
  if (auto K = fieldKey(F))
    return *K;
  return std::nullopt;
}

/// `m_ == K`, `K == m_`, `m_ != K` as an atom; nullopt otherwise.
static std::optional<std::string> comparisonAtom(const Expr *L, const Expr *R,
                                                 bool IsEq, bool Negated,
                                                 const ParamMembers *Params) {
  const FieldDecl *F = memberOf(L, Params);
  std::optional<std::string> V = constantOf(R);
  if (!F || !V) {
    F = memberOf(R, Params);
    V = constantOf(L);
  }
  if (!F || !V)
    return std::nullopt;
  auto Key = memberAtom(*F);
  if (!Key)
    return std::nullopt;
  std::string Atom = *Key + "==" + *V;
  return IsEq != Negated ? Atom : negateAtom(Atom);
}

static void collectAtoms(const Expr *E, bool Negated,
                         const ParamMembers *Params,
                         std::vector<std::string> &Out) {
  E = stripNoise(E);
  if (!E)
    return;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot)
    return collectAtoms(UO->getSubExpr(), !Negated, Params, Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // `a && b` true asserts both; `a || b` false asserts neither holds.
    if ((BO->getOpcode() == BO_LAnd && !Negated) ||
        (BO->getOpcode() == BO_LOr && Negated)) {
      collectAtoms(BO->getLHS(), Negated, Params, Out);
      collectAtoms(BO->getRHS(), Negated, Params, Out);
      return;
    }
  }
  if (std::optional<Equality> Eq = equalityOf(*E)) {
    if (auto A = comparisonAtom(Eq->LHS, Eq->RHS, Eq->IsEq, Negated, Params))
      Out.push_back(*A);
    return;
  }
  if (const FieldDecl *F = memberOf(E, Params))
    if (auto Key = memberAtom(*F))
      Out.push_back(Negated ? negateAtom(*Key) : *Key);
}

std::vector<std::string> conditionAtoms(const Expr &Cond, bool Negated,
                                        const ParamMembers *Params) {
  std::vector<std::string> Out;
  collectAtoms(&Cond, Negated, Params, Out);
  return Out;
}

/// Whether S always leaves the enclosing block: return, throw, break,
/// continue, or a block that ends in one.
static bool exits(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, CXXThrowExpr, BreakStmt, ContinueStmt>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    return isa<CXXThrowExpr>(stripNoise(E));
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && exits(CS->body_back());
  return false;
}

/// Calls Visit(Cond, Holds) for each condition that holds where S is
/// evaluated: the enclosing `if`s and `?:` on the branch taken, and the early
/// exits before S in an enclosing block (whose conditions are false there).
template <typename F>
static void forEachCondition(const Stmt &S, ParentMap &PM, F Visit) {
  const Stmt *Child = &S;
  for (const Stmt *P = PM.getParent(Child); P; Child = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getCond() && Child != If->getCond())
        Visit(*If->getCond(), Child != If->getElse());
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Child != CO->getCond())
        Visit(*CO->getCond(), Child != CO->getFalseExpr());
    } else if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        if (const auto *If = dyn_cast<IfStmt>(Before);
            If && If->getCond() && !If->getElse() && exits(If->getThen()))
          Visit(*If->getCond(), false);
      }
    }
  }
}

/// Whether S may leave the block it is in: a `return`, `break`, `continue`
/// or `goto` anywhere inside it (a `break` of a loop or `switch` inside it
/// counts too, which only errs towards "may").
static bool mayLeaveEarly(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false; // Its returns are its own.
  return llvm::any_of(S->children(), mayLeaveEarly);
}

bool alwaysReached(const Stmt &S, const Stmt &Body, ParentMap &PM) {
  const Stmt *Child = &S;
  for (const Stmt *P = PM.getParent(Child); P && Child != &Body;
       Child = P, P = PM.getParent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getCond() && Child != If->getInit() &&
          Child != If->getConditionVariableDeclStmt())
        return false;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child != CO->getCond())
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        return false;
    } else if (isa<SwitchStmt, SwitchCase, ForStmt, WhileStmt, DoStmt,
                   CXXForRangeStmt, CXXCatchStmt, LabelStmt>(P)) {
      return false;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        if (mayLeaveEarly(Before))
          return false;
      }
    }
  }
  return Child == &Body;
}

std::vector<std::string> guardsAt(const Stmt &S, ParentMap &PM) {
  std::vector<std::string> Out;
  forEachCondition(S, PM, [&](const Expr &Cond, bool Holds) {
    llvm::append_range(Out, conditionAtoms(Cond, !Holds));
  });
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

/// Whether Leaf, one conjunct of a condition, tests a state of the object
/// IsObject accepts other than Field: another member that can be null (a
/// pointer, a smart pointer) as a truth value or against null, or a `bool`
/// method of the object, without arguments, whose one statement returns
/// such a test. Flags (`bool`, integer and enum members) are not modes
/// here: the constructors' conditions decide them (Candidate::Guards); nor
/// are sibling callables, which the correlated-slot rule decides
/// (Candidate::Slots).
static bool testsObjectState(const Expr *Leaf,
                             llvm::function_ref<bool(const Expr *)> IsObject,
                             const FieldDecl &Field, const CallableTypes &Types,
                             ASTContext &Ctx, unsigned Depth = 0) {
  Leaf = stripNoise(Leaf);
  if (!Leaf)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Leaf);
      UO && UO->getOpcode() == UO_LNot)
    return testsObjectState(UO->getSubExpr(), IsObject, Field, Types, Ctx,
                            Depth);
  // `m == nullptr`, `m != NULL`: the member's state.
  if (equalityOf(*Leaf)) {
    std::optional<NullComparison> NC = nullComparisonOf(*Leaf, Ctx);
    return NC &&
           testsObjectState(NC->Operand, IsObject, Field, Types, Ctx, Depth);
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Leaf)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M)
      return false;
    // `if (_message)` on a smart pointer: its conversion's object.
    if (isa<CXXConversionDecl>(M))
      return testsObjectState(MC->getImplicitObjectArgument(), IsObject, Field,
                              Types, Ctx, Depth);
    const FunctionDecl *Def = nullptr;
    if (Depth > 0 || !M->isConst() || MC->getNumArgs() != 0 ||
        !M->getReturnType()->isBooleanType() ||
        !IsObject(MC->getImplicitObjectArgument()) || !M->hasBody(Def))
      return false;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
    const auto *Ret = Body && Body->size() == 1
                          ? dyn_cast<ReturnStmt>(Body->body_front())
                          : nullptr;
    return Ret && Ret->getRetValue() &&
           testsObjectState(
               Ret->getRetValue(),
               [](const Expr *E) {
                 return isa<CXXThisExpr>(E->IgnoreParenImpCasts());
               },
               Field, Types, Ctx, Depth + 1);
  }
  const auto *ME = dyn_cast<MemberExpr>(Leaf);
  const auto *G = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!G || G == &Field || !IsObject(ME->getBase()) ||
      Types.isNullable(G->getType()))
    return false;
  QualType T = G->getType().getNonReferenceType();
  return T->isPointerType() || T->isRecordType() || T->isMemberPointerType();
}

/// Calls Visit on each conjunct that Cond, evaluated to Holds, makes hold
/// (`a && b` true, `a || b` false).
template <typename F>
static void forEachConjunct(const Expr *Cond, bool Holds, F Visit) {
  Cond = stripNoise(Cond);
  if (!Cond)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && ((BO->getOpcode() == BO_LAnd && Holds) ||
             (BO->getOpcode() == BO_LOr && !Holds))) {
    forEachConjunct(BO->getLHS(), Holds, Visit);
    forEachConjunct(BO->getRHS(), Holds, Visit);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot) {
    const auto *Inner = dyn_cast<BinaryOperator>(stripNoise(UO->getSubExpr()));
    if (Inner && Inner->isLogicalOp())
      return forEachConjunct(UO->getSubExpr(), !Holds, Visit);
  }
  Visit(Cond);
}

bool objectStateTestedAt(const Stmt &S, const MemberExpr &Callable,
                         ParentMap &PM, const CallableTypes &Types,
                         ASTContext &Ctx) {
  const auto *Field = dyn_cast<FieldDecl>(Callable.getMemberDecl());
  const Expr *Object = Callable.getBase();
  if (!Field || !Object)
    return false;
  bool Tested = false;
  forEachCondition(S, PM, [&](const Expr &Cond, bool Holds) {
    forEachConjunct(&Cond, Holds, [&](const Expr *Leaf) {
      Tested = Tested ||
               testsObjectState(
                   Leaf, [&](const Expr *E) { return sameStorage(E, Object); },
                   *Field, Types, Ctx);
    });
  });
  return Tested;
}

/// The tested expressions (`f` of `if (f)`) whose state Cond proves when it
/// evaluates to Holds, each with whether it is proved non-empty.
static void testsWhen(const Expr *Cond, bool Holds, const CallableTypes &Types,
                      ASTContext &Ctx, std::vector<CallableTest> &Out) {
  Cond = stripNoise(Cond);
  if (!Cond)
    return;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot)
    return testsWhen(UO->getSubExpr(), !Holds, Types, Ctx, Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && ((BO->getOpcode() == BO_LAnd && Holds) ||
             (BO->getOpcode() == BO_LOr && !Holds))) {
    testsWhen(BO->getLHS(), Holds, Types, Ctx, Out);
    testsWhen(BO->getRHS(), Holds, Types, Ctx, Out);
    return;
  }
  const Expr *Tested = testedCallable(*Cond, Types, Ctx);
  // `if (!p)`: stripNoise took off the pointer's conversion to bool.
  if (!Tested && Types.isNullable(Cond->getType()))
    Tested = Cond;
  if (!Tested)
    return;
  // `f == nullptr` holds when f is empty; every other test when it is not.
  std::optional<Equality> Eq = equalityOf(*Cond);
  bool IsEq = Eq && Eq->IsEq;
  Out.push_back({stripNoise(Tested), Holds != IsEq});
}

void forEachConditionAt(const Stmt &S, ParentMap &PM,
                        llvm::function_ref<void(const Expr &, bool)> Visit) {
  forEachCondition(S, PM, Visit);
}

std::vector<CallableTest> callableTestsOf(const Expr &Cond, bool Holds,
                                          const CallableTypes &Types,
                                          ASTContext &Ctx) {
  std::vector<CallableTest> Out;
  testsWhen(&Cond, Holds, Types, Ctx, Out);
  return Out;
}

std::vector<CallableTest> callableTestsAt(const Stmt &S, ParentMap &PM,
                                          const CallableTypes &Types,
                                          ASTContext &Ctx) {
  std::vector<CallableTest> Out;
  forEachCondition(S, PM, [&](const Expr &Cond, bool Holds) {
    testsWhen(&Cond, Holds, Types, Ctx, Out);
  });
  return Out;
}

/// The tested expressions proven non-empty where S is evaluated.
static std::vector<const Expr *> nonEmptyAt(const Stmt &S, ParentMap &PM,
                                            const CallableTypes &Types,
                                            ASTContext &Ctx) {
  std::vector<const Expr *> Out;
  for (const CallableTest &T : callableTestsAt(S, PM, Types, Ctx))
    if (T.NonEmpty)
      Out.push_back(T.Tested);
  return Out;
}

std::vector<const VarDecl *> nonEmptyVarsAt(const Stmt &S, ParentMap &PM,
                                            const CallableTypes &Types,
                                            ASTContext &Ctx) {
  std::vector<const VarDecl *> Out;
  for (const Expr *Tested : nonEmptyAt(S, PM, Types, Ctx))
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Tested))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Out.push_back(V);
  return Out;
}

std::vector<const FieldDecl *> nonEmptyFieldsAt(const Stmt &S, ParentMap &PM,
                                                const CallableTypes &Types,
                                                ASTContext &Ctx) {
  std::vector<const FieldDecl *> Out;
  for (const Expr *Tested : nonEmptyAt(S, PM, Types, Ctx))
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(Tested))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Out.push_back(F);
  return Out;
}

namespace {
/// Whether Body evaluates something that may write memory (a call, an
/// assignment, an increment, a `delete`, a `throw`) strictly between two
/// source locations. Lambda bodies are not evaluated there, and neither is
/// what encloses the second location: the store of `mem_ = f_->checkout_()`
/// or an outer call runs once the call at Before has.
class WritesBetween : public RecursiveASTVisitor<WritesBetween> {
public:
  WritesBetween(SourceLocation After, SourceLocation Before,
                const SourceManager &SM)
      : After(After), Before(Before), SM(SM) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitStmt(Stmt *S) {
    bool Writes = isa<CallExpr, CXXConstructExpr, CXXDeleteExpr, CXXThrowExpr,
                      CompoundAssignOperator>(S);
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      Writes |= BO->isAssignmentOp();
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      Writes |= UO->isIncrementDecrementOp();
    if (Writes && inside(S->getBeginLoc()) && !encloses(*S))
      Found = true;
    return !Found;
  }
  bool Found = false;

private:
  /// Whether S, begun after After, goes on past Before: it holds Before.
  bool encloses(const Stmt &S) const {
    return !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S.getEndLoc()),
                                         Before);
  }
  bool inside(SourceLocation L) const {
    L = SM.getExpansionLoc(L);
    return SM.isBeforeInTranslationUnit(After, L) &&
           SM.isBeforeInTranslationUnit(L, Before);
  }
  SourceLocation After, Before;
  const SourceManager &SM;
};
} // namespace

/// Whether FD is the `[]` of an associative container, which inserts what
/// it does not find.
static bool insertsWhatItDoesNotFind(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  const CXXRecordDecl *RD = MD ? MD->getParent() : nullptr;
  if (!RD || !RD->getIdentifier())
    return true;
  StringRef Name = RD->getName();
  return Name.contains("map") || Name.contains("Map");
}

static bool sameObject(const Expr *A, const Expr *B);

/// Whether A and B, the indexes of two subscripts, are the same value as
/// written: the same variable or object path, the same integer literal,
/// or the same arithmetic of such (`i - 1`), with nothing that writes.
static bool sameIndex(const Expr *A, const Expr *B) {
  A = A ? A->IgnoreParenImpCasts() : nullptr;
  B = B ? B->IgnoreParenImpCasts() : nullptr;
  if (!A || !B || A->getStmtClass() != B->getStmtClass())
    return false;
  if (const auto *IA = dyn_cast<IntegerLiteral>(A))
    return llvm::APInt::isSameValue(IA->getValue(),
                                    cast<IntegerLiteral>(B)->getValue());
  if (const auto *BA = dyn_cast<BinaryOperator>(A)) {
    const auto *BB = cast<BinaryOperator>(B);
    return BA->getOpcode() == BB->getOpcode() &&
           (BA->isAdditiveOp() || BA->isMultiplicativeOp() || BA->isShiftOp() ||
            BA->isBitwiseOp()) &&
           sameIndex(BA->getLHS(), BB->getLHS()) &&
           sameIndex(BA->getRHS(), BB->getRHS());
  }
  return isa<DeclRefExpr, MemberExpr>(A) && sameObject(A, B);
}

/// Whether A and B name the same object by the same path: the same
/// variable, `this`, the same members of the same objects, the same
/// dereferences. Reads of pointers on the way are values, not writes.
static bool sameObject(const Expr *A, const Expr *B) {
  auto Peel = [](const Expr *E) {
    for (const Expr *Prev = nullptr; E && E != Prev;) {
      Prev = E;
      E = E->IgnoreParens();
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
          ICE && (ICE->getCastKind() == CK_LValueToRValue ||
                  ICE->getCastKind() == CK_NoOp))
        E = ICE->getSubExpr();
    }
    return E;
  };
  A = Peel(A);
  B = Peel(B);
  if (!A || !B || A->getStmtClass() != B->getStmtClass())
    return false;
  if (isa<CXXThisExpr>(A))
    return true;
  if (const auto *DA = dyn_cast<DeclRefExpr>(A))
    return DA->getDecl()->getCanonicalDecl() ==
           cast<DeclRefExpr>(B)->getDecl()->getCanonicalDecl();
  if (const auto *MA = dyn_cast<MemberExpr>(A)) {
    const auto *MB = cast<MemberExpr>(B);
    return MA->getMemberDecl() == MB->getMemberDecl() &&
           MA->isArrow() == MB->isArrow() &&
           sameObject(MA->getBase(), MB->getBase());
  }
  if (const auto *UA = dyn_cast<UnaryOperator>(A))
    return UA->getOpcode() == UO_Deref &&
           cast<UnaryOperator>(B)->getOpcode() == UO_Deref &&
           sameObject(UA->getSubExpr(), cast<UnaryOperator>(B)->getSubExpr());
  // `h[i - 1]` of a built-in array or pointer: the same element of the
  // same object, by the same index.
  if (const auto *SA = dyn_cast<ArraySubscriptExpr>(A)) {
    const auto *SB = cast<ArraySubscriptExpr>(B);
    return sameObject(SA->getBase(), SB->getBase()) &&
           sameIndex(SA->getIdx(), SB->getIdx());
  }
  // `it->cb` and `(*it).cb` through a standard library's iterator, smart
  // pointer or optional: its `->` and `*` only observe the object, so the
  // same one, unchanged, gives the same element (`if (ite->cb)
  // (*ite->cb)(..);` over a std::list). A project's own handle declares
  // that its `->` observes by making it `const` (casadi's `Function`, `if
  // (f_->checkout_) mem_ = f_->checkout_();`); a non-const one of the
  // project's may do anything, and is not read here.
  if (const auto *OA = dyn_cast<CXXOperatorCallExpr>(A)) {
    const auto *OB = cast<CXXOperatorCallExpr>(B);
    OverloadedOperatorKind K = OA->getOperator();
    const FunctionDecl *FA = OA->getDirectCallee();
    // `deleters_[i - 1]` of a standard library's container: its `[]` only
    // finds the element (simgrid's `Extendable`, `if (deleters_[i - 1])
    // deleters_[i - 1](..)`). A map's `[]` inserts, and is not read here.
    if (K == OO_Subscript && OB->getOperator() == K && FA &&
        FA == OB->getDirectCallee() && OA->getNumArgs() == 2 &&
        OB->getNumArgs() == 2 &&
        FA->getASTContext().getSourceManager().isInSystemHeader(
            FA->getLocation()) &&
        !insertsWhatItDoesNotFind(*FA))
      return sameObject(OA->getArg(0), OB->getArg(0)) &&
             sameIndex(OA->getArg(1), OB->getArg(1));
    if ((K != OO_Arrow && K != OO_Star) || OB->getOperator() != K || !FA ||
        FA != OB->getDirectCallee() || OA->getNumArgs() != 1 ||
        OB->getNumArgs() != 1)
      return false;
    const auto *MA = dyn_cast<CXXMethodDecl>(FA);
    if (!FA->getASTContext().getSourceManager().isInSystemHeader(
            FA->getLocation()) &&
        !(MA && MA->isConst() && !MA->isVolatile()))
      return false;
    return sameObject(OA->getArg(0), OB->getArg(0));
  }
  return false;
}

bool testedSameExpressionAt(const Stmt &Call, const Expr &Callable,
                            const Stmt &Body, ParentMap &PM,
                            const CallableTypes &Types, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Called = stripNoise(&Callable);
  for (const CallableTest &T : callableTestsAt(Call, PM, Types, Ctx)) {
    if (!T.NonEmpty || !T.Tested || !sameObject(stripNoise(T.Tested), Called))
      continue;
    WritesBetween W(SM.getExpansionLoc(T.Tested->getEndLoc()),
                    SM.getExpansionLoc(Call.getBeginLoc()), SM);
    W.TraverseStmt(const_cast<Stmt *>(&Body));
    if (!W.Found)
      return true;
  }
  return false;
}

/// Whether evaluating S ends the process on every evaluation: a call (or a
/// temporary's destructor) for which Terminates holds. The operands that
/// only some evaluations reach (the arms of `?:`, the right of `&&` and
/// `||`) and lambda bodies do not count.
static bool
endsProcess(const Stmt *S,
            llvm::function_ref<bool(const FunctionDecl &)> Terminates) {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return false;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return endsProcess(CO->getCond(), Terminates);
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return endsProcess(BO->getLHS(), Terminates);
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && Terminates(*FD))
      return true;
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S))
    if (const CXXDestructorDecl *D = Bind->getTemporary()->getDestructor();
        D && Terminates(*D))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return endsProcess(Child, Terminates);
  });
}

/// Whether control that enters Branch ends the process there: its
/// statements, in order, reach one that does before any that could leave
/// the branch (a `return`, a `break`, a statement with control flow).
static bool
branchEndsProcess(const Stmt *Branch,
                  llvm::function_ref<bool(const FunctionDecl &)> Terminates) {
  if (!Branch)
    return false;
  if (const auto *CS = dyn_cast<CompoundStmt>(Branch)) {
    for (const Stmt *S : CS->body()) {
      if (!isa<Expr, DeclStmt, NullStmt, DoStmt>(S))
        return false;
      if (branchEndsProcess(S, Terminates))
        return true;
      if (isa<DoStmt>(S))
        return false;
    }
    return false;
  }
  // `do { ... } while (0)`, the usual body of a statement macro.
  if (const auto *Do = dyn_cast<DoStmt>(Branch))
    return branchEndsProcess(Do->getBody(), Terminates);
  if (isa<Expr, DeclStmt>(Branch))
    return endsProcess(Branch, Terminates);
  return false;
}

bool assertsNonEmpty(
    const Expr &Test, ParentMap &PM,
    llvm::function_ref<bool(const FunctionDecl &)> Terminates,
    llvm::function_ref<std::optional<unsigned>(const FunctionDecl &)> OnlyIf) {
  // What Cur evaluates to when the tested value is empty: `f == nullptr` is
  // true, every other test (`f`, `f != nullptr`, `o.has_value()`) false.
  std::optional<Equality> Eq = equalityOf(Test);
  bool WhenEmpty = Eq && Eq->IsEq;
  const Stmt *Cur = &Test;
  for (const Stmt *P = PM.getParent(Cur); P; Cur = P, P = PM.getParent(P)) {
    if (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr, ExprWithCleanups>(P))
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->getOpcode() != UO_LNot)
        return false;
      WhenEmpty = !WhenEmpty;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      // An empty value decides `a && b` only when it makes its side false,
      // and `a || b` only when it makes its side true.
      if ((BO->getOpcode() == BO_LAnd && !WhenEmpty) ||
          (BO->getOpcode() == BO_LOr && WhenEmpty))
        continue;
      return false;
    }
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      // `__builtin_expect(!(cond), 0)`, in the checking macros.
      if (Call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
          Call->getNumArgs() >= 1 && Call->getArg(0) == Cur)
        continue;
      // The argument an assertion function ends the process without.
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          OnlyIf && Callee && !WhenEmpty && !isa<CXXOperatorCallExpr>(Call))
        if (std::optional<unsigned> I = OnlyIf(*Callee);
            I && *I < Call->getNumArgs() && Call->getArg(*I) == Cur)
          return true;
      return false;
    }
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getCond() != Cur)
        return false;
      return branchEndsProcess(WhenEmpty ? If->getThen() : If->getElse(),
                               Terminates);
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (CO->getCond() != Cur)
        return false;
      return endsProcess(WhenEmpty ? CO->getTrueExpr() : CO->getFalseExpr(),
                         Terminates);
    }
    return false;
  }
  return false;
}

const Expr *testedCallable(const Expr &E, const CallableTypes &Types,
                           ASTContext &Ctx) {
  auto Nullable = [&](const Expr *X) {
    return X && Types.isNullable(X->getType());
  };
  if (const auto *Cast = dyn_cast<CastExpr>(&E)) {
    if ((Cast->getCastKind() == CK_PointerToBoolean ||
         Cast->getCastKind() == CK_MemberPointerToBoolean) &&
        Nullable(Cast->getSubExpr()))
      return Cast->getSubExpr();
    return nullptr;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!M || !Obj)
      return nullptr;
    if (!Nullable(Obj))
      Obj = stripNoise(Obj); // Smart pointers declare operator bool in a base.
    if (!Nullable(Obj))
      return nullptr;
    if (const auto *Conv = dyn_cast<CXXConversionDecl>(M))
      return Conv->getConversionType()->isBooleanType() ? Obj : nullptr;
    if (M->getIdentifier() && M->getName() == "has_value")
      return Obj;
    return nullptr;
  }
  std::optional<NullComparison> NC = nullComparisonOf(E, Ctx);
  return NC && Nullable(NC->Operand) ? NC->Operand : nullptr;
}

} // namespace wrapguard
