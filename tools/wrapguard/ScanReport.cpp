//===- ScanReport.cpp - A scan's TUs made into one report -----------------===//

#include "ScanReport.h"
#include "CrashGuard.h"
#include "Wording.h"
#include "clang/Tooling/Core/Replacement.h"

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace wrapguard {

/// A TU that crashed, as one notification: which TU, where, and that its
/// findings and facts are missing.
static void reportCrash(const TUResult &TU, Report &R) {
  std::string Where = !TU.CrashFunction.empty()
                          ? " in the analysis of '" + TU.CrashFunction + "'"
                      : TU.CrashAfterParse
                          ? std::string(" after parsing")
                          : std::string(" in clang's front end");
  ReportNotification N = notification(
      "crash", "error",
      "the scan of '" + TU.File + "' crashed (" + signalName(TU.CrashSignal) +
          ")" + Where + "; its findings and facts are missing",
      reportPath(TU.File));
  N.Function = TU.CrashFunction;
  R.Notifications.push_back(std::move(N));
}

/// How many compiler errors of a TU that does not parse are reported: the
/// first ones say what is wrong, the rest mostly follow from them.
constexpr unsigned MaxParseErrorsPerTU = 20;

/// What went wrong with one TU, as notifications: a cache entry it could
/// not trust (a note), a crash, or the first MaxParseErrorsPerTU of its
/// compiler errors.
void reportTUProblems(const TUResult &TU, SourceText &Text, Report &R) {
  if (!TU.CacheNote.empty())
    R.Notifications.push_back(notification("cache-entry-ignored", "note",
                                           TU.CacheNote, reportPath(TU.File)));
  if (TU.Parsed)
    return;
  if (TU.CrashSignal)
    return reportCrash(TU, R);
  unsigned Reported = 0;
  for (const ClangTidyError &E : TU.Errors) {
    if (!isCompilerError(E) || Reported++ >= MaxParseErrorsPerTU)
      continue;
    ReportNotification N =
        notification("parse-error", "error",
                     "cannot parse '" + TU.File + "': " + E.Message.Message);
    if (!E.Message.FilePath.empty()) {
      N.Path = reportPath(E.Message.FilePath, E.BuildDirectory);
      N.Pos = Text.position(N.Path, E.Message.FileOffset);
    }
    R.Notifications.push_back(std::move(N));
  }
  if (!Reported)
    R.Notifications.push_back(notification(
        "parse-error", "error",
        "the compiler could not process '" + TU.File + "'", TU.File));
}

/// One of clang-tidy's errors as the writers see it.
static ReportFinding toFinding(const ClangTidyError &E, const TUResult &TU,
                               SourceText &Text) {
  ReportFinding F;
  F.Check = E.DiagnosticName;
  F.Message = E.Message.Message;
  F.IsError = E.DiagLevel == ClangTidyError::Error || E.IsWarningAsError;
  F.AlwaysEmpty = isAlwaysEmptyMessage(F.Message);
  F.Loc.Path = reportPath(E.Message.FilePath, E.BuildDirectory);
  F.Loc.Offset = E.Message.FileOffset;
  F.Loc.Pos = Text.position(F.Loc.Path, F.Loc.Offset);
  F.LineText = Text.lineText(F.Loc.Path, F.Loc.Offset);
  auto Fn = TU.Functions.find({E.Message.FilePath, E.Message.FileOffset});
  if (Fn != TU.Functions.end())
    F.Function = Fn->second;
  for (const DiagnosticMessage &Note : E.Notes) {
    ReportNote N;
    N.Message = Note.Message;
    if (Note.FilePath.empty())
      continue;
    N.Loc.Path = reportPath(Note.FilePath, E.BuildDirectory);
    N.Loc.Offset = Note.FileOffset;
    N.Loc.Pos = Text.position(N.Loc.Path, N.Loc.Offset);
    F.Notes.push_back(std::move(N));
  }
  for (const auto &FileFix : E.Message.Fix)
    for (const Replacement &Rep : FileFix.second) {
      ReportEdit Edit;
      Edit.Path = reportPath(Rep.getFilePath(), E.BuildDirectory);
      Edit.Offset = Rep.getOffset();
      Edit.Length = Rep.getLength();
      Edit.Text = Rep.getReplacementText().str();
      Edit.Begin = Text.position(Edit.Path, Edit.Offset);
      Edit.End = Text.position(Edit.Path, Edit.Offset + Edit.Length);
      F.Edits.push_back(std::move(Edit));
    }
  return F;
}

/// Adds a decided candidate's evidence note to both of its forms: the
/// finding the writers use and the error clang-tidy's text reporter prints.
static void addEvidence(ClangTidyError &E, ReportFinding &F,
                        const ReportNote &N) {
  F.Notes.push_back(N);
  DiagnosticMessage Note;
  Note.Message = N.Message;
  Note.FilePath = N.Loc.Path;
  Note.FileOffset = N.Loc.Offset;
  E.Notes.push_back(std::move(Note));
}

void FindingCollector::addTU(const TUResult &TU) {
  reportTUProblems(TU, Text, R);
  for (const ClangTidyError &E : TU.Errors)
    if (!isCompilerError(E) && !E.Message.FilePath.empty())
      addError(TU, E);
}

/// Under the header default of --source-root: the TU's main file, or a
/// header under the source root and outside the build folder. clang-tidy
/// reported it under the filter ".*", which cannot say this: it matches
/// paths as spelled, `..` and all.
bool FindingCollector::isProjectFile(const TUResult &TU,
                                     const ClangTidyError &E) {
  std::string Path = reportPath(E.Message.FilePath, E.BuildDirectory);
  if (Path == reportPath(TU.File))
    return true;
  return isUnderSourceRoot(Path, Paths) && !isUnder(Path, BuildDir);
}

void FindingCollector::addError(const TUResult &TU, const ClangTidyError &E) {
  if (TU.HeadersUnderSourceRoot && !isProjectFile(TU, E))
    return;
  std::vector<const HandedCandidate *> Candidates = TU.Evidence.candidatesOf(E);
  if (Candidates.empty()) {
    addFinding(TU, E, nullptr);
    return;
  }
  // Candidates that clang-tidy reported as one diagnostic (two calls in one
  // macro expansion) are decided in turn, until one is reported.
  for (const HandedCandidate *C : Candidates)
    addFinding(TU, E, C);
}

void FindingCollector::addFinding(const TUResult &TU, const ClangTidyError &E,
                                  const HandedCandidate *C) {
  const ClangTidyError *Err = &E;
  bool IsCandidate = C != nullptr;
  DeferredFinding D;
  if (IsCandidate) {
    Decided.push_back(E);
    Err = &Decided.back();
    D.Cand = C->Cand;
    D.Origin = C->Origin;
  }
  ReportFinding F = toFinding(*Err, TU, Text);
  auto Key = std::make_tuple(F.Loc.Path, F.Loc.Offset, F.Check, F.Message);
  auto Same = Unique.find(Key);
  // A finding in a header that one TU decided on its own and another left
  // as a candidate is kept as decided, whatever the TUs' order (a merge of
  // shards keeps the same one).
  bool Drop =
      Same != Unique.end() && (IsCandidate || !Same->second.Finding.Deferred);
  if (!Drop && IsCandidate)
    Drop = !decide(F, D);
  if (Drop) {
    if (IsCandidate)
      Decided.pop_back();
    return;
  }
  if (Same != Unique.end())
    Unique.erase(Same);
  Unique.emplace(std::move(Key), Kept{std::move(F), Err});
}

/// Decides a candidate against the project's facts; true when it is
/// reported, with its evidence added to \p F and to its error.
bool FindingCollector::decide(ReportFinding &F, DeferredFinding &D) {
  // Marked for `wrapguard merge`, which decides a shard's candidates again;
  // only a shard's results are provisional.
  F.Deferred = true;
  D.Finding = F;
  if (Sharded)
    R.ShardCandidates.push_back(D);
  Resolution Res = resolve(Facts, D.Cand);
  if (!Res.Report)
    return false;
  for (const Evidence &Ev : Res.Notes)
    addEvidence(Decided.back(), F, evidenceNote(Ev, D.Origin, Text));
  return true;
}

/// A shard's candidates carry the fingerprint the finding has (or would
/// have) in a full scan, which is what merge deduplicates and baselines by.
void fingerprintCandidates(std::vector<DeferredFinding> &Candidates,
                           const std::vector<ReportFinding> &Findings,
                           const PathOptions &Paths) {
  for (DeferredFinding &D : Candidates) {
    auto Same = llvm::find_if(Findings, [&](const ReportFinding &F) {
      return F.Loc.Path == D.Finding.Loc.Path &&
             F.Loc.Offset == D.Finding.Loc.Offset &&
             F.Message == D.Finding.Message;
    });
    if (Same != Findings.end()) {
      D.Finding.Fingerprint = Same->Fingerprint;
      continue;
    }
    std::vector<ReportFinding> One{D.Finding};
    assignFingerprints(One, Paths);
    D.Finding.Fingerprint = One.front().Fingerprint;
  }
}

/// Sums the check's function counts over the TUs, and reports each function
/// it skipped because a budget ran out once, however many TUs saw it (a
/// header's), in place order.
void reportBudgetSkips(const std::vector<TUResult> &TUs, SourceText &Text,
                       Report &R) {
  using Skip = TUEvidence::Skip;
  std::map<std::tuple<std::string, unsigned, std::string>, const Skip *> Skips;
  for (const TUResult &TU : TUs) {
    R.FunctionsAnalysed += TU.Evidence.Analysed;
    for (const Skip &S : TU.Evidence.Skipped)
      Skips.try_emplace(
          {S.Where.valid() ? reportPath(S.Where.File) : std::string(),
           S.Where.Offset, S.Where.Function},
          &S);
  }
  for (const auto &[Key, S] : Skips) {
    const FactLoc &L = S->Where;
    ReportNotification N;
    N.Id =
        S->Reason.isBudget() ? BudgetNotificationId : UnsupportedNotificationId;
    N.Level = "note";
    N.Message = skippedMessage(L.Function, S->Reason);
    N.Function = L.Function;
    N.Path = L.File;
    if (L.valid()) {
      N.Path = reportPath(L.File);
      // Columns in characters when the file is there to count them.
      N.Pos = Text.position(N.Path, L.Offset, L.Line, L.Column);
    }
    R.Notifications.push_back(std::move(N));
  }
  R.FunctionsSkipped = Skips.size();
}

std::vector<std::string> parsingSummary(const std::vector<TUResult> &TUs) {
  unsigned Shared = 0, Preamble = 0, Whole = 0;
  std::vector<std::string> Refused;
  for (const TUResult &TU : TUs) {
    llvm::StringRef How = TU.Parsing;
    if (How.empty())
      continue; // From the cache.
    if (How.starts_with("shared headers")) {
      ++Shared;
    } else if (How.starts_with("preamble")) {
      ++Preamble;
    } else {
      ++Whole;
      // Those that had heavy headers to share and did not.
      for (llvm::StringRef Why : {"parsed whole: not with the shared headers: ",
                                  "parsed whole: no shared headers: "})
        if (How.starts_with(Why))
          Refused.push_back(
              reportPath(TU.File) + ": " +
              How.drop_front(llvm::StringRef("parsed whole: ").size()).str());
    }
  }
  if (!Shared && Refused.empty())
    return {};
  std::vector<std::string> Lines;
  Lines.push_back(std::to_string(Shared) + " of " +
                  std::to_string(Shared + Preamble + Whole) +
                  " parsed TUs shared a parse of their heavy headers, " +
                  std::to_string(Preamble) + " a preamble; " +
                  std::to_string(Whole) + " were parsed whole");
  for (std::string &Line : Refused)
    Lines.push_back("parsed whole, " + Line);
  return Lines;
}

} // namespace wrapguard
