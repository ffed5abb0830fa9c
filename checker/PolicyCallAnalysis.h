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

#ifndef WRAPGUARD_CHECKER_POLICYCALLANALYSIS_H
#define WRAPGUARD_CHECKER_POLICYCALLANALYSIS_H

#include "ProjectFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace wrapguard {

/// How a finding is repaired.
enum class FixMode {
  Guard, ///< `f(m)` -> `(f ? f(m) : m)`, `f(x);` -> `if (f) f(x);`
  None,  ///< Diagnose only.
  Shim,  ///< Rewrite to the runtime shim's null-safe helpers.
};

/// Parses "guard", "none" or "shim"; returns false on anything else.
bool parseFixMode(llvm::StringRef Text, FixMode &Out);
llvm::StringRef fixModeName(FixMode Mode);

struct AnalysisOptions {
  /// Regex (case-insensitive) that a callee's name must match to count as a
  /// policy when its definition is not visible.
  std::string PolicyNames = "policy";
  /// Extra nullable callable types: regexes over fully qualified names with a
  /// leading "::", e.g. "::llvm::unique_function".
  std::vector<std::string> NullableCallableTypes;
  /// Also report callables of unknown origin (parameters, fields, lookups).
  bool StrictMode = false;
  FixMode Fix = FixMode::Guard;
  /// Header the shim fix-its include.
  std::string ShimHeader = "wrapguard/call.h";
  /// Budgets per analysed function. A function that exceeds one yields no
  /// findings (AnalysisStatus::BudgetExceeded); the check reports the skip
  /// only when asked (ReportSkippedFunctions).
  std::int64_t MaxSolverIterations = 20000000;
  std::int32_t MaxBlockVisits = 50000;
  /// How deep callee summaries may recurse into other visible definitions.
  unsigned MaxSummaryDepth = 3;
  /// Leave sources the TU cannot judge (no visible definition, a virtual
  /// call, a field, a parameter) to the project's facts: such calls become
  /// Finding::Deferred candidates instead of being decided by PolicyNames
  /// here. The check and the scanner set it; the engine alone does not.
  bool DeferToProjectFacts = false;
};

struct FindingNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct Finding {
  /// Where the callable is named in the call (e.g. `f` in `f(m)`, `p` in
  /// `(*p)(m)`).
  clang::SourceLocation Loc;
  bool AlwaysEmpty = false;
  std::string Message;
  std::vector<FindingNote> Notes;
  /// Edits that repair the call; empty when no safe automatic edit exists
  /// (then Notes holds a note saying which check to add).
  std::vector<clang::FixItHint> Fixes;
  /// True when Fixes use the shim's helpers and need
  /// AnalysisOptions::ShimHeader.
  bool NeedsShimInclude = false;
  /// Set when the finding waits for the project's facts (see
  /// ProjectFacts.h): reported only if `resolve` says so, with its notes
  /// added at OriginLoc.
  std::optional<Candidate> Deferred;
  clang::SourceLocation OriginLoc;
};

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

// The wording of every diagnostic is an interface that tests match exactly:
//   call through possibly empty callable 'NAME'
//   call through callable 'NAME', which is always empty here
//   note: 'NAME' comes from 'CALLEE', which may return an empty callable
//   note: 'NAME' comes from 'CALLEE', which always returns an empty callable
//   note: 'NAME' is made empty here
//   note: 'NAME' is moved from here
//   note: check that 'NAME' is not empty before this call, e.g. 'if (NAME)'

/// The two wordings of a finding, which the scanner reads back.
std::string possiblyEmptyMessage(llvm::StringRef Name);
std::string alwaysEmptyMessage(llvm::StringRef Name);
bool isAlwaysEmptyMessage(llvm::StringRef Message);
/// A function skipped over budget: "'NAME' was not analysed: it exceeds the
/// budget OPTION" ("a function" when the name is empty). The check's warning
/// and the scanner's notification both say this.
std::string skippedMessage(llvm::StringRef Name, llvm::StringRef Budget);

} // namespace wrapguard

#endif // WRAPGUARD_CHECKER_POLICYCALLANALYSIS_H
