//===- CatchHandlers.cpp - Where a try statement's handlers start ---------===//

#include "CatchHandlers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

namespace {
/// Maps each statement of a try block to its innermost try statement.
void indexTries(const Stmt *S, const CXXTryStmt *Within,
                llvm::DenseMap<const Stmt *, const CXXTryStmt *> &InTry) {
  if (!S)
    return;
  // A lambda's body runs where the lambda is called, not where it is made;
  // its captures' initialisers run here.
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    if (Within)
      InTry[S] = Within;
    for (const Expr *Init : L->capture_inits())
      indexTries(Init, Within, InTry);
    return;
  }
  if (Within)
    InTry[S] = Within;
  if (const auto *T = dyn_cast<CXXTryStmt>(S)) {
    indexTries(T->getTryBlock(), T, InTry);
    // A handler's code is not in the try block. A throw there leaves for
    // the enclosing try statement, whose handlers this approximation does
    // not reach from it; try statements inside the handler are indexed.
    for (unsigned I = 0; I < T->getNumHandlers(); ++I)
      indexTries(T->getHandler(I)->getHandlerBlock(), nullptr, InTry);
    return;
  }
  // A DeclStmt's children are its variables' initialisers: a local class's
  // methods are not among them, and are analysed on their own.
  for (const Stmt *Child : S->children())
    indexTries(Child, Within, InTry);
}

/// Whether evaluating S may throw where it matters: a call that does work
/// (not an assignment, not a callee declared not to throw), a construction
/// that runs a constructor of the user's (not a copy or a move), `new` or
/// `throw`. An assignment that threw would leave its target as it was,
/// but counting the state before each one would make every
/// `if (!cb) cb = dflt;` at the top of a try block a finding in its
/// handler.
bool mayThrow(const Stmt &S) {
  if (isa<CXXNewExpr, CXXThrowExpr>(S))
    return true;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(&S)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    return Ctor && Ctor->isUserProvided() && !Ctor->isCopyOrMoveConstructor() &&
           !Ctor->getParent()->isLambda() &&
           !Ctor->getType()->castAs<FunctionProtoType>()->isNothrow();
  }
  const auto *Call = dyn_cast<CallExpr>(&S);
  if (!Call)
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->isAssignmentOp())
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Callee);
      M && (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()))
    return false;
  const auto *Proto =
      Callee ? Callee->getType()->getAs<FunctionProtoType>() : nullptr;
  return !Proto || !Proto->isNothrow();
}
} // namespace

CatchHandlers::CatchHandlers(const FunctionDecl &FD) {
  indexTries(FD.getBody(), nullptr, InTry);
}

void CatchHandlers::noteState(const CFGElement &Elt, const Environment &Env,
                              const PathLattice &L,
                              Environment::ValueModel &Model) {
  auto S = Elt.getAs<CFGStmt>();
  if (!S || !mayThrow(*S->getStmt()) || L.contradiction())
    return;
  auto It = InTry.find(S->getStmt());
  if (It == InTry.end())
    return;
  auto [At, New] = IndexOf.try_emplace(It->second, Pending.size());
  if (New)
    Pending.push_back(Entry{It->second, std::nullopt, PathLattice(), 0});
  Entry &E = Pending[At->second];
  // A try block lies in one analysed region, which is over before its
  // entry is handed out; nothing adds to an entry after that.
  if (At->second < Next || E.Points >= MaxPoints)
    return;
  ++E.Points;
  if (!E.Env) {
    E.Env.emplace(Env.fork());
    E.Known = L;
    return;
  }
  E.Env.emplace(
      Environment::join(*E.Env, Env, Model, Environment::DiscardExprState));
  E.Known.join(L);
}

std::optional<CatchHandlers::Entry> CatchHandlers::takeNext() {
  if (Next >= Pending.size())
    return std::nullopt;
  return std::move(Pending[Next++]);
}

Environment continueIn(const Environment &Entry, const FunctionDecl &FD,
                       ASTContext &Ctx) {
  // pushCall with a call of FD itself, with no arguments and no result
  // object, moves the state into a call frame: the framework then takes it
  // as initialised, every parameter, local and field keeps its location
  // and value, and `this` stays the object it was.
  auto *Callee = DeclRefExpr::Create(
      Ctx, NestedNameSpecifierLoc(), SourceLocation(),
      const_cast<FunctionDecl *>(&FD), /*RefersToEnclosingVariableOrCapture=*/
      false, SourceLocation(), FD.getType(), VK_LValue);
  CallExpr *Call = CallExpr::Create(Ctx, Callee, {}, Ctx.VoidTy, VK_PRValue,
                                    SourceLocation(), FPOptionsOverride());
  return Entry.pushCall(Call);
}

} // namespace wrapguard
