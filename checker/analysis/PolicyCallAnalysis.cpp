//===- PolicyCallAnalysis.cpp - Unchecked policy-call analysis ------------===//

#include "PolicyCallAnalysis.h"
#include "BodyIndex.h"
#include "CallableTypes.h"
#include "Captures.h"
#include "CompiledOutAssertions.h"
#include "Constructions.h"
#include "ExitsElsewhere.h"
#include "FactsCollector.h"
#include "FixIts.h"
#include "FlagParameters.h"
#include "ForwardingOperators.h"
#include "Guards.h"
#include "MethodsElsewhere.h"
#include "OpenMPCopies.h"
#include "PassedValues.h"
#include "PolicyCallDiagnoser.h"
#include "PolicyCallModel.h"
#include "PolicySummaries.h"
#include "SiblingSlots.h"
#include "SkippedConstructs.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "ValueSources.h"
#include "VouchingFlags.h"
#include "Wording.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

/// The expression a constructor's mem-initializer evaluates: its written
/// initializer, or, for a member initialized by its default member
/// initializer, that initializer (the CFG evaluates it in the constructor).
static const Expr *initializerExpr(const CXXCtorInitializer &Init) {
  const Expr *E = Init.getInit();
  if (const auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(E))
    return Default->getExpr();
  return E;
}

namespace {

/// Finds, cheaply, whether a function calls through a nullable callable at
/// all, in its body or, for a constructor, its mem-initializers; most
/// functions don't, and they skip the dataflow analysis entirely.
class CallSiteFinder : public RecursiveASTVisitor<CallSiteFinder> {
public:
  explicit CallSiteFinder(const CallableTypes &Types) : Types(Types) {}
  void traverseFunction(const FunctionDecl &FD) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (const Expr *E = initializerExpr(*Init); E && !Found)
          TraverseStmt(const_cast<Expr *>(E));
    if (!Found)
      TraverseStmt(FD.getBody());
  }
  bool VisitCallExpr(CallExpr *C) {
    if (matchCallSite(*C, Types))
      Found = true;
    return !Found;
  }
  // A lambda's body is analysed as its own function.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool Found = false;

private:
  const CallableTypes &Types;
};

} // namespace

//===----------------------------------------------------------------------===//
// The analyzer.
//===----------------------------------------------------------------------===//

class PolicyCallAnalyzer::Impl {
public:
  Impl(ASTContext &Ctx, AnalysisOptions O)
      : Ctx(Ctx), Opts(std::move(O)),
        Types(Opts.NullableCallableTypes, Opts.InvokeMethods),
        Summaries(Ctx, Opts, Types), Passed(Ctx, Types, Summaries, Opts),
        Cs(Ctx, Types, Indexes, Summaries, Opts, Passed),
        Caps(Ctx, Types, Summaries, Opts) {}

  std::vector<Finding> analyze(const FunctionDecl &FD, AnalysisStatus *Status,
                               SkipReason *Why);

  ASTContext &Ctx;
  AnalysisOptions Opts;
  CallableTypes Types;
  PolicySummaries Summaries;
  /// Shared by the findings of one function and by the facts collector.
  BodyIndexes Indexes;
  PassedValues Passed;
  Constructions Cs;
  Captures Caps;
  /// The sources of deferred findings, with their untested calls.
  ProjectFacts Untested;

private:
  /// The finding for one verdict, or none when nothing decides it.
  std::optional<Finding> judge(const PolicyCallVerdict &V,
                               const FunctionDecl &FD);
  /// For a call through a variable a lambda captures, its state where the
  /// lambda is made.
  std::optional<CaptureState> captureOf(const CallSite &Site,
                                        const FunctionDecl &FD);
  /// What the candidate's call site adds to the facts: the guards that hold
  /// there, the construction of the object called through, the lifecycle.
  void addContext(const CallSite &Site, const FunctionDecl &FD, Candidate &C);
  bool assignedIn(const FunctionDecl &FD, const clang::VarDecl &V);
  /// What last gave the call's callable its value before the call: an
  /// earlier mem-initializer of the field, or an event of a local.
  std::optional<BodyIndex::Event> latestOrigin(const CallSite &Site,
                                               const FunctionDecl &FD);
  /// When the call's callable is ME, a field of a local object (`b.f(x)`,
  /// `p->f(x)` with `p` a local): the object's last event before the call.
  std::optional<BodyIndex::Event> latestOfObject(const CallSite &Site,
                                                 const FunctionDecl &FD,
                                                 const MemberExpr &ME);
  bool addPrivateCopyNote(const CallSite &Site, const FunctionDecl &FD,
                          StringRef Name, Finding &F);
  bool addConstructedEmptyNote(const CallSite &Site, const FunctionDecl &FD,
                               Finding &F);
  /// FD's OpenMP copies, built for the function last asked about; null
  /// when it has no OpenMP directive.
  const OpenMPCopies *copiesIn(const FunctionDecl &FD);
  std::unique_ptr<OpenMPCopies> Copies;
  const FunctionDecl *CopiesOf = nullptr;
  void addOriginNote(const CallSite &Site, const FunctionDecl &FD,
                     StringRef Name, Finding &F);
  /// A nullable-callable class's own operator() or invoke method calling
  /// the class's callable: the handle's callers are the ones to check it.
  bool isHandleInvoking(const CallSite &Site, const FunctionDecl &FD);
  /// A lambda's call through a field that the code making the lambda tested
  /// set before making it.
  bool madeWhereFieldSet(const CallSite &Site, const FunctionDecl &FD);
  bool defer(const PolicyCallVerdict &V, const FunctionDecl &FD, StringRef Name,
             const CaptureState *Cap, Finding &F);
  void addExits(const FunctionDecl &FD, llvm::ArrayRef<const CallSite *> Sites,
                std::vector<Finding> &Findings);
  llvm::SmallPtrSet<const CallExpr *, 4>
  deadWith(const FunctionDecl &FD, llvm::ArrayRef<const FunctionDecl *> Exits,
           llvm::ArrayRef<AssertionHypothesis> Assertions,
           llvm::ArrayRef<const CallExpr *> Calls);
  void addGetters(const FunctionDecl &FD,
                  llvm::ArrayRef<const CallSite *> Sites,
                  std::vector<Finding> &Findings);
  llvm::SmallPtrSet<const CallExpr *, 4>
  deadUnder(const FunctionDecl &FD, CallResultOracle &Oracle,
            llvm::ArrayRef<const CallExpr *> Calls);
  Candidate &waitForFacts(Finding &F, const CallSite &Site);
};

