//===- PolicyCallAnalysis.cpp - Unchecked policy-call analysis ------------===//

#include "PolicyCallAnalysis.h"
#include "CallableTypes.h"
#include "FactsCollector.h"
#include "FixIts.h"
#include "PolicyCallModel.h"
#include "PolicySummaries.h"
#include "SourceKeys.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

bool parseFixMode(llvm::StringRef Text, FixMode &Out) {
  if (Text == "guard")
    Out = FixMode::Guard;
  else if (Text == "none")
    Out = FixMode::None;
  else if (Text == "shim")
    Out = FixMode::Shim;
  else
    return false;
  return true;
}

llvm::StringRef fixModeName(FixMode Mode) {
  switch (Mode) {
  case FixMode::Guard:
    return "guard";
  case FixMode::None:
    return "none";
  case FixMode::Shim:
    return "shim";
  }
  return "guard";
}

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

static std::optional<CallSite> matchCallSite(const CallExpr &C,
                                             const CallableTypes &Types) {
  CallSite S;
  S.Call = &C;
  auto Accept = [&](const Expr *Callable,
                    std::initializer_list<CallableKind> Kinds,
                    llvm::ArrayRef<const Expr *> Args,
                    bool Direct) -> std::optional<CallSite> {
    if (!Callable)
      return std::nullopt;
    CallableKind K = Types.classify(Callable->getType());
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
    if (!ME || !MD || MD->getOverloadedOperator() != OO_Call)
      return std::nullopt;
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

namespace {

/// Finds, cheaply, whether a body calls through a nullable callable at all;
/// most functions don't, and they skip the dataflow analysis entirely.
class CallSiteFinder : public RecursiveASTVisitor<CallSiteFinder> {
public:
  explicit CallSiteFinder(const CallableTypes &Types) : Types(Types) {}
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

/// An event that set the callable's value, for the note that explains it.
struct Origin {
  SourceLocation Loc;
  const Expr *Value = nullptr; // The new value, or null when moved from.
  bool MovedFrom = false;
  bool DefaultInit = false;
};

class OriginFinder : public RecursiveASTVisitor<OriginFinder> {
public:
  OriginFinder(const VarDecl &V, SourceLocation Before, const SourceManager &SM)
      : V(V), Before(Before), SM(SM) {}

  bool VisitVarDecl(VarDecl *D) {
    if (D != &V)
      return true;
    Origin O;
    O.Loc = D->getLocation();
    O.Value = D->getInit();
    O.DefaultInit = !D->getInit() ||
                    (isa<CXXConstructExpr>(D->getInit()) &&
                     cast<CXXConstructExpr>(D->getInit())->getNumArgs() == 0);
    consider(O);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && refersToV(BO->getLHS()))
      consider({BO->getBeginLoc(), BO->getRHS()});
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        refersToV(OC->getArg(0)))
      consider({OC->getBeginLoc(), OC->getArg(1)});
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const Expr *Moved = movedFromObject(C); Moved && refersToV(Moved)) {
      Origin O;
      O.Loc = C->getBeginLoc();
      O.MovedFrom = true;
      consider(O);
    }
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  std::optional<Origin> Latest;

private:
  bool refersToV(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(E));
    return DRE && DRE->getDecl() == &V;
  }
  void consider(const Origin &O) {
    SourceLocation L = SM.getExpansionLoc(O.Loc);
    if (!SM.isBeforeInTranslationUnit(L, Before))
      return;
    if (!Latest ||
        SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Latest->Loc), L))
      Latest = O;
  }
  const VarDecl &V;
  SourceLocation Before;
  const SourceManager &SM;
};

} // namespace

//===----------------------------------------------------------------------===//
// The analyzer.
//===----------------------------------------------------------------------===//

class PolicyCallAnalyzer::Impl {
public:
  Impl(ASTContext &Ctx, AnalysisOptions O)
      : Ctx(Ctx), Opts(std::move(O)), Types(Opts.NullableCallableTypes),
        Summaries(Ctx, Opts, Types) {}

  std::vector<Finding> analyze(const FunctionDecl &FD, AnalysisStatus *Status);

