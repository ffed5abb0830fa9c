//===- NeverReturns.cpp - Functions no call of which comes back -----------===//

#include "NeverReturns.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <utility>

using namespace clang;

namespace wrapguard {

/// How many definitions one question may open, nested (a logger calling a
/// formatter calling a thrower). Deeper chains are taken to return, which
/// only keeps code alive.
static constexpr unsigned MaxNeverReturnsDepth = 4;

/// The callee of a call that only an override could change: a virtual
/// method called through a pointer or reference may run another body.
static const FunctionDecl *directCallee(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || !MD->isVirtual())
    return FD;
  if (MD->hasAttr<FinalAttr>() || MD->getParent()->hasAttr<FinalAttr>())
    return FD;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      if (ME->hasQualifier())
        return FD;
  return nullptr;
}

const FunctionDecl *NeverReturns::stopsAt(const CFGElement &Elt, bool Process) {
  const FunctionDecl *Callee = nullptr;
  if (auto S = Elt.getAs<CFGStmt>()) {
    if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
      Callee = directCallee(*Call);
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(S->getStmt()))
      Callee = CE->getConstructor();
  } else if (auto D = Elt.getAs<CFGImplicitDtor>()) {
    Callee = D->getDestructorDecl(Ctx);
  }
  return Callee && ask(*Callee, Process) ? Callee : nullptr;
}

bool NeverReturns::operator()(const FunctionDecl &FD) {
  return ask(FD, /*Process=*/false);
}

bool NeverReturns::endsProcess(const FunctionDecl &FD) {
  return ask(FD, /*Process=*/true);
}

/// Whether no call of FD can throw: a non-throwing exception specification,
/// or C linkage (C code does not throw).
static bool cannotThrow(const FunctionDecl &FD) {
  if (FD.isExternC())
    return true;
  const auto *Proto = FD.getType()->getAs<FunctionProtoType>();
  return Proto && Proto->isNothrow(/*ResultIfDependent=*/false);
}

const FunctionDecl *NeverReturns::definitionToRead(const FunctionDecl &FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD.getReturnType()->isVoidType() || !FD.hasBody(Def) || !Def ||
      Def->isDependentContext() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  // Callers may reach an override.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
        !MD->getParent()->hasAttr<FinalAttr>())
      return nullptr;
  return Def;
}

bool NeverReturns::ask(const FunctionDecl &FD, bool Process) {
  // Asked at every call the engine meets: the answer for each declaration
  // is kept, negative ones included.
  auto &Answers = Process ? ProcessCache : Cache;
  const FunctionDecl *Key = FD.getCanonicalDecl();
  auto It = Answers.find(Key);
  if (It != Answers.end())
    return It->second;
  if (FD.isNoReturn() && (!Process || cannotThrow(FD)))
    return Answers[Key] = true;
  // `__attribute__((analyzer_noreturn))`: declared for analyzers, with the
  // body (an abort) in another TU (zmq's zmq_abort behind zmq_assert). It
  // ends the path; whether it throws is not said, so it is no assertion.
  if (!Process && FD.hasAttr<AnalyzerNoReturnAttr>())
    return Answers[Key] = true;
  // Only what could end a path in a project's code is read: functions that
  // return nothing (a function that returns a value has a reason to), and
  // constructors and destructors (fatal log-message objects). A system
  // header's functions that never return say so in their declarations.
  const FunctionDecl *Def = nullptr;
  if (Assume && !Process && !FD.hasBody(Def) && Assume(FD)) {
    Assumed.insert(Key);
    return Answers[Key] = true;
  }
  Def = definitionToRead(FD);
  if (!Def)
    return Answers[Key] = false;
  if (InProgress.size() >= MaxNeverReturnsDepth || InProgress.count(Key)) {
    Truncated = true;
    return false;
  }
  bool OuterTruncated = std::exchange(Truncated, false);
  InProgress.insert(Key);
  bool Result = ofDefinition(*Def, Process);
  InProgress.erase(Key);
  // "Never returns" holds whatever was cut short (a cut-short callee was
  // taken to return); "returns" may not.
  if (Result || !Truncated)
    Answers[Key] = Result;
  Truncated |= OuterTruncated;
  return Result;
}