static bool contains(const Expr &Root, const Stmt &S) {
  return &Root == &S || ParentMap(const_cast<Expr *>(&Root)).hasParent(&S);
}

/// Where the use of Call is judged for its repair: the mem-initializer's
/// expression when Call is in one (a statement-level `if` cannot go into an
/// initializer list), else FD's body.
static const Stmt &repairRoot(const CallExpr &Call, const FunctionDecl &FD) {
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (const Expr *E = initializerExpr(*Init); E && contains(*E, Call))
        return *E;
  return *FD.getBody();
}

/// A call in a constructor's mem-initializer through a field of the object
/// under construction that an earlier mem-initializer set (`: f_(g),
/// v_(f_(1))`) sees the value that initializer gave the field, not whatever
/// the class's other constructors put there: that initializer, or null.
static const CXXCtorInitializer *earlierFieldInit(const CallSite &Site,
                                                  const FunctionDecl &FD) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD);
  const auto *ME = dyn_cast<MemberExpr>(stripNoise(Site.Callable));
  if (!Ctor || !ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field)
    return nullptr;
  // inits() are in the order the fields are initialized.
  const CXXCtorInitializer *FieldInit = nullptr;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    const Expr *E = initializerExpr(*Init);
    if (!E)
      continue;
    if (contains(*E, *Site.Call))
      return FieldInit;
    if (Init->getMember() == Field &&
        (Init->isWritten() || isa<CXXDefaultInitExpr>(Init->getInit())))
      FieldInit = Init;
  }
  return nullptr;
}

std::vector<Finding> PolicyCallAnalyzer::Impl::analyze(const FunctionDecl &FD,
                                                       AnalysisStatus *Status,
                                                       SkipReason *Why) {
  auto SetStatus = [&](AnalysisStatus S) {
    if (Status)
      *Status = S;
  };
  SetStatus(AnalysisStatus::Skipped);
  if (!FD.doesThisDeclarationHaveABody() || FD.isDependentContext() ||
      FD.isInvalidDecl() || !FD.getBody())
    return {};
  CallSiteFinder Finder(Types);
  Finder.traverseFunction(FD);
  if (!Finder.Found) {
    SetStatus(AnalysisStatus::Analyzed);
    return {};
  }

  PolicyCallDiagnoser Diagnoser(Types);
  llvm::SmallVector<PolicyCallVerdict> Verdicts;
  // Only the project's facts can decide an undecided call; they set aside
  // the calls that pass its parameter empty with flags it cannot run with.
  FlagParameters Flags(FD);
  llvm::Error Err = runPolicyCallModel(
      FD, Ctx, Types, Summaries, Opts.MaxSolverIterations, Opts.MaxBlockVisits,
      [&](const CFGElement &Elt, const PathQuery &Q) {
        for (PolicyCallVerdict &V : Diagnoser(Elt, Q)) {
          if (V.State == Emptiness::Unknown && !Flags.empty())
            V.Requires = Flags.requiredAt(Q);
          Verdicts.push_back(std::move(V));
        }
      });
  if (Err) {
    // A budget that ran out or a construct names its reason; any other
    // error (a CFG that cannot be built) is a silent skip.
    AnalysisStatus S = AnalysisStatus::Skipped;
    llvm::handleAllErrors(
        std::move(Err),
        [&](const AnalysisSkipped &E) {
          S = E.reason().isBudget() ? AnalysisStatus::BudgetExceeded
                                    : AnalysisStatus::UnsupportedConstruct;
          if (Why)
            *Why = E.reason();
        },
        [](const llvm::ErrorInfoBase &) {});
    SetStatus(S);
    return {};
  }
  SetStatus(AnalysisStatus::Analyzed);

  std::vector<Finding> Findings;
  std::vector<const CallSite *> Sites;
  for (const PolicyCallVerdict &V : Verdicts)
    if (std::optional<Finding> F = judge(V, FD)) {
      Findings.push_back(std::move(*F));
      Sites.push_back(&V.Site);
    }
  if (!Findings.empty()) {
    addExits(FD, Sites, Findings);
    addGetters(FD, Sites, Findings);
  }
  return Findings;
}

