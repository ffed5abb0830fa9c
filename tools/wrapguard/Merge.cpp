//===- Merge.cpp - `wrapguard merge`: join the shards' SARIF logs ---------===//
//
// Each shard writes a log with one run. The merged log has one run: the
// first input's tool and uriBaseIds, the union of the rules, every
// invocation (so each shard's notifications and success flag survive), and
// the results, where a finding in a header that several shards reported
// appears once (same rule and fingerprint), as does a function in a header
// that several shards skipped over budget.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "Subcommands.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace wrapguard {

cl::SubCommand MergeCommand("merge",
                            "Join SARIF logs (e.g. one per --shard) into one "
                            "log with one run");

namespace {
cl::OptionCategory MergeCategory("wrapguard merge options");
cl::list<std::string> MergeInputs(cl::Positional,
                                  cl::desc("a.sarif b.sarif ..."),
                                  cl::sub(MergeCommand),
                                  cl::cat(MergeCategory));
cl::opt<std::string> MergeOutput("o",
                                 cl::desc("Write the merged log to this file "
                                          "(default: stdout)"),
                                 cl::value_desc("file"), cl::sub(MergeCommand),
                                 cl::cat(MergeCategory));
cl::alias MergeOutputLong("output", cl::aliasopt(MergeOutput));
} // namespace

ReportNote evidenceNote(const Evidence &E, const FactLoc &Origin,
                        SourceText &Text) {
  const FactLoc &L = E.Loc.valid() ? E.Loc : Origin;
  ReportNote N;
  N.Message = E.Message;
  N.Loc.Path = L.valid() ? reportPath(L.File) : L.File;
  N.Loc.Offset = L.Offset;
  // Facts count columns in bytes; SARIF's columnKind wants code points.
  N.Loc.Pos = Text.position(L.File, L.Offset, L.Line, L.Column);
  return N;
}

static std::string resultKey(const json::Object &Result) {
  std::string Key = Result.getString("ruleId").value_or("").str();
  Key += '\0';
  if (std::optional<StringRef> Print = resultFingerprint(Result))
    return Key + Print->str();
  // No fingerprint (another tool's log): keep every result.
  return "";
}

namespace {
/// What the shards left undecided: their facts, merged, and their
/// candidates, each once.
struct ShardEvidence {
  ProjectFacts Facts;
  std::vector<std::pair<Candidate, FactLoc>> Candidates;
  std::vector<json::Object> Results;
  StringSet<> Seen;
  PathOptions Paths;
};
} // namespace

/// Reads the properties a --shard run writes; false on malformed ones.
static bool readShardEvidence(const json::Object &Run, StringRef Path,
                              ShardEvidence &Out) {
  const json::Object *Props = Run.getObject("properties");
  if (!Props || !Props->get("wrapguard/facts"))
    return true;
  auto Facts = ProjectFacts::fromJSON(*Props->get("wrapguard/facts"));
  if (!Facts) {
    WithColor::error(errs(), "wrapguard merge")
        << "'" << Path << "': " << toString(Facts.takeError()) << "\n";
    return false;
  }
  Out.Facts.merge(*Facts);
  if (auto Root = Props->getString("wrapguard/sourceRoot"))
    Out.Paths.SourceRoot = Root->str();
  if (const json::Array *Cands = Props->getArray("wrapguard/candidates"))
    for (const json::Value &V : *Cands) {
      const json::Object *O = V.getAsObject();
      Candidate C;
      FactLoc Origin;
      if (!O || !O->get("candidate") || !O->getObject("result") ||
          !Candidate::fromJSON(*O->get("candidate"), C) ||
          !factLocFromJSON(O->get("origin"), Origin))
        continue;
      json::Object Result = *O->getObject("result");
      Result.erase("ruleIndex");
      std::string Key = resultKey(Result);
      if (!Key.empty() && !Out.Seen.insert(Key).second)
        continue;
      Out.Candidates.push_back({std::move(C), Origin});
      Out.Results.push_back(std::move(Result));
    }
  return true;
}

