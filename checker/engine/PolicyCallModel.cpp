//===- PolicyCallModel.cpp - Dataflow model of nullable callables ---------===//

#include "PolicyCallModel.h"
#include "CallableValues.h"
#include "CatchHandlers.h"
#include "DeadLocals.h"
#include "PolicyCallTransfer.h"
#include "SkippedConstructs.h"
#include "Wording.h"
#include "clang/Analysis/FlowSensitive/AdornedCFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/TypeErasedDataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

Emptiness judgeState(const CallableState &S, const PathQuery &Q) {
  if (Q.proves(S.NonEmpty->formula()))
    return Emptiness::NonEmpty;
  if (Q.proves(S.NonEmpty->formula(), /*Negated=*/true))
    return Emptiness::AlwaysEmpty;
  if (S.Tracked && Q.proves(S.Tracked->formula()))
    return Emptiness::MayBeEmpty;
  return Emptiness::Unknown;
}

PolicyCallModel::PolicyCallModel(ASTContext &Ctx, Environment &Env,
                                 const CallableTypes &Types,
                                 CallResultOracle &Oracle, TestedAtoms &Atoms,
                                 const OpenMPCopies *Copies, bool ThrowsLeave)
    : DataflowAnalysis(Ctx), Types(Types), Oracle(Oracle), Atoms(Atoms),
      ThrowsLeave(ThrowsLeave) {
  if (Copies && !Copies->empty())
    OpenMP = std::make_unique<OpenMPObjects>(*Copies);
  QualType BoolTy = Ctx.BoolTy;
  const CallableTypes *T = &Types;
  Env.getDataflowAnalysisContext().setSyntheticFieldCallback(
      [T, BoolTy](QualType Ty) -> llvm::StringMap<QualType> {
        if (!isRecordKind(T->classify(Ty)))
          return {};
        return {{NonEmptyName, BoolTy}, {TrackedName, BoolTy}};
      });
}

/// The expression whose truth an assertion function's parameter I takes:
/// the argument, or the condition that was converted to an integer for it
/// (`check(f != nullptr)` with `void check(int ok)`).
static const Expr *truthArgument(const CallExpr &Call, unsigned I) {
  const Expr *Arg = Call.getArg(I);
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Arg->IgnoreParens());
      Cast && Cast->getCastKind() == CK_IntegralCast &&
      Cast->getSubExpr()->getType()->isBooleanType())
    return Cast->getSubExpr();
  return Arg;
}

void PolicyCallModel::transfer(const CFGElement &Elt, PathLattice &L,
                               Environment &Env) {
  if (auto S = Elt.getAs<CFGStmt>()) {
    TransferContext C{getASTContext(), Types,         Oracle,
                      Atoms,           KeyPresence,   Statics,
                      PureResults,     PureObjects,   Elements,
                      PointeeSlots,    FirstPointees, OpenMP.get()};
    transferStatement(*S->getStmt(), C, Env);
  }
  // Clang's CFG cuts paths at calls declared noreturn; a function that
  // never returns by its body (a logger that always throws) is cut here:
  // nothing after it runs, so it proves everything and decides nothing.
  // The CFG sends a throw that nothing in the function catches to the exit
  // block, where it would join the paths that return: the object a
  // constructor left half-built, or a method's state when it failed.
  bool Throws = ThrowsLeave && Elt.getAs<CFGStmt>() &&
                isa<CXXThrowExpr>(Elt.castAs<CFGStmt>().getStmt());
  if (Throws || Oracle.endsPath(Elt)) {
    L.markUnreachable();
    // On a fork: a constraint added to a flow condition holds for every
    // state forked from it before, and the state before this element may
    // have been kept as where a try block throws (CatchHandlers.h).
    Env = Env.fork();
    Env.assume(Env.arena().makeLiteral(false));
    return;
  }
  // Past a call of an assertion function of the project's, what it was
  // handed holds (`AssertIn(f != nullptr, "..")`): on the other paths the
  // callee never returns. On a fork, as above.
  if (auto S = Elt.getAs<CFGStmt>())
    if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
        Call && !isa<CXXOperatorCallExpr>(Call))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (std::optional<unsigned> I = Oracle.returnsOnlyIf(*Callee);
            I && *I < Call->getNumArgs())
          // An integer argument that is no converted condition (`check(3)`)
          // has an integer value, or none: nothing to assume.
          if (const auto *V = dyn_cast_or_null<BoolValue>(
                  Env.getValue(*truthArgument(*Call, *I)))) {
            L.assume(V->formula(), true, Atoms);
            Env = Env.fork();
            Env.assume(V->formula());
          }
  // A local's scope ends: nothing can name it again, so the state stops
  // carrying it (see DeadLocals.h).
  if (auto End = Elt.getAs<CFGLifetimeEnds>())
    if (const VarDecl *V = End->getVarDecl())
      dropDeadLocal(*V, Env, L, Atoms);
}

