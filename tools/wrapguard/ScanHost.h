//===- ScanHost.h - The check's host in the scanner -------------*- C++ -*-===//
//
// The scanner decides candidates only once every TU's facts are in, so its
// host takes, per TU, what the check hands over: the TU's facts, its
// candidates and the diagnostic each was reported as, and the functions the
// check analysed or skipped. It also names the function the check was
// analysing when the TU crashes, and, for the tests of crash isolation,
// crashes in one on request.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SCANHOST_H
#define WRAPGUARD_TOOLS_SCANHOST_H

#include "CheckHost.h"
#include "ProjectFacts.h"
#include "SkipReason.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace wrapguard {

/// A diagnostic as clang-tidy's error records it: the file and offset of its
/// location (macro expansions resolved), and its message.
struct DiagnosticKey {
  std::string File;
  unsigned Offset = 0;
  std::string Message;

  /// The key of the diagnostic the check reports for F.
  static DiagnosticKey of(const Finding &F, const clang::SourceManager &SM);
  /// The key of a warning clang-tidy kept.
  static DiagnosticKey of(const clang::tidy::ClangTidyError &E);
  bool operator<(const DiagnosticKey &O) const {
    return std::tie(File, Offset, Message) <
           std::tie(O.File, O.Offset, O.Message);
  }
  bool operator==(const DiagnosticKey &O) const {
    return std::tie(File, Offset, Message) ==
           std::tie(O.File, O.Offset, O.Message);
  }
};

/// A candidate the check reported in a TU: what decides it, and the
/// diagnostic it was reported as. clang-tidy's filters (NOLINT, the header
/// filter, its deduplication) decide whether that diagnostic survives; the
/// scanner finds the candidate of each one that does by its key.
struct HandedCandidate {
  Candidate Cand;
  /// Where its notes go when the facts have no place of their own for them.
  FactLoc Origin;
  DiagnosticKey Diagnostic;
};

/// What one TU leaves for the project-wide decision.
struct TUEvidence {
  ProjectFacts Facts;
  std::vector<HandedCandidate> Candidates;
  /// Functions the check analysed to the end in this TU.
  unsigned Analysed = 0;
  /// Functions not analysed to the end, because a budget ran out or for a
  /// construct the engine does not analyse, in the order met. The scanner
  /// reports each as a SARIF tool-execution notification and counts them in
  /// its summary line, so "no finding" is never "not analysed".
  struct Skip {
    /// The function's name in its definition; Where.Function is its
    /// qualified name, e.g. `ns::Trainer::step`.
    FactLoc Where;
    /// Why: the budget's option (`MaxBlockVisits`, `MaxSolverIterations`)
    /// or the construct.
    SkipReason Reason;
  };
  std::vector<Skip> Skipped;

  /// The candidates reported as E, in the order the check found them;
  /// none when E is a finding the TU decided alone, or another check's.
  std::vector<const HandedCandidate *>
  candidatesOf(const clang::tidy::ClangTidyError &E) const;
};

/// The host of the check in one TU the scanner runs.
class ScanHost : public CheckHost {
public:
  /// CrashIn (hidden --debug-crash-in): the check crashes when it is about
  /// to analyse the function of this qualified name.
  explicit ScanHost(std::string CrashIn) : CrashIn(std::move(CrashIn)) {}

  void beginFunction(const clang::FunctionDecl &FD) override;
  void endFunction(const clang::FunctionDecl &FD,
                   AnalysisStatus Status) override;
  void skippedFunction(const FactLoc &Where, const SkipReason &Why) override;
  void reported(const Finding &F, const clang::SourceManager &SM) override;
  bool wantsEveryTUsFacts() const override { return true; }
  void endTranslationUnit(ProjectFacts &&TUFacts,
                          llvm::ArrayRef<Finding> Candidates,
                          const clang::SourceManager &SM,
                          EmitFinding Emit) override;

  /// The function the check is analysing, null between functions. Read
  /// after a crash, when the AST it points into is still allocated.
  const clang::FunctionDecl *analysing() const { return Analysing; }
  /// What the TU left; taken once it is done.
  TUEvidence takeEvidence() { return std::move(Evidence); }

private:
  std::string CrashIn;
  const clang::FunctionDecl *Analysing = nullptr;
  TUEvidence Evidence;
  /// The diagnostics of the findings the TU decided alone.
  std::set<DiagnosticKey> Decided;
};

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SCANHOST_H