  ASTContext &Ctx;
  AnalysisOptions Opts;
  CallableTypes Types;
  PolicySummaries Summaries;
  /// The sources of deferred findings, with their untested calls.
  ProjectFacts Untested;

private:
  std::optional<Origin> latestOrigin(const CallSite &Site,
                                     const FunctionDecl &FD);
  void addOriginNote(const CallSite &Site, const FunctionDecl &FD,
                     StringRef Name, Finding &F);
  bool defer(const CallSite &Site, const FunctionDecl &FD, StringRef Name,
             Finding &F);
};

std::vector<Finding> PolicyCallAnalyzer::Impl::analyze(const FunctionDecl &FD,
                                                       AnalysisStatus *Status) {
  auto SetStatus = [&](AnalysisStatus S) {
    if (Status)
      *Status = S;
  };
  SetStatus(AnalysisStatus::Skipped);
  if (!FD.doesThisDeclarationHaveABody() || FD.isDependentContext() ||
      FD.isInvalidDecl() || !FD.getBody())
    return {};
  CallSiteFinder Finder(Types);
  Finder.TraverseStmt(FD.getBody());
  if (!Finder.Found) {
    SetStatus(AnalysisStatus::Analyzed);
    return {};
  }

  struct Verdict {
    CallSite Site;
    bool Always;
    /// Left to the project's facts: no source the TU can judge.
    bool Deferred = false;
  };
  llvm::SmallVector<Verdict> Verdicts;
  llvm::SmallPtrSet<const CallExpr *, 16> Seen;
  llvm::Error Err = runPolicyCallModel(
      FD, Ctx, Types, Summaries, Opts.MaxSolverIterations, Opts.MaxBlockVisits,
      [&](const CFGElement &Elt, const PathQuery &Q) {
        auto S = Elt.getAs<CFGStmt>();
        if (!S)
          return;
        const auto *C = dyn_cast<CallExpr>(S->getStmt());
        if (!C || Seen.count(C))
          return;
        std::optional<CallSite> Site = matchCallSite(*C, Types);
        if (!Site)
          return;
        CallableState St =
            PolicyCallModel::getState(*Site->Callable, Q.env(), Types);
        if (!St.NonEmpty)
          return;
        // Also true when no path reaches the call.
        if (Q.proves(St.NonEmpty->formula()))
          return;
        Seen.insert(C);
        if (Q.proves(St.NonEmpty->formula(), /*Negated=*/true)) {
          Verdicts.push_back({*Site, true});
          return;
        }
        if (Opts.StrictMode || (St.Tracked && Q.proves(St.Tracked->formula())))
          Verdicts.push_back({*Site, false});
        else if (Opts.DeferToProjectFacts)
          Verdicts.push_back({*Site, false, /*Deferred=*/true});
      });
  if (Err) {
    llvm::consumeError(std::move(Err));
    SetStatus(AnalysisStatus::BudgetExceeded);
    return {};
  }
  SetStatus(AnalysisStatus::Analyzed);

  std::vector<Finding> Findings;
  for (const Verdict &V : Verdicts) {
    const Expr *Shown = stripNoise(V.Site.Callable);
    std::string Name = spelledText(Shown->getSourceRange(), Ctx);
    if (Name.empty())
      Name = "callable";
    Finding F;
    F.Loc = Shown->getBeginLoc();
    if (V.Deferred && !defer(V.Site, FD, Name, F))
      continue;
    F.AlwaysEmpty = V.Always;
    F.Message =
        V.Always ? alwaysEmptyMessage(Name) : possiblyEmptyMessage(Name);
    addOriginNote(V.Site, FD, Name, F);
    addRepair(V.Site, Name, *FD.getBody(), Ctx, Opts, F);
    Findings.push_back(std::move(F));
  }
  return Findings;
}

std::optional<Origin>
PolicyCallAnalyzer::Impl::latestOrigin(const CallSite &Site,
                                       const FunctionDecl &FD) {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(Site.Callable));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->isLocalVarDecl())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  OriginFinder Finder(*V, SM.getExpansionLoc(Site.Call->getBeginLoc()), SM);
  Finder.TraverseStmt(FD.getBody());
  return Finder.Latest;
}

