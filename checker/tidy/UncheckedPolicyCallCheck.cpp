//===- UncheckedPolicyCallCheck.cpp - wrapguard-unchecked-policy-call -----===//

#include "UncheckedPolicyCallCheck.h"
#include "DefaultCheckHost.h"
#include "SourceKeys.h"
#include "Wording.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace clang::ast_matchers;

llvm::ArrayRef<std::pair<wrapguard::FixMode, StringRef>>
tidy::OptionEnumMapping<wrapguard::FixMode>::getEnumMapping() {
  using wrapguard::FixMode;
  using wrapguard::fixModeName;
  static const std::pair<FixMode, StringRef> Mapping[] = {
      {FixMode::Guard, fixModeName(FixMode::Guard)},
      {FixMode::None, fixModeName(FixMode::None)},
      {FixMode::Shim, fixModeName(FixMode::Shim)},
  };
  return Mapping;
}

namespace wrapguard {

static constexpr llvm::StringLiteral FuncID = "func";
static constexpr llvm::StringLiteral LambdaID = "lambda";

/// Whether Pattern compiles with Flags, as the analysis compiles it
/// (PolicySummaries and resolve ignore case, CallableTypes does not); Error
/// says why not.
static bool validRegex(StringRef Pattern, llvm::Regex::RegexFlags Flags,
                       std::string &Error) {
  return llvm::Regex(Pattern, Flags).isValid(Error);
}

UncheckedPolicyCallCheck::UncheckedPolicyCallCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Inserter(Options.getLocalOrGlobal("IncludeStyle",
                                        tidy::utils::IncludeSorter::IS_LLVM),
               areDiagsSelfContained()) {
  AnalysisOptions Defaults;
  // A regular expression that does not compile is a configuration problem,
  // and the option's default applies: an invalid PolicyNames would otherwise
  // match nothing, silently.
  auto BadRegex = [&](StringRef Option, StringRef Pattern, StringRef Error,
                      StringRef Default) {
    configurationDiag(InvalidRegexDiag)
        << Pattern << Name << Option << Error << Default;
  };

  Config.PolicyNames =
      Options.get("PolicyNames", StringRef(Defaults.PolicyNames)).str();
  if (std::string Error;
      !validRegex(Config.PolicyNames, llvm::Regex::IgnoreCase, Error)) {
    BadRegex("PolicyNames", Config.PolicyNames, Error,
             "'" + Defaults.PolicyNames + "'");
    Config.PolicyNames = Defaults.PolicyNames;
  }

  // Lists of regular expressions: one that does not compile drops the
  // option to its default, as PolicyNames does.
  auto RegexList = [&](StringRef Option, StringRef Default,
                       std::vector<std::string> &Out) {
    for (StringRef Pattern :
         tidy::utils::options::parseStringList(Options.get(Option, ""))) {
      if (std::string Error;
          !validRegex(Pattern, llvm::Regex::NoFlags, Error)) {
        BadRegex(Option, Pattern, Error, Default);
        Out.clear();
        return;
      }
      Out.push_back(Pattern.str());
    }
  };
  RegexList("NullableCallableTypes", "(no extra types)",
            Config.NullableCallableTypes);
  RegexList("LookupFunctions", "(no lookup functions)", Config.LookupFunctions);
  RegexList("InvokeMethods", "(only the methods recognised by their body)",
            Config.InvokeMethods);

  Config.StrictMode = Options.get("StrictMode", false);
  // An unknown value is reported by clang-tidy (with a suggestion when it is
  // close to a valid one), and the default applies.
  Config.Fix = Options.get("FixMode", FixMode::Guard);
  Config.ShimHeader =
      Options.get("ShimHeader", StringRef(Defaults.ShimHeader)).str();
  Config.MaxSolverIterations =
      Options.get("MaxSolverIterations", Defaults.MaxSolverIterations);
  Config.MaxBlockVisits =
      Options.get("MaxBlockVisits", Defaults.MaxBlockVisits);
  FactsFile = Options.get("FactsFile", "").str();
  ReportSkippedFunctions = Options.get("ReportSkippedFunctions", false);
  Config.DeferToProjectFacts = true;

  Host = installedCheckHost(*Context);
  if (!Host) {
    OwnHost = std::make_unique<DefaultCheckHost>(
        FactsFile, *Context, [this] { return getCurrentMainFile().str(); });
    Host = OwnHost.get();
  }
}

void UncheckedPolicyCallCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "PolicyNames", Config.PolicyNames);
  auto StoreList = [&](StringRef Option, const std::vector<std::string> &L) {
    std::vector<StringRef> Items(L.begin(), L.end());
    Options.store(Opts, Option,
                  tidy::utils::options::serializeStringList(Items));
  };
  StoreList("NullableCallableTypes", Config.NullableCallableTypes);
  StoreList("LookupFunctions", Config.LookupFunctions);
  StoreList("InvokeMethods", Config.InvokeMethods);
  Options.store(Opts, "StrictMode", Config.StrictMode);
  Options.store(Opts, "FixMode", Config.Fix);
  Options.store(Opts, "ShimHeader", Config.ShimHeader);
  Options.store(Opts, "MaxSolverIterations", Config.MaxSolverIterations);
  Options.store(Opts, "MaxBlockVisits", Config.MaxBlockVisits);
  Options.store(Opts, "FactsFile", FactsFile);
  Options.store(Opts, "ReportSkippedFunctions", ReportSkippedFunctions);
  Options.store(Opts, "IncludeStyle", Inserter.getStyle());
}