/// The calls whose verdict, in FD's analysis under the hypothesis that
/// Exits never return and Assertions return only when their parameter is
/// true, would be no finding: not reached, or never empty.
llvm::SmallPtrSet<const CallExpr *, 4> PolicyCallAnalyzer::Impl::deadWith(
    const FunctionDecl &FD, llvm::ArrayRef<const FunctionDecl *> Exits,
    llvm::ArrayRef<AssertionHypothesis> Assertions,
    llvm::ArrayRef<const CallExpr *> Calls) {
  AssumedExits Oracle(Summaries, Exits, Assertions);
  return deadUnder(FD, Oracle, Calls);
}

/// The calls whose verdict, in FD's analysis with Oracle's answers, would
/// be no finding: not reached, or never empty.
llvm::SmallPtrSet<const CallExpr *, 4>
PolicyCallAnalyzer::Impl::deadUnder(const FunctionDecl &FD,
                                    CallResultOracle &Oracle,
                                    llvm::ArrayRef<const CallExpr *> Calls) {
  PolicyCallDiagnoser Diagnoser(Types);
  llvm::DenseMap<const CallExpr *, Emptiness> States;
  llvm::Error Err = runPolicyCallModel(
      FD, Ctx, Types, Oracle, Opts.MaxSolverIterations, Opts.MaxBlockVisits,
      [&](const CFGElement &Elt, const PathQuery &Q) {
        for (const PolicyCallVerdict &V : Diagnoser(Elt, Q))
          States[V.Site.Call] = V.State;
      });
  llvm::SmallPtrSet<const CallExpr *, 4> Dead;
  if (Err) {
    llvm::consumeError(std::move(Err));
    return Dead;
  }
  for (const CallExpr *Call : Calls) {
    auto It = States.find(Call);
    if (It == States.end() || It->second == Emptiness::NonEmpty)
      Dead.insert(Call);
  }
  return Dead;
}

/// A finding that needs a function FD calls without a visible definition to
/// return (ExitsElsewhere.h) waits for the project's facts to say whether
/// it does. Each such function that alone makes the call dead is one of the
/// candidate's Exits; a finding that needs several at once is left as it is.
/// Of those, each that makes the call dead as an assertion function (it
/// returns only when its truth parameter is true) is one of its Assertions
/// too: a function that never returns makes dead every call that it would
/// as an assertion, so only they are asked.
void PolicyCallAnalyzer::Impl::addExits(const FunctionDecl &FD,
                                        llvm::ArrayRef<const CallSite *> Sites,
                                        std::vector<Finding> &Findings) {
  // A few calls of fatal helpers are what this is for; the re-analyses are
  // bounded by their number.
  constexpr unsigned MaxExits = 6;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const FunctionDecl *, 4> Elsewhere =
      calledDefinedElsewhere(FD, SM, MaxExits);
  if (Elsewhere.empty())
    return;
  llvm::SmallVector<const CallExpr *, 4> Calls;
  for (const CallSite *Site : Sites)
    Calls.push_back(Site->Call);
  // First all at once: most findings do not depend on them.
  llvm::SmallPtrSet<const CallExpr *, 4> Any =
      deadWith(FD, Elsewhere, {}, Calls);
  if (Any.empty())
    return;
  std::vector<std::vector<std::string>> Keys(Calls.size());
  std::vector<std::vector<AssumedAssertion>> Asserted(Calls.size());
  for (const FunctionDecl *Exit : Elsewhere) {
    std::optional<std::string> Key = functionKey(*Exit);
    if (!Key)
      continue;
    llvm::SmallPtrSet<const CallExpr *, 4> Dead = deadWith(FD, Exit, {}, Calls);
    if (Dead.empty())
      continue;
    for (size_t I = 0; I < Calls.size(); ++I)
      if (Dead.count(Calls[I]))
        Keys[I].push_back(*Key);
    std::optional<unsigned> P = truthParameter(*Exit);
    if (!P)
      continue;
    AssertionHypothesis H{Exit, *P};
    llvm::SmallPtrSet<const CallExpr *, 4> DeadIf = deadWith(FD, {}, H, Calls);
    for (size_t I = 0; I < Calls.size(); ++I)
      if (DeadIf.count(Calls[I]))
        Asserted[I].push_back({*Key, *P});
  }
  for (size_t I = 0; I < Calls.size(); ++I) {
    if (Keys[I].empty())
      continue;
    Candidate &C = waitForFacts(Findings[I], *Sites[I]);
    C.Exits = std::move(Keys[I]);
    C.Assertions = std::move(Asserted[I]);
  }
}

