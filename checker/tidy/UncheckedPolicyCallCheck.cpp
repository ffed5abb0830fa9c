//===- UncheckedPolicyCallCheck.cpp - wrapguard-unchecked-policy-call -----===//

#include "UncheckedPolicyCallCheck.h"
#include "ScannerHooks.h"
#include "SourceKeys.h"
#include "Wording.h"
#include "clang-tidy/utils/OptionsUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <mutex>

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
  ScannerHooks *Hooks = scannerHooks();
  if (Hooks) {
    Hooks->Analysing = FD;
    if (!Hooks->CrashIn.empty() &&
        FD->getQualifiedNameAsString() == Hooks->CrashIn)
      LLVM_BUILTIN_TRAP;
  }
  std::vector<Finding> Findings = Analyzer->analyze(*FD, &Status, &Why);
  if (Hooks)
    Hooks->Analysing = nullptr;
  if (Status == AnalysisStatus::Analyzed) {
    if (TUEvidence *Sink = scannerEvidence())
      ++Sink->Analysed;
  } else if (Status == AnalysisStatus::BudgetExceeded ||
             Status == AnalysisStatus::UnsupportedConstruct) {
    skipped(*FD, Why, *Result.SourceManager);
  }
  for (Finding &F : Findings) {
    if (F.Deferred)
      Pending.push_back(std::move(F));
    else
      emit(F, *Result.SourceManager, "", {});
  }
}

void UncheckedPolicyCallCheck::skipped(const FunctionDecl &FD,
                                       const SkipReason &Why,
                                       const SourceManager &SM) {
  // Instantiations of one template share a spelling: one skip for them all.
  SourceLocation Loc = FD.getLocation();
  if (!SkipReported.insert(SM.getSpellingLoc(Loc).getRawEncoding()).second)
    return;
  if (TUEvidence *Sink = scannerEvidence())
    Sink->Skipped.push_back({factLoc(Loc, SM, &FD), Why});
  if (!ReportSkippedFunctions)
    return;
  std::int64_t Limit = Why.What == "MaxSolverIterations"
                           ? Config.MaxSolverIterations
                           : std::int64_t(Config.MaxBlockVisits);
  const FunctionDecl *Named = namedFunction(FD);
  diag(Loc, "%0") << skippedWarning(
      Named != &FD, Named->getQualifiedNameAsString(), Why, Limit);
}

void UncheckedPolicyCallCheck::emit(const Finding &F, const SourceManager &SM,
                                    StringRef Prefix,
                                    llvm::ArrayRef<Evidence> Extra) {
  SourceLocation Spelling = SM.getSpellingLoc(F.Loc);
  if (!Reported.insert(Spelling.getRawEncoding()).second)
    return;
  {
    auto D = diag(F.Loc, (Prefix + F.Message).str());
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
}

/// The working directory the process started in: clang-tidy changes into
/// each compile command's directory before the check runs, so it is read
/// when the plugin is loaded.
static const std::string StartupDir = [] {
  llvm::SmallString<256> Dir;
  llvm::sys::fs::current_path(Dir);
  return std::string(Dir);
}();

/// The directory of the nearest .clang-tidy above File that sets FactsFile:
/// a relative FactsFile is relative to the configuration that names it.
static std::string configDirFor(StringRef File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  for (StringRef D = llvm::sys::path::parent_path(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Config(D);
    llvm::sys::path::append(Config, ".clang-tidy");
    if (auto Buffer = llvm::MemoryBuffer::getFile(Config))
      if ((*Buffer)->getBuffer().contains("FactsFile"))
        return D.str();
  }
  return "";
}

/// Facts files, read once per process and shared by every check instance
/// (clang-tidy makes one per TU, clangd one per parse); a file is read again
/// when it changes.
static llvm::Expected<std::shared_ptr<const ProjectFacts>>
loadFactsFile(StringRef Path) {
  static std::mutex Lock;
  static llvm::StringMap<
      std::pair<llvm::sys::TimePoint<>, std::shared_ptr<const ProjectFacts>>>
      Loaded;
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status))
    return llvm::createStringError(EC, "cannot read facts file '" + Path +
                                           "': " + EC.message());
  std::lock_guard<std::mutex> Guard(Lock);
  auto &Entry = Loaded[Path];
  if (Entry.second && Entry.first == Status.getLastModificationTime())
    return Entry.second;
  auto Facts = ProjectFacts::readFile(Path);
  if (!Facts)
    return Facts.takeError();
  Entry = {Status.getLastModificationTime(),
           std::make_shared<const ProjectFacts>(std::move(*Facts))};
  return Entry.second;
}

const ProjectFacts *UncheckedPolicyCallCheck::fileFacts() {
  if (FactsFile.empty())
    return nullptr;
  if (!FactsFileTried) {
    FactsFileTried = true;
    llvm::SmallString<256> Path(FactsFile);
    if (llvm::sys::path::is_relative(Path)) {
      // Relative to the .clang-tidy that names it; from --config or
      // --config-file, to where clang-tidy was started.
      std::string Dir = configDirFor(getCurrentMainFile());
      llvm::sys::fs::make_absolute(Dir.empty() ? StartupDir : Dir, Path);
    }
    auto Facts = loadFactsFile(Path);
    if (Facts)
      LoadedFacts = std::move(*Facts);
    else
      configurationDiag(FactsFileDiag) << "wrapguard-unchecked-policy-call"
                                       << llvm::toString(Facts.takeError());
  }
  return LoadedFacts.get();
}

void UncheckedPolicyCallCheck::resolveCandidates() {
  TUEvidence *Sink = scannerEvidence();
  // clang-tidy and clangd need facts only to decide candidates; the scanner
  // needs every TU's.
  if (Pending.empty() && !Sink)
    return;
  ProjectFacts TUFacts;
  Analyzer->collectFacts(TUFacts);
  const SourceManager &SM = AnalyzerCtx->getSourceManager();

  if (Sink) {
    Sink->Facts.merge(TUFacts);
    for (const Finding &F : Pending) {
      std::string Marker = candidateMarker(Sink->Candidates.size());
      Sink->Candidates.push_back(*F.Deferred);
      Sink->Origins.push_back(factLoc(F.OriginLoc, SM, nullptr));
      emit(F, SM, Marker, {});
    }
    return;
  }
  // Only what the candidates refer to matters; a project's facts file may
  // hold a hundred thousand sources, so those few are looked up rather
  // than merged whole.
  std::vector<Candidate> Cs;
  for (const Finding &F : Pending)
    Cs.push_back(*F.Deferred);
  ProjectFacts Relevant = relevantFacts({&TUFacts, fileFacts()}, Cs);
  for (const Finding &F : Pending) {
    Resolution R = resolve(Relevant, *F.Deferred);
    if (R.Report)
      emit(F, SM, "", R.Notes);
  }
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