void PolicyCallModel::transferBranch(bool Branch, const Stmt *Cond,
                                     PathLattice &L, const Environment &Env) {
  const auto *E = dyn_cast_or_null<Expr>(Cond);
  if (!E)
    return;
  if (const auto *V = dyn_cast_or_null<BoolValue>(Env.getValue(*E)))
    L.assume(V->formula(), Branch, Atoms);
}

//===----------------------------------------------------------------------===//
// Joins and widening of pointer states. Record states live in synthetic bool
// fields, which the framework joins and widens itself.
//===----------------------------------------------------------------------===//

namespace {
/// What an environment proves of one boolean of a state. compare and widen
/// ask each question once, here, and decide from the answers.
enum class BoolProof { Absent, Top, True, False, Unknown };

BoolProof proofOf(const BoolValue *B, const Environment &Env) {
  if (!B)
    return BoolProof::Absent;
  if (isa<TopBoolValue>(B))
    return BoolProof::Top;
  if (provesCheaply(Env, B->formula()))
    return BoolProof::True;
  if (Env.proves(Env.arena().makeNot(B->formula())))
    return BoolProof::False;
  return BoolProof::Unknown;
}

/// One boolean of a state on both sides of a comparison or a widening.
struct BoolPair {
  const BoolValue *Prev, *Cur;
  BoolProof PrevProof = BoolProof::Absent, CurProof = BoolProof::Absent;

  BoolPair(const BoolValue *P, const Environment &PrevEnv, const BoolValue *C,
           const Environment &CurEnv)
      : Prev(P), Cur(C) {
    if (P == C)
      return; // Identical values need no question.
    PrevProof = proofOf(P, PrevEnv);
    CurProof = proofOf(C, CurEnv);
  }

  /// Both sides denote the same boolean: one value, Top on both, or the same
  /// proven literal.
  bool same() const {
    if (Prev == Cur)
      return true;
    return PrevProof == CurProof &&
           (PrevProof == BoolProof::Top || PrevProof == BoolProof::True ||
            PrevProof == BoolProof::False);
  }

  /// Widens towards Top; a value already Top, or the same literal on both
  /// sides, stays. This makes widening idempotent, so loops converge.
  BoolValue &widen(Environment &CurEnv, bool &Changed) const {
    if (Prev && (Prev == Cur || PrevProof == BoolProof::Top))
      return const_cast<BoolValue &>(*Prev);
    if (same() && PrevProof == BoolProof::True)
      return CurEnv.getBoolLiteralValue(true);
    if (same() && PrevProof == BoolProof::False)
      return CurEnv.getBoolLiteralValue(false);
    Changed = true;
    return CurEnv.makeTopBoolValue();
  }
};
} // namespace