/// A finding whose call a test of the same getter's result guards, if the
/// getter (a method FD calls that the TU sees without a definition) returns
/// its field, waits for the project's facts to say whether it does
/// (MethodsElsewhere.h). Each getter that alone guards the call is one of
/// the candidate's Getters.
void PolicyCallAnalyzer::Impl::addGetters(
    const FunctionDecl &FD, llvm::ArrayRef<const CallSite *> Sites,
    std::vector<Finding> &Findings) {
  // The re-analyses are bounded by the number of getters.
  constexpr unsigned MaxGetters = 8;
  auto Getters = gettersDefinedElsewhere(FD, Types, MaxGetters);
  if (Getters.empty())
    return;
  llvm::SmallVector<const CallExpr *, 4> Calls;
  for (const CallSite *Site : Sites)
    Calls.push_back(Site->Call);
  // First all at once: most findings call no getter's result.
  AssumedGetters All(Summaries, Getters);
  if (deadUnder(FD, All, Calls).empty())
    return;
  std::vector<std::vector<AssumedEffect>> Assumed(Calls.size());
  for (const auto &G : Getters) {
    std::optional<std::string> Method = functionKey(*G.first);
    std::optional<std::string> Field = fieldKey(*G.second);
    if (!Method || !Field)
      continue;
    AssumedGetters One(Summaries, G);
    llvm::SmallPtrSet<const CallExpr *, 4> Dead = deadUnder(FD, One, Calls);
    for (size_t I = 0; I < Calls.size(); ++I)
      if (Dead.count(Calls[I]))
        Assumed[I].push_back({*Method, *Field, AssumedEffect::ReturnsField});
  }
  for (size_t I = 0; I < Calls.size(); ++I)
    if (!Assumed[I].empty())
      waitForFacts(Findings[I], *Sites[I]).Getters = std::move(Assumed[I]);
}

/// F's candidate, made for a finding the TU decided: it then waits for the
/// facts only for what the TU assumed of functions defined elsewhere.
Candidate &PolicyCallAnalyzer::Impl::waitForFacts(Finding &F,
                                                  const CallSite &Site) {
  if (!F.Deferred) {
    Candidate C;
    C.Name = spelledText(stripNoise(Site.Callable)->getSourceRange(), Ctx);
    C.Decided = true;
    C.PolicyNames = Opts.PolicyNames;
    C.Strict = Opts.StrictMode;
    F.Deferred = std::move(C);
    F.OriginLoc = F.Loc;
  }
  return *F.Deferred;
}

std::optional<Finding>
PolicyCallAnalyzer::Impl::judge(const PolicyCallVerdict &V,
                                const FunctionDecl &FD) {
  const Expr *Shown = stripNoise(V.Site.Callable);
  std::string Name = spelledText(Shown->getSourceRange(), Ctx);
  if (Name.empty())
    Name = "callable";
  Finding F;
  F.Loc = Shown->getBeginLoc();
  Emptiness State = V.State;
  // A captured callable is judged where the lambda captures it.
  std::optional<CaptureState> Cap;
  if (State == Emptiness::Unknown)
    Cap = captureOf(V.Site, FD);
  if (Cap && Cap->State == Emptiness::NonEmpty)
    return std::nullopt;
  if (Cap && mayBeEmpty(Cap->State)) {
    State = Emptiness::MayBeEmpty;
    F.Notes.push_back(
        {Cap->Loc,
         capturedHereNote(Name, Cap->State == Emptiness::AlwaysEmpty)});
  }
  // An assertion that this build compiled out states what the flow
  // analysis of a debug build proves (CompiledOutAssertions.h). Not against
  // a value that is empty on every path, and not in StrictMode.
  if (State != Emptiness::AlwaysEmpty && !Opts.StrictMode &&
      assertedOutOfBuild(*V.Site.Call, Name, Indexes.of(FD).parents(), Ctx))
    return std::nullopt;
  if (State == Emptiness::Unknown && isHandleInvoking(V.Site, FD))
    return std::nullopt;
  // Likewise a call operator whose one statement calls through the object's
  // implementation, in a class that gives its users a test of it
  // (ForwardingOperators.h): its callers' to guard. StrictMode reports it.
  if (State == Emptiness::Unknown && !Opts.StrictMode &&
      forwardsToTestedImplementation(*V.Site.Call, *V.Site.Callable, FD, Types))
    return std::nullopt;
  // Under a test of the very expression it calls through, with nothing in
  // between: where the flow could not follow the callable's storage (a
  // member of a member through a pointer, `p->cfg.init`), the test still
  // guards it. Without this, that same test read as the project's belief
  // that the value may be empty (marl's worker initializer).
  if (State == Emptiness::Unknown && FD.getBody() &&
      testedSameExpressionAt(*V.Site.Call, *V.Site.Callable, *FD.getBody(),
                             Indexes.of(FD).parents(), Types, Ctx))
    return std::nullopt;
  // A lambda made only where the field it calls through was tested set
  // (imgui's `if (io.GetClipboardTextFn != NULL) platform.get = [](Ctx *c) {
  // return c->IO.GetClipboardTextFn(..); };`) exists only for such objects:
  // the test is the project's evidence that the field is set where the
  // lambda runs. A correlation, not a proof, so StrictMode still reports it.
  if (State == Emptiness::Unknown && !Opts.StrictMode &&
      madeWhereFieldSet(V.Site, FD))
    return std::nullopt;
  if (State == Emptiness::Unknown) {
    // Of unknown origin here: the project's facts decide, and StrictMode
    // reports it in any case (with the facts' evidence when there is some).
    bool Deferred = Opts.DeferToProjectFacts &&
                    defer(V, FD, Name, Cap ? &*Cap : nullptr, F);
    if (!Deferred && !Opts.StrictMode)
      return std::nullopt;
  }
  F.AlwaysEmpty = State == Emptiness::AlwaysEmpty;
  F.Message =
      F.AlwaysEmpty ? alwaysEmptyMessage(Name) : possiblyEmptyMessage(Name);
  addOriginNote(V.Site, FD, Name, F);
  addRepair(V.Site, Name, repairRoot(*V.Site.Call, FD), Ctx, Opts, F);
  return F;
}