/// Result, without the property that marks it undecided (and without its
/// properties when that was the only one).
static json::Object withoutDeferredMark(const json::Object &Result) {
  json::Object Out;
  for (const auto &[K, V] : Result) {
    if (K != "properties") {
      Out[K] = V;
      continue;
    }
    json::Object Kept;
    if (const json::Object *P = V.getAsObject())
      for (const auto &[PK, PV] : *P)
        if (PK != "wrapguard/deferred")
          Kept[PK] = PV;
    if (!Kept.empty())
      Out["properties"] = std::move(Kept);
  }
  return Out;
}

/// The candidates the merged facts report, as results with their evidence.
/// A candidate that some shard decided on its own (a header's call, seen by
/// a TU that had the facts) is already among the results, once.
static void decideCandidates(ShardEvidence &E, json::Array &Results,
                             StringSet<> &ResultKeys) {
  SourceText Text;
  for (size_t I = 0; I < E.Candidates.size(); ++I) {
    std::string Key = resultKey(E.Results[I]);
    if (!Key.empty() && ResultKeys.contains(Key))
      continue;
    Resolution R = resolve(E.Facts, E.Candidates[I].first);
    if (!R.Report)
      continue;
    if (!Key.empty())
      ResultKeys.insert(Key);
    // Decided now: the merged log's results are final, and merging it
    // again must keep them. The result is built anew without the deferred
    // mark rather than edited in place: erasing members of a parsed object
    // left values behind that a later copy read after they were freed.
    json::Object Res = withoutDeferredMark(E.Results[I]);
    json::Array *Related = Res.getArray("relatedLocations");
    if (!Related) {
      Res["relatedLocations"] = json::Array();
      Related = Res.getArray("relatedLocations");
    }
    for (const Evidence &Ev : R.Notes)
      Related->push_back(sarifRelatedLocation(
          Related->size() + 1, evidenceNote(Ev, E.Candidates[I].second, Text),
          E.Paths));
    Results.push_back(std::move(Res));
  }
}

static bool isDeferredResult(const json::Object &Result) {
  const json::Object *P = Result.getObject("properties");
  return P && P->getBoolean("wrapguard/deferred").value_or(false);
}

/// A function over budget (or with an unsupported construct) in a header is
/// skipped by every shard that includes it; the merged log reports it once,
/// as a full scan does, and each invocation's functionsSkipped counts the
/// skips it still carries, so the invocations' counts add up to a full
/// scan's.
static void dropRepeatedSkips(json::Object &Invocation, StringSet<> &Seen) {
  json::Array *Notes = Invocation.getArray("toolExecutionNotifications");
  if (!Notes)
    return;
  json::Array Kept;
  unsigned Skips = 0;
  for (json::Value &N : *Notes) {
    const json::Object *O = N.getAsObject();
    const json::Object *D = O ? O->getObject("descriptor") : nullptr;
    std::optional<StringRef> Id = D ? D->getString("id") : std::nullopt;
    if (Id == StringRef(BudgetNotificationId) ||
        Id == StringRef(UnsupportedNotificationId)) {
      std::string Key;
      raw_string_ostream(Key) << N;
      if (!Seen.insert(Key).second)
        continue;
      ++Skips;
    }
    Kept.push_back(std::move(N));
  }
  *Notes = std::move(Kept);
  if (json::Object *P = Invocation.getObject("properties"))
    if (P->get("functionsSkipped"))
      (*P)["functionsSkipped"] = Skips;
}

namespace {
/// The merged run as the inputs' runs are added to it.
struct MergedRun {
  std::optional<json::Object> Tool, BaseIds;
  json::Array Rules, Invocations, Results;
  StringSet<> RuleIds, ResultKeys, SkipKeys;
  ShardEvidence Shards;
  std::string ColumnKind;
};
} // namespace