bool NeverReturns::ofDefinition(const FunctionDecl &Def, bool Process) {
  return !mayReturn(Def, Process, /*Falsified=*/nullptr);
}

/// Whether E is Param, read as it is.
static bool isParam(const Expr *E, const ParmVarDecl &Param) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref && Ref->getDecl() == &Param;
}

/// Whether Cond tests Param's truth, and which way: 1 when Cond is true
/// exactly when Param is (`ok`, `ok != 0`), 0 when exactly when it is false
/// (`!ok`, `ok == 0`), -1 when it is no such test.
static int truthOf(const Expr *Cond, const ParmVarDecl &Param) {
  if (!Cond)
    return -1;
  if (isParam(Cond, Param))
    return 1;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
      Not && Not->getOpcode() == UO_LNot)
    return isParam(Not->getSubExpr(), Param) ? 0 : -1;
  const auto *Cmp = dyn_cast<BinaryOperator>(Cond);
  if (!Cmp || !Cmp->isEqualityOp())
    return -1;
  auto IsZero = [](const Expr *E) {
    const auto *Lit = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
    return Lit && Lit->getValue().isZero();
  };
  bool Eq = Cmp->getOpcode() == BO_EQ;
  if ((isParam(Cmp->getLHS(), Param) && IsZero(Cmp->getRHS())) ||
      (isParam(Cmp->getRHS(), Param) && IsZero(Cmp->getLHS())))
    return Eq ? 0 : 1;
  return -1;
}