bool PolicyCallAnalyzer::Impl::isHandleInvoking(const CallSite &Site,
                                                const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || MD->isStatic() ||
      Types.classify(Ctx.getRecordType(MD->getParent())) !=
          CallableKind::FunctionObject ||
      (MD->getOverloadedOperator() != OO_Call && !Types.isInvokeMethod(*MD)))
    return false;
  const Expr *Obj = stripNoise(Site.Callable);
  if (const auto *ME = dyn_cast<MemberExpr>(Obj))
    Obj = ME->getBase()->IgnoreParenImpCasts();
  else if (const auto *UO = dyn_cast<UnaryOperator>(Obj);
           UO && UO->getOpcode() == UO_Deref)
    Obj = UO->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(Obj);
}

namespace {
/// Finds the lambda expression of a closure class in a body.
class LambdaFinder : public RecursiveASTVisitor<LambdaFinder> {
public:
  explicit LambdaFinder(const CXXRecordDecl &Closure) : Closure(Closure) {}
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (L->getLambdaClass() == &Closure)
      Found = L;
    return !Found;
  }
  const LambdaExpr *Found = nullptr;

private:
  const CXXRecordDecl &Closure;
};
} // namespace

bool PolicyCallAnalyzer::Impl::madeWhereFieldSet(const CallSite &Site,
                                                 const FunctionDecl &FD) {
  const auto *ME = dyn_cast<MemberExpr>(stripNoise(Site.Callable));
  const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!Field || !MD || !MD->getParent()->isLambda())
    return false;
  const auto *Enclosing =
      dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext());
  if (!Enclosing || !Enclosing->getBody())
    return false;
  LambdaFinder Find(*MD->getParent());
  Find.TraverseStmt(Enclosing->getBody());
  if (!Find.Found)
    return false;
  return llvm::is_contained(nonEmptyFieldsAt(*Find.Found,
                                             Indexes.of(*Enclosing).parents(),
                                             Types, Ctx),
                            Field);
}

std::optional<CaptureState>
PolicyCallAnalyzer::Impl::captureOf(const CallSite &Site,
                                    const FunctionDecl &FD) {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(Site.Callable));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // An init-capture (`[cb = std::move(on_done)]`) is declared in the
  // lambda, but its value comes from the capture, as a plain capture's does.
  if (!V || (V->getDeclContext() == &FD && !V->isInitCapture()))
    return std::nullopt;
  return Caps.of(FD, *V);
}

/// The local object a field is reached through: `obj.f`, `ptr->f` on a
/// raw or smart pointer.
static const VarDecl *localObjectOf(const MemberExpr &ME) {
  const Expr *Base = stripNoise(ME.getBase());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Base);
      OC && OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
    Base = stripNoise(OC->getArg(0));
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && V->isLocalVarDecl() ? V : nullptr;
}

/// Whether Body may change what member Via of the object Obj denotes (a
/// parameter, or `*this` when Obj is null) points to: some use of Via is not
/// a read of its value (an assignment, `&p->via`, a non-const reference),
/// or the object is used otherwise than to read a field (`p.attach(k)`,
/// `reset(p)`, `helper()` on `this`), which may assign Via out of sight.
static bool mayRepoint(const Stmt &Body, const FieldDecl &Via,
                       const ValueDecl *Obj, ParentMap &Parents) {
  auto Parent = [&](const Stmt *S) {
    const Stmt *P = Parents.getParent(S);
    while (P && isa<ParenExpr, ImplicitCastExpr>(P))
      P = Parents.getParent(P);
    return P;
  };
  auto ReadsAField = [&](const Stmt *Use) {
    const auto *ME = dyn_cast_or_null<MemberExpr>(Parent(Use));
    return ME && isa<FieldDecl>(ME->getMemberDecl());
  };
  if (const auto *ME = dyn_cast<MemberExpr>(&Body);
      ME && ME->getMemberDecl() == &Via) {
    const auto *Cast =
        dyn_cast_or_null<ImplicitCastExpr>(Parents.getParentIgnoreParens(ME));
    if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
      return true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&Body);
      DRE && Obj && DRE->getDecl() == Obj && !ReadsAField(DRE))
    return true;
  if (isa<CXXThisExpr>(&Body) && !Obj && !ReadsAField(&Body))
    return true;
  return llvm::any_of(Body.children(), [&](const Stmt *Child) {
    return Child && mayRepoint(*Child, Via, Obj, Parents);
  });
}

/// Whether Body uses Storage (a field of any object, or a variable) before
/// At, in source order, other than to read it (onlyRead): what may write it.
static bool usedBefore(const Stmt &Body, const ValueDecl &Storage,
                       SourceLocation At, const SourceManager &SM,
                       ParentMap &Parents) {
  const ValueDecl *Named = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(&Body))
    Named = ME->getMemberDecl();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(&Body))
    Named = DRE->getDecl();
  if (Named == &Storage &&
      SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Body.getBeginLoc()),
                                   At) &&
      !onlyRead(cast<Expr>(Body), Parents))
    return true;
  // A lambda's body is its own function, analysed as such.
  if (isa<LambdaExpr>(&Body))
    return false;
  return llvm::any_of(Body.children(), [&](const Stmt *Child) {
    return Child && usedBefore(*Child, Storage, At, SM, Parents);
  });
}