void UncheckedPolicyCallCheck::registerMatchers(MatchFinder *Finder) {
  // Every function body in the TU, template instantiations included (the
  // matcher traverses them by default); lambda call operators are reached
  // through their LambdaExpr because the matcher does not visit them as
  // declarations. Library code in system headers (LibTorch's
  // thousands of inline functions) is rejected in the matcher, before any
  // callback runs.
  Finder->addMatcher(
      functionDecl(unless(isExpansionInSystemHeader()), isDefinition(),
                   unless(isImplicit()),
                   unless(cxxMethodDecl(ofClass(cxxRecordDecl(isLambda())))))
          .bind(FuncID),
      this);
  Finder->addMatcher(
      lambdaExpr(unless(isExpansionInSystemHeader())).bind(LambdaID), this);
}

void UncheckedPolicyCallCheck::registerPPCallbacks(
    const SourceManager &SM, Preprocessor *PP, Preprocessor *ModuleExpanderPP) {
  Inserter.registerPreprocessor(PP);
}

void UncheckedPolicyCallCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>(LambdaID)) {
    // A generic lambda's body is analysed once per instantiation of its
    // call operator; findings are deduplicated at their spelling.
    if (const FunctionTemplateDecl *T = L->getDependentCallOperator()) {
      for (const FunctionDecl *Spec : T->specializations())
        checkFunction(*Spec, Result);
      return;
    }
    checkFunction(*L->getCallOperator(), Result);
    return;
  }
  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>(FuncID))
    checkFunction(*FD, Result);
}

void UncheckedPolicyCallCheck::checkFunction(
    const FunctionDecl &Func, const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = &Func;
  if (!FD->hasBody() || FD->isDependentContext())
    return;
  if (Result.Context->getDiagnostics().hasUncompilableErrorOccurred())
    return;
  // Library code in system headers is neither reported nor worth the time.
  if (Result.SourceManager->isInSystemHeader(FD->getLocation()))
    return;

  if (!Analyzer || AnalyzerCtx != Result.Context) {
    Analyzer = std::make_unique<PolicyCallAnalyzer>(*Result.Context, Config);
    AnalyzerCtx = Result.Context;
    Reported.clear();
    SkipReported.clear();
  }

  AnalysisStatus Status = AnalysisStatus::Skipped;
  SkipReason Why;
  Host->beginFunction(*FD);
  std::vector<Finding> Findings = Analyzer->analyze(*FD, &Status, &Why);
  Host->endFunction(*FD, Status);
  if (Status == AnalysisStatus::BudgetExceeded ||
      Status == AnalysisStatus::UnsupportedConstruct)
    skipped(*FD, Why, *Result.SourceManager);
  for (Finding &F : Findings) {
    if (F.Deferred)
      Pending.push_back(std::move(F));
    else if (emit(F, *Result.SourceManager, {}))
      Host->reported(F, *Result.SourceManager);
  }
}

void UncheckedPolicyCallCheck::skipped(const FunctionDecl &FD,
                                       const SkipReason &Why,
                                       const SourceManager &SM) {
  // Instantiations of one template share a spelling: one skip for them all.
  SourceLocation Loc = FD.getLocation();
  if (!SkipReported.insert(SM.getSpellingLoc(Loc).getRawEncoding()).second)
    return;
  Host->skippedFunction(factLoc(Loc, SM, &FD), Why);
  if (!ReportSkippedFunctions)
    return;
  std::int64_t Limit = Why.What == "MaxSolverIterations"
                           ? Config.MaxSolverIterations
                           : std::int64_t(Config.MaxBlockVisits);
  const FunctionDecl *Named = namedFunction(FD);
  diag(Loc, "%0") << skippedWarning(
      Named != &FD, Named->getQualifiedNameAsString(), Why, Limit);
}

bool UncheckedPolicyCallCheck::emit(const Finding &F, const SourceManager &SM,
                                    llvm::ArrayRef<Evidence> Extra) {
  SourceLocation Spelling = SM.getSpellingLoc(F.Loc);
  if (!Reported.insert(Spelling.getRawEncoding()).second)
    return false;
  {
    auto D = diag(F.Loc, F.Message);
    for (const FixItHint &Fix : F.Fixes)
      D << Fix;
    if (F.NeedsShimInclude)
      D << Inserter.createIncludeInsertion(
          SM.getFileID(SM.getExpansionLoc(F.Loc)),
          "<" + Config.ShimHeader + ">");
  }
  for (const FindingNote &N : F.Notes)
    diag(N.Loc, N.Message, DiagnosticIDs::Note);
  for (const Evidence &E : Extra)
    diag(F.OriginLoc, E.Message, DiagnosticIDs::Note);
  return true;
}

void UncheckedPolicyCallCheck::resolveCandidates() {
  // Facts cost a walk of the TU's user code: clang-tidy and clangd need them
  // only to decide candidates; the scanner merges every TU's.
  if (Pending.empty() && !Host->wantsEveryTUsFacts())
    return;
  ProjectFacts TUFacts;
  Analyzer->collectFacts(TUFacts);
  const SourceManager &SM = AnalyzerCtx->getSourceManager();
  Host->endTranslationUnit(
      std::move(TUFacts), Pending, SM,
      [&](const Finding &F, llvm::ArrayRef<Evidence> Extra) {
        return emit(F, SM, Extra);
      });
}

void UncheckedPolicyCallCheck::onEndOfTranslationUnit() {
  if (Analyzer)
    resolveCandidates();
  Pending.clear();
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  Reported.clear();
  SkipReported.clear();
}

} // namespace wrapguard