ComparisonResult PolicyCallModel::compare(QualType Type, const Value &Val1,
                                          const Environment &Env1,
                                          const Value &Val2,
                                          const Environment &Env2) {
  if (Atoms.exhausted())
    return ComparisonResult::Unknown;
  const auto *P1 = dyn_cast<PointerValue>(&Val1);
  const auto *P2 = dyn_cast<PointerValue>(&Val2);
  if (!P1 || !P2)
    return ComparisonResult::Unknown;
  CallableState S1 = stateOfPointer(*P1), S2 = stateOfPointer(*P2);
  if (!S1.NonEmpty && !S2.NonEmpty)
    return ComparisonResult::Unknown;
  return BoolPair(S1.NonEmpty, Env1, S2.NonEmpty, Env2).same() &&
                 BoolPair(S1.Tracked, Env1, S2.Tracked, Env2).same()
             ? ComparisonResult::Same
             : ComparisonResult::Different;
}

static BoolValue &joinBool(const BoolValue *B1, const Environment &Env1,
                           const BoolValue *B2, const Environment &Env2,
                           Environment &JoinedEnv) {
  if (B1 && B1 == B2)
    return const_cast<BoolValue &>(*B1);
  BoolValue &J = JoinedEnv.makeAtomicBoolValue();
  if (!B1 || !B2)
    return J;
  Arena &A = JoinedEnv.arena();
  JoinedEnv.assume(
      A.makeOr(A.makeAnd(A.makeAtomRef(Env1.getFlowConditionToken()),
                         A.makeEquals(J.formula(), B1->formula())),
               A.makeAnd(A.makeAtomRef(Env2.getFlowConditionToken()),
                         A.makeEquals(J.formula(), B2->formula()))));
  return J;
}

void PolicyCallModel::join(QualType Type, const Value &Val1,
                           const Environment &Env1, const Value &Val2,
                           const Environment &Env2, Value &JoinedVal,
                           Environment &JoinedEnv) {
  const auto *P1 = dyn_cast<PointerValue>(&Val1);
  const auto *P2 = dyn_cast<PointerValue>(&Val2);
  if (!P1 || !P2 || !isa<PointerValue>(JoinedVal))
    return;
  CallableState S1 = stateOfPointer(*P1), S2 = stateOfPointer(*P2);
  if (!S1.NonEmpty && !S2.NonEmpty)
    return;
  JoinedVal.setProperty(
      NonEmptyName, joinBool(S1.NonEmpty, Env1, S2.NonEmpty, Env2, JoinedEnv));
  JoinedVal.setProperty(
      TrackedName, joinBool(S1.Tracked, Env1, S2.Tracked, Env2, JoinedEnv));
}

std::optional<WidenResult> PolicyCallModel::widen(QualType Type, Value &Prev,
                                                  const Environment &PrevEnv,
                                                  Value &Current,
                                                  Environment &CurrentEnv) {
  auto *P1 = dyn_cast<PointerValue>(&Prev);
  auto *P2 = dyn_cast<PointerValue>(&Current);
  if (!P1 || !P2 || Atoms.exhausted())
    return std::nullopt;
  CallableState S1 = stateOfPointer(*P1), S2 = stateOfPointer(*P2);
  if (!S1.NonEmpty && !S2.NonEmpty)
    return std::nullopt;
  BoolPair NonEmpty(S1.NonEmpty, PrevEnv, S2.NonEmpty, CurrentEnv);
  BoolPair Tracked(S1.Tracked, PrevEnv, S2.Tracked, CurrentEnv);
  if (NonEmpty.same() && Tracked.same())
    return WidenResult{&Prev, LatticeEffect::Unchanged};
  bool Changed = false;
  BoolValue &N = NonEmpty.widen(CurrentEnv, Changed);
  BoolValue &T = Tracked.widen(CurrentEnv, Changed);
  if (!Changed && &N == S1.NonEmpty && &T == S1.Tracked)
    return WidenResult{&Prev, LatticeEffect::Unchanged};
  auto &W = CurrentEnv.create<PointerValue>(P2->getPointeeLoc());
  W.setProperty(NonEmptyName, N);
  W.setProperty(TrackedName, T);
  return WidenResult{&W, LatticeEffect::Changed};
}

//===----------------------------------------------------------------------===//
// Driver.
//===----------------------------------------------------------------------===//

char AnalysisSkipped::ID;

void AnalysisSkipped::log(llvm::raw_ostream &OS) const {
  OS << skippedMessage("", Why);
}

