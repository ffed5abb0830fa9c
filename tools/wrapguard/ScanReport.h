//===- ScanReport.h - A scan's TUs made into one report ---------*- C++ -*-===//
//
// What the scan's TUs left -- clang-tidy's errors, facts and candidates,
// crashes, budget skips -- made into the Report the writers take: problems
// as notifications, findings deduplicated across TUs (a header included by
// several is reported once) and sorted by place, candidates decided against
// the facts of every TU.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SCANREPORT_H
#define WRAPGUARD_TOOLS_SCANREPORT_H

#include "Report.h"
#include "TUResult.h"
#include <deque>
#include <map>
#include <tuple>

namespace wrapguard {

/// What went wrong with one TU, as notifications: a cache entry it could
/// not trust (a note), a crash, or at most 20 of its compiler errors
/// (MaxParseErrorsPerTU).
void reportTUProblems(const TUResult &TU, SourceText &Text, Report &R);

/// Findings, deduplicated across TUs (a header included by several reports
/// once) and sorted by place. Candidates are decided here, against the
/// facts of every TU.
class FindingCollector {
public:
  /// \p BuildDir: the build folder, whose headers the header default of
  /// --source-root leaves out; \p Sharded: candidates are kept for merge.
  FindingCollector(const ProjectFacts &Facts, const PathOptions &Paths,
                   std::string BuildDir, bool Sharded, Report &R,
                   SourceText &Text)
      : Facts(Facts), Paths(Paths), BuildDir(std::move(BuildDir)),
        Sharded(Sharded), R(R), Text(Text) {}

  /// The TU's problems as notifications, and its findings.
  void addTU(const TUResult &TU);

  /// The findings in place order, and the errors clang-tidy's text reporter
  /// prints for them (alive as long as the collector and the TUs).
  void take(std::vector<ReportFinding> &Findings,
            std::vector<const clang::tidy::ClangTidyError *> &Errors) {
    for (auto &[Key, K] : Unique) {
      // A full scan's results are final: nothing marks them for merge.
      if (!Sharded)
        K.Finding.Deferred = false;
      Findings.push_back(std::move(K.Finding));
      Errors.push_back(K.Error);
    }
    Unique.clear();
  }

private:
  void addError(const TUResult &TU, const clang::tidy::ClangTidyError &E);
  /// E as a finding of TU: one the TU decided, or candidate C.
  void addFinding(const TUResult &TU, const clang::tidy::ClangTidyError &E,
                  const HandedCandidate *C);
  bool isProjectFile(const TUResult &TU, const clang::tidy::ClangTidyError &E);
  bool decide(ReportFinding &F, DeferredFinding &D);

  struct Kept {
    ReportFinding Finding;
    const clang::tidy::ClangTidyError *Error;
  };
  const ProjectFacts &Facts;
  const PathOptions &Paths;
  std::string BuildDir;
  bool Sharded;
  Report &R;
  SourceText &Text;
  std::map<std::tuple<std::string, unsigned, std::string, std::string>, Kept>
      Unique;
  std::deque<clang::tidy::ClangTidyError>
      Decided; // Candidates kept, with their notes.
};

/// A shard's candidates carry the fingerprint the finding has (or would
/// have) in a full scan, which is what merge deduplicates and baselines by.
void fingerprintCandidates(std::vector<DeferredFinding> &Candidates,
                           const std::vector<ReportFinding> &Findings,
                           const PathOptions &Paths);

/// Sums the check's function counts over the TUs, and reports each function
/// it skipped because a budget ran out once, however many TUs saw it (a
/// header's), in place order.
void reportBudgetSkips(const std::vector<TUResult> &TUs, SourceText &Text,
                       Report &R);

/// The summary's lines on sharing (Report::Parsing): how many parsed TUs
/// shared a PCH of their heavy headers or a preamble, how many were parsed
/// whole, and for each TU whose sharing was refused or undone, why. None
/// when no TU had heavy headers to share.
std::vector<std::string> parsingSummary(const std::vector<TUResult> &TUs);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SCANREPORT_H