/// The function whose own emptyings of the called storage are no evidence
/// against the call (Candidate::Function): its `f:` key, when nothing in it
/// before the call, in source order, may write the storage and no loop
/// holds the call, so that an emptying of its own comes after the call in
/// every run. Else "".
static std::string ownEmptyingsFollow(const CallSite &Site,
                                      const FunctionDecl &FD,
                                      ParentMap &Parents) {
  const Expr *Callable = stripNoise(Site.Callable);
  const ValueDecl *Storage = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(Callable))
    Storage = dyn_cast<FieldDecl>(ME->getMemberDecl());
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Callable))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasGlobalStorage())
      Storage = V;
  const Stmt *Body = FD.getBody();
  if (!Storage || !Body)
    return "";
  for (const Stmt *P = Parents.getParent(Site.Call); P;
       P = Parents.getParent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return "";
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  if (usedBefore(*Body, *Storage, SM.getExpansionLoc(Site.Call->getBeginLoc()),
                 SM, Parents))
    return "";
  return functionKey(FD).value_or("");
}

/// Whether FD's body assigns V (`p = next;`).
bool PolicyCallAnalyzer::Impl::assignedIn(const FunctionDecl &FD,
                                          const VarDecl &V) {
  const BodyIndex::Local *L = Indexes.of(FD).find(V);
  return L && llvm::any_of(L->Events, [](const BodyIndex::Event &E) {
           return E.What == BodyIndex::Event::Assign;
         });
}

void PolicyCallAnalyzer::Impl::addContext(const CallSite &Site,
                                          const FunctionDecl &FD,
                                          Candidate &C) {
  if (const Stmt *Body = FD.getBody();
      Body && &repairRoot(*Site.Call, FD) == Body) {
    C.Function = ownEmptyingsFollow(Site, FD, Indexes.of(FD).parents());
    C.Guards = guardsAt(*Site.Call, Indexes.of(FD).parents());
    C.Flags = flagsTrueAt(*Site.Call, Indexes.of(FD).parents(), Ctx);
    C.Slots = siblingSlotAtoms(Site, Indexes.of(FD).parents(), Types, Ctx);
    if (const auto *ME = dyn_cast<MemberExpr>(stripNoise(Site.Callable)))
      C.ModeTested = objectStateTestedAt(*Site.Call, *ME,
                                         Indexes.of(FD).parents(), Types, Ctx);
    C.AlwaysReached =
        alwaysReached(*Site.Call, *Body, Indexes.of(FD).parents());
  }
  const auto *ME = dyn_cast<MemberExpr>(stripNoise(Site.Callable));
  const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!Field)
    return;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  // A field of the object a parameter points or refers to (`ops->f`),
  // while the function keeps the parameter as received: its callers may
  // have tested the field.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(ME->getBase())))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
        P && P->getDeclContext() == &FD && !assignedIn(FD, *P))
      C.Through = parameterKey(*P).value_or("");
  // One pointer member further (`priv.task->step`, `this->task->step`),
  // while the function writes no such member: what the callers tested of
  // `task->step` on the object they pass still holds.
  if (const auto *Outer = dyn_cast<MemberExpr>(stripNoise(ME->getBase()));
      Outer && ME->isArrow() && FD.getBody())
    if (const auto *Via = dyn_cast<FieldDecl>(Outer->getMemberDecl());
        Via && Via->getType()->isPointerType()) {
      const Expr *Base = stripNoise(Outer->getBase());
      const auto *DRE = dyn_cast<DeclRefExpr>(Base);
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
      std::optional<std::string> Through;
      if (P && P->getDeclContext() == &FD && !assignedIn(FD, *P))
        Through = parameterKey(*P);
      else if (isa<CXXThisExpr>(Base) && MD &&
               MD->getParent() == Via->getParent() &&
               !isa<CXXConstructorDecl, CXXDestructorDecl>(MD))
        Through = objectParameterKey(*MD);
      std::optional<std::string> ViaKey = fieldKey(*Via);
      if (Through && ViaKey &&
          !mayRepoint(*FD.getBody(), *Via, P, Indexes.of(FD).parents())) {
        C.Through = *Through;
        C.Via = *ViaKey;
      }
    }
  // This object's own field, while it is constructed or destroyed.
  if (Class && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
    const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
    if (MD && MD->getParent() == Class &&
        isa<CXXConstructorDecl, CXXDestructorDecl>(MD)) {
      C.During = isa<CXXDestructorDecl>(MD) ? Candidate::Lifecycle::Destructor
                                            : Candidate::Lifecycle::Constructor;
      C.LifecycleClass = classKey(*Class).value_or("");
    } else if (MD && MD->getParent() == Class) {
      // A method's callers may have tested the field on the object they
      // call it on (`if (callback) helper();`).
      C.Through = objectParameterKey(*MD).value_or("");
      // A virtual method runs only on objects whose class does not
      // override it.
      if (MD->isVirtual())
        C.VirtualMethod = functionKey(*MD).value_or("");
    }
    return;
  }
  // An object this function constructs: `Backend b(..); b.f(x);`.
  std::optional<BodyIndex::Event> E = latestOfObject(Site, FD, *ME);
  if (!E || !E->Value)
    return;
  std::optional<Construction> K = Cs.at(*E->Value, &FD);
  // `std::unique_ptr<T> p(new T(..))`.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(stripNoise(E->Value));
      !K && CE && CE->getNumArgs() == 1)
    K = Cs.at(*CE->getArg(0), &FD);
  if (K && K->Class == Class) {
    C.Construction = std::move(K->Fact);
    C.ConstructedClass = K->ClassKey;
  }
}

