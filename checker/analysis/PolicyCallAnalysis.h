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
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <memory>
#include <string>
#include <vector>

namespace wrapguard {

/// Per-function outcome, for statistics and tests.
enum class AnalysisStatus { Analyzed, Skipped, BudgetExceeded };

class PolicyCallAnalyzer {
public:
  PolicyCallAnalyzer(clang::ASTContext &Ctx, AnalysisOptions Options);
  ~PolicyCallAnalyzer();

  /// Findings for one function definition (a lambda's call operator or a
  /// template instantiation included; for a constructor, its
  /// mem-initializers too). Dependent (uninstantiated) code, declarations
  /// without a body, and functions over budget yield none. When the status is
  /// BudgetExceeded, Budget (if given) is set to the option that names the
  /// budget that ran out: `MaxBlockVisits` or `MaxSolverIterations`.
  std::vector<Finding> analyze(const clang::FunctionDecl &FD,
                               AnalysisStatus *Status = nullptr,
                               std::string *Budget = nullptr);

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
