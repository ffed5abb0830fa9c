//===- Report.h - The scanner's findings, free of clang-tidy --*- C++ -*-===//
//
// What a scan produced, in a form the writers (text, SARIF, JSON), the
// baseline filter and the merge command share. Nothing here includes Clang:
// the writers only need paths, positions and strings.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_REPORT_H
#define WRAPGUARD_TOOLS_REPORT_H

#include "ProjectFacts.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace wrapguard {

/// A position in a file. Line and Column are 1-based; Column counts bytes
/// (as clang prints it), CharColumn counts Unicode code points (as SARIF's
/// columnKind "unicodeCodePoints" wants it).
struct TextPos {
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned CharColumn = 0;
};

struct SourceRef {
  std::string Path; ///< Absolute, normalized.
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

struct Report {
  std::vector<ReportFinding> Findings;
  std::vector<ReportNotification> Notifications;
  bool ExecutionSuccessful = true;
  std::vector<std::string> CommandLine;
  std::string WorkingDirectory;
  unsigned TranslationUnits = 0;
  unsigned SuppressedByBaseline = 0;
  /// Functions the check analysed to the end, summed over the TUs (a
  /// function in a header counts once per TU that analysed it), and those
  /// it skipped because a budget ran out, each counted once and reported as
  /// a BudgetNotificationId notification.
  unsigned FunctionsAnalysed = 0;
  unsigned FunctionsSkipped = 0;
  /// With --shard: the shard's facts and every candidate, written to the
  /// SARIF run's properties so that `merge` decides them project-wide.
  std::optional<ProjectFacts> ShardFacts;
  std::vector<DeferredFinding> ShardCandidates;
};

/// The note that shows one piece of evidence: at its own place, or at the
/// candidate's origin when it has none.
ReportNote evidenceNote(const Evidence &E, const FactLoc &Origin);

/// Where paths in reports are anchored. Empty: absolute paths everywhere.
struct PathOptions {
  std::string SourceRoot; ///< Absolute, no trailing separator.
};

/// Path of \p Abs relative to the source root when it lies under it, else
/// \p Abs unchanged. Always uses '/' separators in the relative case.
std::string relativePath(llvm::StringRef Abs, const PathOptions &Paths);
/// True when \p Abs lies under the source root.
bool isUnderSourceRoot(llvm::StringRef Abs, const PathOptions &Paths);

// Fingerprints and baselines (Baseline.cpp).

/// The partialFingerprints key wrapguard writes and reads.
inline constexpr const char *FingerprintKey = "wrapguard/v1";
/// Fills ReportFinding::Fingerprint. Findings must be sorted by location:
/// identical findings are told apart by their order in a file.
void assignFingerprints(std::vector<ReportFinding> &Findings,
                        const PathOptions &Paths);
/// The fingerprints of every result in a SARIF file.
llvm::Expected<llvm::StringSet<>> loadBaseline(llvm::StringRef SarifPath);
/// Drops findings whose fingerprint is in \p Baseline; returns how many.
unsigned applyBaseline(std::vector<ReportFinding> &Findings,
                       const llvm::StringSet<> &Baseline);

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
  std::string InformationUri;
};

void writeSarif(const Report &R, const ToolInfo &Tool, const PathOptions &Paths,
                llvm::raw_ostream &OS);
void writeJson(const Report &R, const PathOptions &Paths,
               llvm::raw_ostream &OS);

/// `wrapguard merge a.sarif b.sarif ...`: joins the runs of several SARIF
/// logs into one log with one run. Returns the process exit code.
int runMerge(llvm::ArrayRef<std::string> Inputs, llvm::StringRef Output);

/// A SARIF result for F (Sarif.cpp); merge rebuilds decided candidates with it.
llvm::json::Object sarifResult(const ReportFinding &F, unsigned RuleIndex,
                               const PathOptions &Paths);
/// A SARIF relatedLocation for one note.
llvm::json::Object sarifRelatedLocation(unsigned Id, const ReportNote &N,
                                        const PathOptions &Paths);

/// Percent-encodes a path for a URI (RFC 3986 path characters kept).
std::string encodeUriPath(llvm::StringRef Path);
/// Undoes encodeUriPath (and any other percent-encoding): each "%XX" with
/// two hex digits becomes its byte; anything else is kept as it is.
std::string decodeUriPath(llvm::StringRef Uri);
/// The path a SARIF artifact URI names: a file: URI without its scheme and
/// authority, or a relative reference, percent-decoded.
std::string uriToPath(llvm::StringRef Uri);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_REPORT_H
