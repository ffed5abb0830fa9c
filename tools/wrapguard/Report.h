//===- Report.h - The scanner's findings, free of clang-tidy --*- C++ -*-===//
//
// What a scan produced, in a form the writers (text, SARIF, JSON), the
// baseline filter and the merge command share. Nothing here includes Clang:
// the writers only need paths, positions and strings.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_REPORT_H
#define WRAPGUARD_TOOLS_REPORT_H

#include "Paths.h"
#include "ProjectFacts.h"
#include "SarifLog.h"
#include "SourceText.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace wrapguard {

struct SourceRef {
  std::string Path; ///< A reportPath.
  unsigned Offset = 0;
  TextPos Pos;
};

struct ReportNote {
  SourceRef Loc;
  std::string Message;
};

/// One replacement of a fix: [Offset, Offset + Length) becomes Text.
struct ReportEdit {
  std::string Path;
  unsigned Offset = 0;
  unsigned Length = 0;
  TextPos Begin, End;
  std::string Text;
};

struct ReportFinding {
  std::string Check;
  std::string Message;
  bool IsError = false; ///< Promoted by WarningsAsErrors.
  bool AlwaysEmpty = false;
  SourceRef Loc;
  /// Qualified name of the enclosing function; empty when unknown.
  std::string Function;
  /// The flagged line's text, whitespace-collapsed; input to the fingerprint.
  std::string LineText;
  std::vector<ReportNote> Notes;
  std::vector<ReportEdit> Edits;
  std::string Fingerprint;
  /// Decided by the project's facts rather than within its TU.
  bool Deferred = false;
};

/// A candidate as a shard keeps it for `merge`: the finding it would be
/// (without the evidence notes), what decides it, and where its notes go.
struct DeferredFinding {
  ReportFinding Finding;
  Candidate Cand;
  FactLoc Origin;
};

/// A problem with the scan itself (SARIF toolExecutionNotifications).
struct ReportNotification {
  std::string Id; ///< "parse-error", "missing-file", "no-compile-command", ...
  std::string Level; ///< "error", "warning" or "note".
  std::string Message;
  std::string Path; ///< Optional.
  TextPos Pos;      ///< Optional (Line == 0 when absent).
  /// Optional: the qualified name of the function it is about (a SARIF
  /// logical location).
  std::string Function;
};

/// A notification without a function, at \p Path (optional) without a
/// position.
inline ReportNotification notification(std::string Id, std::string Level,
                                       std::string Message,
                                       std::string Path = "") {
  ReportNotification N;
  N.Id = std::move(Id);
  N.Level = std::move(Level);
  N.Message = std::move(Message);
  N.Path = std::move(Path);
  return N;
}

/// The notification id of a function the check skipped because one of its
/// budgets ran out.
inline constexpr const char *BudgetNotificationId = "budget-exceeded";
/// The notification id of a function the check skipped for a construct it
/// does not analyse (an OpenMP task that shares a callable, ...).
inline constexpr const char *UnsupportedNotificationId =
    "unsupported-construct";

struct Report {
  std::vector<ReportFinding> Findings;
  std::vector<ReportNotification> Notifications;
  bool ExecutionSuccessful = true;
  std::vector<std::string> CommandLine;
  std::string WorkingDirectory;
  unsigned TranslationUnits = 0;
  unsigned SuppressedByBaseline = 0;
  /// Functions the check analysed to the end, summed over the TUs (a
  /// function in a header counts for the TU that claimed it), and those it
  /// skipped, each counted once and reported as a BudgetNotificationId or
  /// UnsupportedNotificationId notification.
  unsigned FunctionsAnalysed = 0;
  unsigned FunctionsSkipped = 0;
  /// How the parsed TUs shared their headers, for the summary: empty when
  /// none had heavy headers to share (ScanReport.cpp, parsingSummary).
  std::vector<std::string> Parsing;
  /// TUs whose facts are missing (ProjectFacts::missingTUs): the summary
  /// says which evidence was then not used.
  unsigned MissingTUs = 0;
  /// With --shard: the shard's facts and every candidate, written to the
  /// SARIF run's properties so that `merge` decides them project-wide.
  std::optional<ProjectFacts> ShardFacts;
  std::vector<DeferredFinding> ShardCandidates;
};

/// The note that shows one piece of evidence: at its own place, or at the
/// candidate's origin when it has none; its path a reportPath, its column in
/// characters read off \p Text.
ReportNote evidenceNote(const Evidence &E, const FactLoc &Origin,
                        SourceText &Text);

// Fingerprints and baselines (Baseline.cpp).

/// Fills ReportFinding::Fingerprint. Findings must be sorted by location:
/// identical findings are told apart by their order in a file.
void assignFingerprints(std::vector<ReportFinding> &Findings,
                        const PathOptions &Paths);
/// The fingerprints of every result in a SARIF file.
llvm::Expected<llvm::StringSet<>> loadBaseline(llvm::StringRef SarifPath);
/// Drops findings whose fingerprint is in \p Baseline; returns how many.
unsigned applyBaseline(std::vector<ReportFinding> &Findings,
                       const llvm::StringSet<> &Baseline);

// Fixes (Fixes.cpp).

/// Applies the findings' edits in place (--fix); a finding whose edits
/// overlap an earlier one's is skipped whole. Counts the findings whose
/// edits were applied and those that offered any; false on an I/O error,
/// which it reports on stderr.
bool applyFixes(const std::vector<ReportFinding> &Findings, unsigned &Applied,
                unsigned &Offered);

// Shards (Shard.cpp).

struct ShardSpec {
  unsigned Index = 1; ///< 1-based.
  unsigned Count = 1;
};
/// Parses "K/N" with 1 <= K <= N.
llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text);
/// The files of shard \p Spec, out of the sorted, deduplicated \p Files.
std::vector<std::string> selectShard(llvm::ArrayRef<std::string> Files,
                                     ShardSpec Spec);

// Writers.

struct ToolInfo {
  std::string Name = "wrapguard";
  std::string Version;
  /// The tool's home (tool.driver.informationUri); left out when empty.
  std::string InformationUri;
  /// The page of wrapguard-unchecked-policy-call (its rule's helpUri); left
  /// out when empty. The rule's help text is the check's doc either way.
  std::string RuleHelpUri;
};

void writeSarif(const Report &R, const ToolInfo &Tool, const PathOptions &Paths,
                llvm::raw_ostream &OS);
void writeJson(const Report &R, const PathOptions &Paths,
               llvm::raw_ostream &OS);

/// A SARIF relatedLocation for one note.
llvm::json::Object sarifRelatedLocation(unsigned Id, const ReportNote &N,
                                        const PathOptions &Paths);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_REPORT_H
