//===- PolicyCallAnalysis.h - Unchecked policy-call analysis ---*- C++ -*-===//
//
// The public face of the analysis behind wrapguard-unchecked-policy-call.
// It takes one function definition and returns findings: calls through a
// nullable callable (std::function, function pointer, smart pointer to a
// functor, ...) that may be empty on some path to the call, with notes and
// fix-its. It has no dependency on clang-tidy, so the clang-tidy check, the
// scanner and the unit tests all drive the same code.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_POLICYCALLANALYSIS_H
#define WRAPGUARD_ANALYSIS_POLICYCALLANALYSIS_H

#include "AnalysisOptions.h"
#include "Finding.h"
#include "ProjectFacts.h"
#include "SkipReason.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <memory>
#include <string>
#include <vector>

namespace wrapguard {

/// Per-function outcome, for statistics and tests. Skipped: nothing to
/// analyse (no body, dependent code) or a CFG that cannot be built, silently.
/// BudgetExceeded and UnsupportedConstruct: not analysed to the end, a skip
/// the caller reports with its SkipReason.
enum class AnalysisStatus {
  Analyzed,
  Skipped,
  BudgetExceeded,
  UnsupportedConstruct
};

class PolicyCallAnalyzer {
public:
  PolicyCallAnalyzer(clang::ASTContext &Ctx, AnalysisOptions Options);
  ~PolicyCallAnalyzer();

  /// Findings for one function definition (a lambda's call operator or a
  /// template instantiation included; for a constructor, its
  /// mem-initializers too). Dependent (uninstantiated) code, declarations
  /// without a body, functions over budget and functions with a construct
  /// the engine does not analyse yield none. When the status is
  /// BudgetExceeded or UnsupportedConstruct, Why (if given) is set to the
  /// reason.
  std::vector<Finding> analyze(const clang::FunctionDecl &FD,
                               AnalysisStatus *Status = nullptr,
                               SkipReason *Why = nullptr);

  const AnalysisOptions &options() const;

  /// Adds what this TU says about callable sources to Out: definitions'
  /// summaries (shared with the analysis), tests, fields and constructors.
  void collectFacts(ProjectFacts &Out);

  class Impl;

private:
  std::unique_ptr<Impl> I;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_POLICYCALLANALYSIS_H