std::optional<BodyIndex::Event> PolicyCallAnalyzer::Impl::latestOfObject(
    const CallSite &Site, const FunctionDecl &FD, const MemberExpr &ME) {
  const VarDecl *Obj = localObjectOf(ME);
  if (!Obj)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  return Indexes.of(FD).latestBefore(
      *Obj, SM.getExpansionLoc(Site.Call->getBeginLoc()), SM);
}

std::optional<BodyIndex::Event>
PolicyCallAnalyzer::Impl::latestOrigin(const CallSite &Site,
                                       const FunctionDecl &FD) {
  if (const CXXCtorInitializer *Init = earlierFieldInit(Site, FD)) {
    const Expr *Value = initializerExpr(*Init);
    return BodyIndex::Event{BodyIndex::Event::Init,
                            Init->isWritten() ? Init->getSourceLocation()
                                              : Value->getBeginLoc(),
                            Value};
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(Site.Callable));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->isLocalVarDecl())
    return std::nullopt;
  // The syntax cannot tell a region's own copy's assignments from the
  // original's: no note rather than a wrong one.
  if (const OpenMPCopies *Copies = copiesIn(FD); Copies && Copies->copies(*V))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  return Indexes.of(FD).latestBefore(
      *V, SM.getExpansionLoc(Site.Call->getBeginLoc()), SM);
}

/// Turns F into a candidate for the project's facts; false when the
/// callable's sources cannot be named, and the call stays quiet.
bool PolicyCallAnalyzer::Impl::defer(const PolicyCallVerdict &V,
                                     const FunctionDecl &FD, StringRef Name,
                                     const CaptureState *Cap, Finding &F) {
  const CallSite &Site = V.Site;
  SourceSet S;
  if (Cap) {
    // What the lambda captured, as the function that makes it sees it.
    S = sourcesOf(*Cap->Init, *Cap->Enclosing, Ctx, Types,
                  Indexes.of(*Cap->Enclosing));
  } else {
    // A field set by an earlier mem-initializer holds that initializer's
    // value.
    const CXXCtorInitializer *Init = earlierFieldInit(Site, FD);
    S = sourcesOf(Init ? *initializerExpr(*Init) : *Site.Callable, FD, Ctx,
                  Types, Indexes.of(FD));
  }
  if (!S.Complete || S.Sources.empty())
    return false;
  Candidate C;
  C.Name = Name.str();
  C.EmptyLocally = S.EmptyLocally;
  C.PolicyNames = Opts.PolicyNames;
  C.Strict = Opts.StrictMode;
  if (!Cap) {
    addContext(Site, FD, C);
    // A captured value's parameters are the enclosing function's, whose
    // flags this call's path says nothing about.
    C.Requires = V.Requires.text();
  }
  for (const SourceUse &U : S.Sources) {
    C.Keys.push_back(U.Key);
    // An untested call: belief's other half, and an entry that carries the
    // source's name for the name heuristic.
    ++Untested.get(U.Key, U.Kind, U.Name).Untested;
  }
  F.Deferred = std::move(C);
  F.OriginLoc = F.Loc;
  // The note about the source goes where the value was produced, when that
  // is a call in this function (`auto f = select_wrapper(cfg);`).
  if (std::optional<BodyIndex::Event> O = latestOrigin(Site, FD))
    if (const auto *Call = dyn_cast_or_null<CallExpr>(stripNoise(O->Value)))
      F.OriginLoc = Call->getBeginLoc();
  if (const auto *Call = dyn_cast<CallExpr>(stripNoise(Site.Callable)))
    F.OriginLoc = Call->getBeginLoc();
  if (Cap) {
    F.OriginLoc = Cap->Loc;
    F.Notes.push_back(
        {Cap->Loc, Cap->ByRef ? capturedByReferenceNote(Name)
                              : capturedHereNote(Name, /*Always=*/false)});
  }
  return true;
}

/// The note for a value read with `operator[]` from a map of callables.
static bool addSubscriptNote(const Expr *E, const CallableTypes &Types,
                             ASTContext &Ctx, Finding &F) {
  E = stripNoise(E);
  // `IntFn f = m[k];` copies the element.
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = stripNoise(CE->getArg(0));
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const Expr *Map = Call ? callableMapSubscript(*Call, Types) : nullptr;
  if (!Map)
    return false;
  F.Notes.push_back(
      {Call->getBeginLoc(), subscriptInsertsNote(mappedTypeName(*Map, Ctx))});
  return true;
}

const OpenMPCopies *PolicyCallAnalyzer::Impl::copiesIn(const FunctionDecl &FD) {
  if (CopiesOf != &FD) {
    CopiesOf = &FD;
    Copies.reset();
    if (scanConstructs(FD).OpenMP)
      Copies = std::make_unique<OpenMPCopies>(FD, Types);
  }
  return Copies.get();
}