/// The first run's tool, the union of every run's rules, and the first
/// run's uriBaseIds (a warning when another run's differ).
static void addToolAndBase(json::Object &Run, StringRef Path, MergedRun &M) {
  if (json::Object *T = Run.getObject("tool")) {
    if (json::Object *Driver = T->getObject("driver"))
      if (json::Array *R = Driver->getArray("rules"))
        for (json::Value &Rule : *R)
          if (const json::Object *RO = Rule.getAsObject())
            if (M.RuleIds.insert(RO->getString("id").value_or("")).second)
              M.Rules.push_back(std::move(Rule));
    if (!M.Tool)
      M.Tool = std::move(*T);
  }
  if (json::Object *B = Run.getObject("originalUriBaseIds")) {
    if (!M.BaseIds)
      M.BaseIds = std::move(*B);
    else if (json::Value(std::move(*B)) !=
             json::Value(json::Object(*M.BaseIds)))
      WithColor::warning(errs(), "wrapguard merge")
          << "'" << Path
          << "' was written with another --source-root; its paths may not "
             "resolve\n";
  }
  if (M.ColumnKind.empty())
    M.ColumnKind = Run.getString("columnKind").value_or("").str();
}

/// The run's results, each once; a shard's deferred ones are left to
/// decideCandidates.
static void addResults(json::Object &Run, MergedRun &M) {
  const json::Object *Props = Run.getObject("properties");
  bool HasCandidates = Props && Props->getArray("wrapguard/candidates");
  json::Array *R = Run.getArray("results");
  if (!R)
    return;
  for (json::Value &Res : *R) {
    json::Object *RO = Res.getAsObject();
    if (!RO)
      continue;
    // Rule indices point into the input's rule array; the merged array has
    // another order, so refer to rules by id only.
    RO->erase("ruleIndex");
    // Decided again below, against the facts of every shard; only a run
    // that carries its candidates can have them decided again.
    if (HasCandidates && isDeferredResult(*RO))
      continue;
    std::string Key = resultKey(*RO);
    if (!Key.empty() && !M.ResultKeys.insert(Key).second)
      continue;
    M.Results.push_back(std::move(Res));
  }
}

/// Adds one input run; false on malformed shard properties.
static bool addRun(json::Object &Run, StringRef Path, MergedRun &M) {
  addToolAndBase(Run, Path, M);
  if (!readShardEvidence(Run, Path, M.Shards))
    return false;
  if (json::Array *I = Run.getArray("invocations"))
    for (json::Value &Inv : *I) {
      if (json::Object *IO = Inv.getAsObject())
        dropRepeatedSkips(*IO, M.SkipKeys);
      M.Invocations.push_back(std::move(Inv));
    }
  addResults(Run, M);
  return true;
}

static int writeMerged(MergedRun &M, StringRef Output) {
  if (!M.Tool)
    M.Tool = json::Object{{"driver", json::Object{{"name", "wrapguard"}}}};
  if (json::Object *Driver = M.Tool->getObject("driver"))
    (*Driver)["rules"] = std::move(M.Rules);
  json::Object Run{{"tool", std::move(*M.Tool)},
                   {"invocations", std::move(M.Invocations)},
                   {"results", std::move(M.Results)}};
  if (!M.ColumnKind.empty())
    Run["columnKind"] = M.ColumnKind;
  if (M.BaseIds)
    Run["originalUriBaseIds"] = std::move(*M.BaseIds);
  json::Value Merged = SarifLog::makeLog(std::move(Run));

  std::error_code EC;
  raw_fd_ostream OS(Output.empty() ? "-" : Output, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "wrapguard merge")
        << "cannot write '" << Output << "': " << EC.message() << "\n";
    return 2;
  }
  OS << formatv("{0:2}", Merged) << "\n";
  return 0;
}

int runMerge() {
  if (MergeInputs.empty()) {
    WithColor::error(errs(), "wrapguard merge")
        << "no input; usage: wrapguard merge [-o OUT] a.sarif b.sarif ...\n";
    return 2;
  }
  MergedRun M;
  for (const std::string &Path : MergeInputs) {
    Expected<SarifLog> Log = SarifLog::read(Path);
    if (!Log) {
      WithColor::error(errs(), "wrapguard merge")
          << toString(Log.takeError()) << "\n";
      return 2;
    }
    for (json::Value &Run : Log->runs())
      if (!addRun(*Run.getAsObject(), Path, M))
        return 2;
  }
  decideCandidates(M.Shards, M.Results, M.ResultKeys);
  return writeMerged(M, MergeOutput);
}

} // namespace wrapguard
