//===- UncheckedPolicyCallCheck.cpp - wrapguard-unchecked-policy-call -----===//

#include "UncheckedPolicyCallCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace wrapguard {

static constexpr llvm::StringLiteral FuncID = "func";
static constexpr llvm::StringLiteral LambdaID = "lambda";

UncheckedPolicyCallCheck::UncheckedPolicyCallCheck(
    StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Inserter(Options.getLocalOrGlobal("IncludeStyle",
                                        tidy::utils::IncludeSorter::IS_LLVM),
               areDiagsSelfContained()) {
  AnalysisOptions Defaults;
  Config.PolicyNames =
      Options.get("PolicyNames", StringRef(Defaults.PolicyNames)).str();
  RawNullableTypes = Options.get("NullableCallableTypes", "").str();
  llvm::SmallVector<StringRef> Parts;
  StringRef(RawNullableTypes).split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    if (!P.trim().empty())
      Config.NullableCallableTypes.push_back(P.trim().str());
  Config.StrictMode = Options.get("StrictMode", false);
  RawFixMode = Options.get("FixMode", "guard").str();
  if (!parseFixMode(RawFixMode, Config.Fix)) {
    configurationDiag("invalid FixMode '%0' for %1; expected 'guard', 'none' "
                      "or 'shim'; using 'guard'")
        << RawFixMode << Name;
    Config.Fix = FixMode::Guard;
  }
  Config.ShimHeader =
      Options.get("ShimHeader", StringRef(Defaults.ShimHeader)).str();
  Config.MaxSolverIterations =
      Options.get("MaxSolverIterations", Defaults.MaxSolverIterations);
  Config.MaxBlockVisits =
      Options.get("MaxBlockVisits", Defaults.MaxBlockVisits);
}

void UncheckedPolicyCallCheck::storeOptions(
    tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "PolicyNames", Config.PolicyNames);
  Options.store(Opts, "NullableCallableTypes", RawNullableTypes);
  Options.store(Opts, "StrictMode", Config.StrictMode);
  Options.store(Opts, "FixMode", fixModeName(Config.Fix));
  Options.store(Opts, "ShimHeader", Config.ShimHeader);
  Options.store(Opts, "MaxSolverIterations", Config.MaxSolverIterations);
  Options.store(Opts, "MaxBlockVisits", Config.MaxBlockVisits);
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
  }

  const SourceManager &SM = *Result.SourceManager;
  for (Finding &F : Analyzer->analyze(*FD)) {
    SourceLocation Spelling = SM.getSpellingLoc(F.Loc);
    if (!Reported.insert(Spelling.getRawEncoding()).second)
      continue;
    {
      auto D = diag(F.Loc, F.Message);
      for (const FixItHint &Fix : F.Fixes)
        D << Fix;
      if (F.NeedsShimInclude)
        D << Inserter.createIncludeInsertion(SM.getFileID(SM.getExpansionLoc(F.Loc)),
                                             "<" + Config.ShimHeader + ">");
    }
    for (const FindingNote &N : F.Notes)
      diag(N.Loc, N.Message, DiagnosticIDs::Note);
  }
}

void UncheckedPolicyCallCheck::onEndOfTranslationUnit() {
  Analyzer.reset();
  AnalyzerCtx = nullptr;
  Reported.clear();
}

} // namespace wrapguard