std::error_code AnalysisSkipped::convertToErrorCode() const {
  return std::make_error_code(std::errc::interrupted);
}

/// The framework models a field of a class only where the analysed function
/// names it (and where an accessor returns it as it is): in `if
/// (!ws->registered()) return; ws->run();` the callable field that
/// `registered()` tests and `run()` calls is not modelled in the caller, so
/// no summary of those methods could say anything of it. Each class whose
/// methods FD calls on an object gets its callable fields modelled: an
/// environment over implicit references to them, initialised in DACtx
/// before FD's own, extends the context's modelled fields (the framework's
/// only way to extend them).
static void modelFieldsOfCalledClasses(const FunctionDecl &FD,
                                       DataflowAnalysisContext &DACtx,
                                       ASTContext &Ctx,
                                       const CallableTypes &Types,
                                       CallResultOracle &Oracle) {
  // Enough for the objects a function works with; each class adds its
  // fields to every environment of the analysis.
  constexpr unsigned MaxClasses = 8;
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Classes;
  // Getters of a member of a member subobject (`return m_data.m_cb;`): the
  // fields on the way, so that the call can denote the member
  // (Transfer::memberGetter).
  llvm::SmallVector<std::pair<const CXXRecordDecl *, FieldPath>, 4> Paths;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Classes.size() >= MaxClasses)
      return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      if (const CXXMethodDecl *MD = MC->getMethodDecl();
          MD && Paths.size() < MaxClasses)
        if (FieldPath P = Oracle.fieldReturned(*MD); P.size() > 1)
          Paths.push_back({MD->getParent(), std::move(P)});
      // The project's classes: a library's callable (std::function's own
      // function pointers) is modelled by its state, not by its fields.
      if (const CXXRecordDecl *RD = MC->getRecordDecl())
        if (RD->hasDefinition() && !RD->isDependentContext() &&
            !Ctx.getSourceManager().isInSystemHeader(RD->getLocation()) &&
            Types.classify(Ctx.getRecordType(RD)) == CallableKind::None)
          Classes.insert(RD->getDefinition());
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD.getBody());
  llvm::SmallVector<Stmt *, 8> Refs;
  for (const CXXRecordDecl *RD : Classes) {
    Expr *Object = nullptr;
    for (FieldDecl *F : RD->fields()) {
      if (!Types.isNullable(F->getType()))
        continue;
      if (!Object)
        Object = new (Ctx)
            OpaqueValueExpr(SourceLocation(), Ctx.getRecordType(RD), VK_LValue);
      Refs.push_back(MemberExpr::CreateImplicit(
          Ctx, Object, /*IsArrow=*/false, F, F->getType().getNonReferenceType(),
          VK_LValue, OK_Ordinary));
    }
  }
  for (const auto &[RD, Path] : Paths) {
    Expr *E = new (Ctx)
        OpaqueValueExpr(SourceLocation(), Ctx.getRecordType(RD), VK_LValue);
    for (const FieldDecl *F : Path)
      E = MemberExpr::CreateImplicit(
          Ctx, E, /*IsArrow=*/false, const_cast<FieldDecl *>(F),
          F->getType().getNonReferenceType(), VK_LValue, OK_Ordinary);
    Refs.push_back(E);
  }
  if (Refs.empty())
    return;
  CompoundStmt *Uses = CompoundStmt::Create(Ctx, Refs, FPOptionsOverride(),
                                            SourceLocation(), SourceLocation());
  Environment(DACtx, *Uses).initialize();
}