/// A call through an OpenMP private copy that does not start as a copy of
/// the original: what the value is comes from the clause, not from the
/// original's history.
bool PolicyCallAnalyzer::Impl::addPrivateCopyNote(const CallSite &Site,
                                                  const FunctionDecl &FD,
                                                  StringRef Name, Finding &F) {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(Site.Callable));
  if (!DRE)
    return false;
  const OpenMPCopies *Copies = copiesIn(FD);
  const OpenMPCopies::Copy *C = Copies ? Copies->copyAt(*DRE) : nullptr;
  if (!C || C->FromOriginal)
    return false;
  bool Record = isRecordKind(Types.classify(C->Var->getType()));
  F.Notes.push_back({C->ClauseLoc, privateCopyNote(Name, Record)});
  return true;
}

/// A call through a field of a local object that the object's constructor
/// left empty (`Job j(nullptr); j.done();`, ExitEffects.h): the note names
/// that construction, when nothing written to the object since says more.
bool PolicyCallAnalyzer::Impl::addConstructedEmptyNote(const CallSite &Site,
                                                       const FunctionDecl &FD,
                                                       Finding &F) {
  const auto *ME = dyn_cast<MemberExpr>(stripNoise(Site.Callable));
  const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  std::optional<BodyIndex::Event> E =
      Field ? latestOfObject(Site, FD, *ME) : std::nullopt;
  const VarDecl *Obj = ME ? localObjectOf(*ME) : nullptr;
  const auto *CE = E && E->Value
                       ? dyn_cast<CXXConstructExpr>(stripNoise(E->Value))
                       : nullptr;
  const MethodEffect *Effect =
      CE ? Summaries.constructorEffect(*CE->getConstructor()) : nullptr;
  if (!Effect)
    return false;
  // Only what the constructor's exit proves: the field emptied outright,
  // or copied from an argument that is an empty value.
  bool Leaves = llvm::is_contained(Effect->Emptied, Field);
  for (const auto &[FromField, Index] : Effect->FromParameter)
    Leaves |= FromField == Field && Index < CE->getNumArgs() &&
              isEmptyValue(CE->getArg(Index), Ctx);
  if (!Leaves)
    return false;
  F.Notes.push_back({CE->getBeginLoc(),
                     constructedEmptyHereNote(
                         Obj->getName(),
                         Constructions::constructorName(*CE->getConstructor()),
                         Field->getName())});
  return true;
}

void PolicyCallAnalyzer::Impl::addOriginNote(const CallSite &Site,
                                             const FunctionDecl &FD,
                                             StringRef Name, Finding &F) {
  if (addSubscriptNote(Site.Callable, Types, Ctx, F) ||
      addPrivateCopyNote(Site, FD, Name, F) ||
      (!F.Deferred && addConstructedEmptyNote(Site, FD, F)))
    return;
  std::optional<BodyIndex::Event> Latest = latestOrigin(Site, FD);
  if (!Latest)
    return;
  const BodyIndex::Event &O = *Latest;
  if (addSubscriptNote(O.Value, Types, Ctx, F))
    return;
  if (O.What == BodyIndex::Event::MovedFrom) {
    F.Notes.push_back({O.Loc, movedFromHereNote(Name)});
    return;
  }
  if (O.What == BodyIndex::Event::DefaultInit || isEmptyValue(O.Value, Ctx)) {
    F.Notes.push_back({O.Loc, madeEmptyHereNote(Name)});
    return;
  }
  // A candidate's source is named by the project's facts.
  if (F.Deferred)
    return;
  const Expr *Origin = stripNoise(O.Value);
  // `(init_fn)dlsym(h, "init")`: the loader is the source.
  if (const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Origin))
    if (const auto *Loaded = dyn_cast<CallExpr>(stripNoise(Cast->getSubExpr())))
      if (const FunctionDecl *Loader = Loaded->getDirectCallee();
          Loader && Summaries.isLoader(*Loader)) {
        F.Notes.push_back({Loaded->getBeginLoc(),
                           comesFromNote(Name, Loader->getNameAsString(),
                                         /*Always=*/false)});
        return;
      }
  const auto *Call = dyn_cast_or_null<CallExpr>(Origin);
  if (!Call || !Types.isNullable(Call->getType()))
    return;
  Emptiness E = Summaries.classifyCallResult(*Call);
  if (!mayBeEmpty(E))
    return;
  std::string Callee = PolicySummaries::calleeName(*Call);
  if (Callee.empty())
    Callee = spelledText(Call->getCallee()->getSourceRange(), Ctx);
  F.Notes.push_back({Call->getBeginLoc(),
                     comesFromNote(Name, Callee, E == Emptiness::AlwaysEmpty)});
}

PolicyCallAnalyzer::PolicyCallAnalyzer(ASTContext &Ctx, AnalysisOptions Options)
    : I(std::make_unique<Impl>(Ctx, std::move(Options))) {}
PolicyCallAnalyzer::~PolicyCallAnalyzer() = default;
const AnalysisOptions &PolicyCallAnalyzer::options() const { return I->Opts; }

void PolicyCallAnalyzer::collectFacts(ProjectFacts &Out) {
  collectTUFacts(I->Ctx, I->Types, I->Summaries, I->Indexes, I->Cs, I->Passed,
                 Out);
  Out.merge(I->Untested);
}

std::vector<Finding> PolicyCallAnalyzer::analyze(const FunctionDecl &FD,
                                                 AnalysisStatus *Status,
                                                 SkipReason *Why) {
  return I->analyze(FD, Status, Why);
}

} // namespace wrapguard