bool NeverReturns::mayReturn(const FunctionDecl &Def, bool Process,
                             const ParmVarDecl *Falsified) {
  CFG::BuildOptions Opts;
  // Destructors and temporaries' destructors run code too: a fatal log
  // message object that throws when it dies (`Fatal() << msg;`) ends the
  // path like a call.
  Opts.AddImplicitDtors = true;
  Opts.AddTemporaryDtors = true;
  Opts.AddInitializers = true;
  std::unique_ptr<CFG> G =
      CFG::buildCFG(&Def, Def.getBody(), &Ctx, std::move(Opts));
  if (!G)
    return true;
  // Does any path from the entry reach the exit by returning? A throw's edge
  // to the exit is the exception leaving, not a return; a block that calls
  // a function that never returns ends there (Clang's CFG already sends
  // declared-noreturn calls straight to the exit: those blocks are marked).
  const CFGBlock &Exit = G->getExit();
  llvm::SmallVector<const CFGBlock *, 16> Work{&G->getEntry()};
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen{&G->getEntry()};
  // The CFG has no edges for exceptions: a try statement's handlers are
  // reached only from its dispatch block, which nothing precedes. A handler
  // may catch what ends the try block's paths and return; each is taken as
  // reachable, which only keeps code alive. Nothing catches the end of the
  // process.
  if (!Process)
    for (const CFGBlock *Dispatch : G->try_blocks())
      if (Dispatch && Seen.insert(Dispatch).second)
        Work.push_back(Dispatch);
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (B == &Exit)
      return true;
    // Clang marks the blocks of declared-noreturn calls, throwing or not.
    if (B->hasNoReturnElement() && !Process)
      continue;
    bool Stops = false, Throws = false;
    for (const CFGElement &Elt : *B) {
      if (auto S = Elt.getAs<CFGStmt>()) {
        Throws |= isa<CXXThrowExpr>(S->getStmt());
        // Handed to an assertion function of its own, a false Falsified
        // ends the path there too.
        if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
            Call && Falsified && !isa<CXXOperatorCallExpr>(Call)) {
          if (const FunctionDecl *Callee = directCallee(*Call))
            if (std::optional<unsigned> I = returnsOnlyIf(*Callee, Process);
                I && *I < Call->getNumArgs() &&
                isParam(Call->getArg(*I), *Falsified)) {
              Stops = true;
              break;
            }
        }
      }
      if (stopsAt(Elt, Process)) {
        Stops = true;
        break;
      }
    }
    // A throw leaves the function, and the process goes on in a caller.
    if (Throws && Process && !Stops)
      return true;
    if (Stops)
      continue;
    // Where the block branches on Falsified itself, only its false side is
    // taken: `if (!ok) Fail(msg);`, `ok ? (void)0 : Fail(msg)`, `if (ok)
    // return;`, `if (ok == 0) abort();`. The successors are the true side,
    // then the false one.
    int Only = -1;
    if (Falsified && B->succ_size() == 2)
      if (int Truth = truthOf(
              dyn_cast_or_null<Expr>(B->getTerminatorCondition()), *Falsified);
          Truth >= 0)
        Only = Truth;
    unsigned Index = 0;
    for (const CFGBlock *Succ : B->succs()) {
      bool Taken = Only < 0 || static_cast<int>(Index) == Only;
      ++Index;
      if (!Succ || !Taken || (Throws && Succ == &Exit))
        continue;
      if (Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  return false;
}

/// The parameters of Def that its body tests for truth in a branch (`if
/// (!ok)`, `ok ? .. : ..`, `ok || fail()`, `ok == 0`) or hands to a call:
/// the only ones an assertion can end the path on. Read before any CFG is
/// built, so that the many functions with integer parameters cost one walk
/// of the body.
static llvm::SmallPtrSet<const ParmVarDecl *, 4>
testedOrHanded(const FunctionDecl &Def) {
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Out;
  auto Note = [&](const Expr *Cond) {
    if (!Cond)
      return;
    for (const ParmVarDecl *P : Def.parameters())
      if (truthOf(Cond, *P) >= 0)
        Out.insert(P);
  };
  llvm::SmallVector<const Stmt *, 32> Work{Def.getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(S))
      Note(If->getCond());
    else if (const auto *While = dyn_cast<WhileStmt>(S))
      Note(While->getCond());
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
      Note(CO->getCond());
    else if (const auto *BO = dyn_cast<BinaryOperator>(S);
             BO && BO->isLogicalOp())
      Note(BO->getLHS()), Note(BO->getRHS());
    else if (const auto *Call = dyn_cast<CallExpr>(S))
      for (const Expr *Arg : Call->arguments())
        Note(Arg);
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Out;
}

std::optional<unsigned> NeverReturns::returnsOnlyIf(const FunctionDecl &FD,
                                                    bool Process) {
  std::pair<const FunctionDecl *, unsigned> Key{FD.getCanonicalDecl(), Process};
  if (auto It = OnlyIfCache.find(Key); It != OnlyIfCache.end())
    return It->second;
  // The definitions "never returns" reads.
  const FunctionDecl *Def = definitionToRead(FD);
  if (!Def)
    return OnlyIfCache[Key] = std::nullopt;
  // A body that tests none of its parameters asserts nothing; that costs
  // one walk of it, before any CFG (the facts ask of every function that
  // other TUs may call).
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Candidates = testedOrHanded(*Def);
  if (Candidates.empty())
    return OnlyIfCache[Key] = std::nullopt;
  // One that never returns at all is no assertion of anything (the answer
  // "never returns" keeps).
  if ((*this)(FD))
    return OnlyIfCache[Key] = std::nullopt;
  if (OnlyIfInProgress.size() >= MaxNeverReturnsDepth ||
      !OnlyIfInProgress.insert(Key.first).second)
    return std::nullopt; // not cached: cut short, not an answer
  std::optional<unsigned> Result;
  for (unsigned I = 0; I < Def->getNumParams() && !Result; ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    // An integer read as a truth value is a C-style flag (the transfer
    // takes the truth of a condition converted to it).
    if (!Candidates.count(P) || !P->getType()->isIntegralType(Ctx) ||
        P->getType().isVolatileQualified() || mayReturn(*Def, Process, P))
      continue;
    // A parameter the body may assign is not the value the caller passed.
    if (!ExprMutationAnalyzer(*Def->getBody(), Ctx).isMutated(P))
      Result = I;
  }
  OnlyIfInProgress.erase(Key.first);
  return OnlyIfCache[Key] = Result;
}

} // namespace wrapguard