llvm::Error runPolicyCallModel(
    const FunctionDecl &FD, ASTContext &Ctx, const CallableTypes &Types,
    CallResultOracle &Oracle, std::int64_t MaxSolverIterations,
    std::int32_t MaxBlockVisits,
    llvm::function_ref<void(const CFGElement &, const PathQuery &)> Visit,
    llvm::function_ref<void(const PathQuery &)> AtExit) {
  ConstructScan Scan = scanConstructs(FD);
  if (!Scan.Unsupported.empty())
    return llvm::make_error<AnalysisSkipped>(
        SkipReason::construct(Scan.Unsupported));
  std::optional<OpenMPCopies> Copies;
  if (Scan.OpenMP) {
    Copies.emplace(FD, Types);
    if (!Copies->unsupported().empty())
      return llvm::make_error<AnalysisSkipped>(
          SkipReason::construct(Copies->unsupported()));
  }
  llvm::Expected<AdornedCFG> CFG = AdornedCFG::build(FD);
  if (!CFG)
    return CFG.takeError();
  BudgetedSolver Solver(MaxSolverIterations);
  DataflowAnalysisContext DACtx(Solver);
  modelFieldsOfCalledClasses(FD, DACtx, Ctx, Types, Oracle);
  Environment Env(DACtx, FD);
  TestedAtoms Atoms;
  Atoms.setSolver(&Solver);
  PolicyCallModel Model(Ctx, Env, Types, Oracle, Atoms,
                        Copies ? &*Copies : nullptr, !Scan.Try);
  std::optional<CatchHandlers> Handlers;
  if (Scan.Try)
    Handlers.emplace(FD);
  CFGEltCallbacksTypeErased Callbacks;
  Callbacks.Before = [&](const CFGElement &Elt,
                         const TypeErasedDataflowAnalysisState &State) {
    const auto &L = llvm::any_cast<const PathLattice &>(State.Lattice.Value);
    if (Handlers)
      Handlers->noteState(Elt, State.Env, L, Model);
    Visit(Elt, PathQuery(State.Env, L, Atoms));
  };
  // What went wrong in one run of the framework: a budget, or an error.
  auto Failed = [&](auto &States) -> std::optional<llvm::Error> {
    if (Solver.reachedLimit()) {
      if (!States)
        llvm::consumeError(States.takeError());
      return llvm::make_error<AnalysisSkipped>(
          SkipReason::budget("MaxSolverIterations"));
    }
    if (!States)
      // The framework reports its block-visit limit as timed_out.
      return llvm::handleErrors(
          States.takeError(), [](const llvm::StringError &E) -> llvm::Error {
            if (E.convertToErrorCode() ==
                std::make_error_code(std::errc::timed_out))
              return llvm::make_error<AnalysisSkipped>(
                  SkipReason::budget("MaxBlockVisits"));
            return llvm::createStringError(E.convertToErrorCode(),
                                           E.getMessage());
          });
    return std::nullopt;
  };
  auto States = runTypeErasedDataflowAnalysis(*CFG, Model, Env, Callbacks,
                                              MaxBlockVisits);
  if (std::optional<llvm::Error> Err = Failed(States))
    return std::move(*Err);
  // The handlers of each try statement, from where its block may throw
  // (CatchHandlers.h); those inside a handler after it.
  while (Handlers) {
    std::optional<CatchHandlers::Entry> Entry = Handlers->takeNext();
    if (!Entry)
      break;
    Environment Start = continueIn(*Entry->Env, FD, Ctx);
    Model.seed(std::move(Entry->Known));
    for (unsigned I = 0; I < Entry->Try->getNumHandlers(); ++I) {
      llvm::Expected<AdornedCFG> HandlerCFG = AdornedCFG::build(
          FD, *const_cast<CXXCatchStmt *>(Entry->Try->getHandler(I)), Ctx);
      if (!HandlerCFG)
        return HandlerCFG.takeError();
      auto HandlerStates = runTypeErasedDataflowAnalysis(
          *HandlerCFG, Model, Start, Callbacks, MaxBlockVisits);
      if (std::optional<llvm::Error> Err = Failed(HandlerStates))
        return std::move(*Err);
    }
    Model.seed(PathLattice());
  }
  if (AtExit) {
    const auto &Exit = (*States)[CFG->getCFG().getExit().getBlockID()];
    if (Exit)
      AtExit(PathQuery(Exit->Env,
                       llvm::any_cast<const PathLattice &>(Exit->Lattice.Value),
                       Atoms));
  }
  return llvm::Error::success();
}

} // namespace wrapguard
