//===- UncheckedPolicyCallCheck.h - unchecked-policy-call --*- C++ -*-===//
//
// Flags calls through a nullable callable (the result of a wrap policy, or an
// empty made locally) that may be empty on some path to the call. The check
// is thin: it picks the functions worth analysing, hands each to
// PolicyCallAnalyzer, and turns findings into diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TIDY_UNCHECKEDPOLICYCALLCHECK_H
#define WRAPGUARD_TIDY_UNCHECKEDPOLICYCALLCHECK_H

#include "CheckHost.h"
#include "PolicyCallAnalysis.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/utils/IncludeInserter.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy {
/// FixMode's spellings in CheckOptions: `guard`, `none`, `shim`; clang-tidy
/// reports any other value as a configuration problem.
template <> struct OptionEnumMapping<wrapguard::FixMode> {
  static llvm::ArrayRef<std::pair<wrapguard::FixMode, llvm::StringRef>>
  getEnumMapping();
};
} // namespace clang::tidy

namespace wrapguard {

class UncheckedPolicyCallCheck : public clang::tidy::ClangTidyCheck {
public:
  UncheckedPolicyCallCheck(llvm::StringRef Name,
                           clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  void
  checkFunction(const clang::FunctionDecl &FD,
                const clang::ast_matchers::MatchFinder::MatchResult &Result);
  /// A function the analysis did not analyse to the end, over a budget or
  /// for a construct: handed to the host, and reported when
  /// ReportSkippedFunctions is set (once per spelling).
  void skipped(const clang::FunctionDecl &FD, const SkipReason &Why,
               const clang::SourceManager &SM);
  /// Emits F with Extra notes at F.OriginLoc; false when a finding at its
  /// spelling was emitted already.
  bool emit(const Finding &F, const clang::SourceManager &SM,
            llvm::ArrayRef<Evidence> Extra);
  /// Hands the TU's candidates, with its facts, to the host, which decides
  /// them now or later.
  void resolveCandidates();

  AnalysisOptions Config;
  std::string FactsFile;
  bool ReportSkippedFunctions = false;
  /// Whoever runs the check: the host installed for its context, or
  /// OwnHost, the default.
  CheckHost *Host = nullptr;
  std::unique_ptr<CheckHost> OwnHost;
  /// Candidates of the current TU, decided at its end.
  std::vector<Finding> Pending;
  clang::tidy::utils::IncludeInserter Inserter;
  std::unique_ptr<PolicyCallAnalyzer> Analyzer;
  const clang::ASTContext *AnalyzerCtx = nullptr;
  // A template instantiated many times, or a lambda nested in one, yields the
  // same finding at the same spelling; it is reported once.
  llvm::DenseSet<unsigned> Reported;
  /// Skipped functions already handed over or reported, by spelling.
  llvm::DenseSet<unsigned> SkipReported;
};

} // namespace wrapguard

#endif // WRAPGUARD_TIDY_UNCHECKEDPOLICYCALLCHECK_H
