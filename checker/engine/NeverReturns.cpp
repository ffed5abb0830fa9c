//===- NeverReturns.cpp - Functions no call of which comes back -----------===//

#include "NeverReturns.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

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
  if (!FD.getReturnType()->isVoidType() || !FD.hasBody(Def) || !Def ||
      Def->isDependentContext() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return Answers[Key] = false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
        !MD->getParent()->hasAttr<FinalAttr>())
      return Answers[Key] = false; // Callers may reach an override.
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
    return false;
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
      return false;
    // Clang marks the blocks of declared-noreturn calls, throwing or not.
    if (B->hasNoReturnElement() && !Process)
      continue;
    bool Stops = false, Throws = false;
    for (const CFGElement &Elt : *B) {
      if (auto S = Elt.getAs<CFGStmt>())
        Throws |= isa<CXXThrowExpr>(S->getStmt());
      if (stopsAt(Elt, Process)) {
        Stops = true;
        break;
      }
    }
    // A throw leaves the function, and the process goes on in a caller.
    if (Throws && Process && !Stops)
      return false;
    if (Stops)
      continue;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ || (Throws && Succ == &Exit))
        continue;
      if (Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  return true;
}

} // namespace wrapguard