/// Turns F into a candidate for the project's facts; false when the
/// callable's sources cannot be named, and the call stays quiet.
bool PolicyCallAnalyzer::Impl::defer(const CallSite &Site,
                                     const FunctionDecl &FD, StringRef Name,
                                     Finding &F) {
  SourceSet S = sourcesOf(*Site.Callable, FD, Ctx, Types);
  if (!S.Complete || S.Sources.empty())
    return false;
  Candidate C;
  C.Name = Name.str();
  C.EmptyLocally = S.EmptyLocally;
  C.PolicyNames = Opts.PolicyNames;
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
  if (std::optional<Origin> O = latestOrigin(Site, FD))
    if (const auto *Call = dyn_cast_or_null<CallExpr>(stripNoise(O->Value)))
      F.OriginLoc = Call->getBeginLoc();
  if (const auto *Call = dyn_cast<CallExpr>(stripNoise(Site.Callable)))
    F.OriginLoc = Call->getBeginLoc();
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
  F.Notes.push_back({Call->getBeginLoc(),
                     llvm::formatv("'operator[]' inserts an empty '{0}' when "
                                   "the key is missing",
                                   mappedTypeName(*Map, Ctx))
                         .str()});
  return true;
}

void PolicyCallAnalyzer::Impl::addOriginNote(const CallSite &Site,
                                             const FunctionDecl &FD,
                                             StringRef Name, Finding &F) {
  if (addSubscriptNote(Site.Callable, Types, Ctx, F))
    return;
  std::optional<Origin> Latest = latestOrigin(Site, FD);
  if (!Latest)
    return;
  const Origin &O = *Latest;
  if (addSubscriptNote(O.Value, Types, Ctx, F))
    return;
  if (O.MovedFrom) {
    F.Notes.push_back(
        {O.Loc, llvm::formatv("'{0}' is moved from here", Name).str()});
    return;
  }
  if (O.DefaultInit || isEmptyValue(O.Value, Ctx)) {
    F.Notes.push_back(
        {O.Loc, llvm::formatv("'{0}' is made empty here", Name).str()});
    return;
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(stripNoise(O.Value));
  if (!Call || !Types.isNullable(Call->getType()))
    return;
  Emptiness E = Summaries.classifyCallResult(*Call);
  if (E != Emptiness::MayBeEmpty && E != Emptiness::AlwaysEmpty)
    return;
  std::string Callee = PolicySummaries::calleeName(*Call);
  if (Callee.empty())
    Callee = spelledText(Call->getCallee()->getSourceRange(), Ctx);
  F.Notes.push_back(
      {Call->getBeginLoc(),
       llvm::formatv(E == Emptiness::AlwaysEmpty
                         ? "'{0}' comes from '{1}', which always returns an "
                           "empty callable"
                         : "'{0}' comes from '{1}', which may return an empty "
                           "callable",
                     Name, Callee)
           .str()});
}

static constexpr llvm::StringLiteral AlwaysPrefix = "call through callable '";
static constexpr llvm::StringLiteral AlwaysSuffix =
    "', which is always empty here";

std::string possiblyEmptyMessage(StringRef Name) {
  return ("call through possibly empty callable '" + Name + "'").str();
}

std::string alwaysEmptyMessage(StringRef Name) {
  return (AlwaysPrefix + Name + AlwaysSuffix).str();
}

bool isAlwaysEmptyMessage(StringRef Message) {
  return Message.starts_with(AlwaysPrefix) && Message.ends_with(AlwaysSuffix);
}

PolicyCallAnalyzer::PolicyCallAnalyzer(ASTContext &Ctx, AnalysisOptions Options)
    : I(std::make_unique<Impl>(Ctx, std::move(Options))) {}
PolicyCallAnalyzer::~PolicyCallAnalyzer() = default;
const AnalysisOptions &PolicyCallAnalyzer::options() const { return I->Opts; }

void PolicyCallAnalyzer::collectFacts(ProjectFacts &Out) {
  collectTUFacts(I->Ctx, I->Types, I->Summaries, Out);
  Out.merge(I->Untested);
}

std::vector<Finding> PolicyCallAnalyzer::analyze(const FunctionDecl &FD,
                                                 AnalysisStatus *Status) {
  return I->analyze(FD, Status);
}

} // namespace wrapguard
