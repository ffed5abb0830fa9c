//===- Sarif.cpp - --format=sarif, SARIF 2.1.0 for code scanning ----------===//
//
// One run per log. Paths under --source-root are written relative to the
// uriBaseId %SRCROOT% (declared in originalUriBaseIds), the rest as absolute
// file: URIs. Columns count Unicode code points (columnKind
// "unicodeCodePoints"), which is what GitHub code scanning renders.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace wrapguard {

namespace {

// The help GitHub's code-scanning panel shows for a rule: sections of the
// check's doc page (docs/checks/), embedded at build time by RuleHelp.cmake
// as WRAPGUARD_RULE_HELP_MARKDOWN.
#include "RuleHelp.inc"

struct RuleInfo {
  const char *Id;
  const char *Name;
  const char *Short;
  const char *Full;
  const char *HelpMarkdown;
};

// Checks the scanner knows by name; any other check that reports gets a
// generic rule so every result still references one.
const RuleInfo KnownRules[] = {
    {"wrapguard-unchecked-policy-call", "UncheckedPolicyCall",
     "Call through a possibly empty callable",
     "A callable that may be empty (the result of a wrap policy, an empty "
     "std::function, a null function pointer) is called on a path where "
     "nothing checked it. Calling an empty std::function throws "
     "std::bad_function_call; calling a null function pointer is undefined "
     "behaviour.",
     WRAPGUARD_RULE_HELP_MARKDOWN},
};

const RuleInfo *findRule(StringRef Id) {
  for (const RuleInfo &R : KnownRules)
    if (Id == R.Id)
      return &R;
  return nullptr;
}

json::Object artifactLocation(StringRef Abs, const PathOptions &Paths) {
  if (isUnderSourceRoot(Abs, Paths))
    return json::Object{{"uri", encodeUriPath(relativePath(Abs, Paths))},
                        {"uriBaseId", "%SRCROOT%"}};
  return json::Object{
      {"uri", "file://" + encodeUriPath(sys::path::convert_to_slash(Abs))}};
}

json::Object region(const TextPos &Begin) {
  return json::Object{{"startLine", Begin.Line},
                      {"startColumn", Begin.CharColumn}};
}

json::Object physicalLocation(const SourceRef &Loc, const PathOptions &Paths) {
  return json::Object{{"artifactLocation", artifactLocation(Loc.Path, Paths)},
                      {"region", region(Loc.Pos)}};
}

json::Object rule(StringRef Id, const ToolInfo &Tool) {
  const RuleInfo *Info = findRule(Id);
  if (!Info)
    return json::Object{
        {"id", Id},
        {"shortDescription",
         json::Object{{"text", ("clang-tidy check " + Id).str()}}},
        {"defaultConfiguration", json::Object{{"level", "warning"}}}};
  json::Object Rule{
      {"id", Info->Id},
      {"name", Info->Name},
      {"shortDescription", json::Object{{"text", Info->Short}}},
      {"fullDescription", json::Object{{"text", Info->Full}}},
      // The Markdown reads as text too: SARIF requires "text", GitHub shows
      // "markdown".
      {"help", json::Object{{"text", Info->HelpMarkdown},
                            {"markdown", Info->HelpMarkdown}}},
      {"defaultConfiguration", json::Object{{"level", "warning"}}},
      {"properties",
       json::Object{{"tags", json::Array{"correctness", "reliability"}},
                    {"precision", "high"},
                    {"problem.severity", "warning"}}}};
  // Only an address someone configured: a made-up one would be a dead link.
  if (!Tool.RuleHelpUri.empty())
    Rule["helpUri"] = Tool.RuleHelpUri;
  return Rule;
}

} // namespace

json::Object sarifRelatedLocation(unsigned Id, const ReportNote &N,
                                  const PathOptions &Paths) {
  return json::Object{{"id", Id},
                      {"message", json::Object{{"text", N.Message}}},
                      {"physicalLocation", physicalLocation(N.Loc, Paths)}};
}

namespace {

json::Object result(const ReportFinding &F, unsigned RuleIndex,
                    const PathOptions &Paths) {
  json::Object Location{{"physicalLocation", physicalLocation(F.Loc, Paths)}};
  if (!F.Function.empty())
    Location["logicalLocations"] = json::Array{
        json::Object{{"fullyQualifiedName", F.Function}, {"kind", "function"}}};

  json::Object Res{
      {"ruleId", F.Check},
      {"ruleIndex", RuleIndex},
      {"level", F.IsError ? "error" : "warning"},
      {"message", json::Object{{"text", F.Message}}},
      {"locations", json::Array{std::move(Location)}},
      {"partialFingerprints", json::Object{{FingerprintKey, F.Fingerprint}}},
  };

  if (!F.Notes.empty()) {
    json::Array Related;
    unsigned Id = 1;
    for (const ReportNote &N : F.Notes)
      Related.push_back(sarifRelatedLocation(Id++, N, Paths));
    Res["relatedLocations"] = std::move(Related);
  }
  if (F.Deferred)
    Res["properties"] = json::Object{{"wrapguard/deferred", true}};

  if (!F.Edits.empty()) {
    // One artifactChange per file, replacements in file order.
    json::Array Changes;
    std::vector<const ReportEdit *> Edits;
    for (const ReportEdit &E : F.Edits)
      Edits.push_back(&E);
    // Equal places keep their order in F.Edits (the pointers' order).
    llvm::sort(Edits, [](const ReportEdit *A, const ReportEdit *B) {
      return std::tie(A->Path, A->Offset, A) < std::tie(B->Path, B->Offset, B);
    });
    for (size_t I = 0; I < Edits.size();) {
      json::Array Replacements;
      size_t J = I;
      for (; J < Edits.size() && Edits[J]->Path == Edits[I]->Path; ++J)
        Replacements.push_back(json::Object{
            {"deletedRegion",
             json::Object{{"startLine", Edits[J]->Begin.Line},
                          {"startColumn", Edits[J]->Begin.CharColumn},
                          {"endLine", Edits[J]->End.Line},
                          {"endColumn", Edits[J]->End.CharColumn}}},
            {"insertedContent", json::Object{{"text", Edits[J]->Text}}}});
      Changes.push_back(json::Object{
          {"artifactLocation", artifactLocation(Edits[I]->Path, Paths)},
          {"replacements", std::move(Replacements)}});
      I = J;
    }
    Res["fixes"] = json::Array{json::Object{
        // The check's fix-its depend on its FixMode (a guard, or the shim's
        // null-safe helpers), so describe the origin, not the edit.
        {"description", json::Object{{"text", "fix-it of " + F.Check}}},
        {"artifactChanges", std::move(Changes)}}};
  }
  return Res;
}

json::Object notification(const ReportNotification &N,
                          const PathOptions &Paths) {
  json::Object Out{{"level", N.Level},
                   {"message", json::Object{{"text", N.Message}}},
                   {"descriptor", json::Object{{"id", N.Id}}}};
  json::Object Location;
  if (!N.Path.empty()) {
    json::Object Phys{{"artifactLocation", artifactLocation(N.Path, Paths)}};
    if (N.Pos.Line)
      Phys["region"] = region(N.Pos);
    Location["physicalLocation"] = std::move(Phys);
  }
  if (!N.Function.empty())
    Location["logicalLocations"] = json::Array{
        json::Object{{"fullyQualifiedName", N.Function}, {"kind", "function"}}};
  if (!Location.empty())
    Out["locations"] = json::Array{std::move(Location)};
  return Out;
}

/// invocations[0]: success, the command line, the notifications, counts.
json::Object invocation(const Report &R, const PathOptions &Paths) {
  json::Array Notifications;
  for (const ReportNotification &N : R.Notifications)
    Notifications.push_back(notification(N, Paths));

  std::string CommandLine;
  for (const std::string &Arg : R.CommandLine) {
    if (!CommandLine.empty())
      CommandLine += ' ';
    CommandLine += Arg;
  }
  json::Object Invocation{
      {"executionSuccessful", R.ExecutionSuccessful},
      {"commandLine", CommandLine},
      {"arguments",
       json::Array(ArrayRef<std::string>(R.CommandLine)
                       .drop_front(R.CommandLine.empty() ? 0 : 1))},
      {"toolExecutionNotifications", std::move(Notifications)},
      {"properties",
       json::Object{{"translationUnits", R.TranslationUnits},
                    {"suppressedByBaseline", R.SuppressedByBaseline},
                    {"functionsAnalysed", R.FunctionsAnalysed},
                    {"functionsSkipped", R.FunctionsSkipped}}}};
  if (!R.WorkingDirectory.empty())
    Invocation["workingDirectory"] = json::Object{
        {"uri",
         "file://" +
             encodeUriPath(sys::path::convert_to_slash(R.WorkingDirectory)) +
             "/"}};
  return Invocation;
}

/// A shard's candidates, every one, so that merge can decide them against
/// the facts of all shards.
json::Array candidates(const Report &R, const StringMap<unsigned> &RuleIndex,
                       const PathOptions &Paths) {
  json::Array Candidates;
  for (const DeferredFinding &D : R.ShardCandidates) {
    ReportFinding F = D.Finding;
    F.Deferred = true;
    Candidates.push_back(
        json::Object{{"candidate", D.Cand.toJSON()},
                     {"origin", factLocToJSON(D.Origin)},
                     {"result", result(F, RuleIndex.lookup(F.Check), Paths)}});
  }
  return Candidates;
}

} // namespace

void writeSarif(const Report &R, const ToolInfo &Tool, const PathOptions &Paths,
                raw_ostream &OS) {
  // Rules: the known ones always, then any other check that reported.
  json::Array Rules;
  StringMap<unsigned> RuleIndex;
  for (const RuleInfo &Info : KnownRules) {
    RuleIndex[Info.Id] = Rules.size();
    Rules.push_back(rule(Info.Id, Tool));
  }
  for (const ReportFinding &F : R.Findings)
    if (RuleIndex.try_emplace(F.Check, Rules.size()).second)
      Rules.push_back(rule(F.Check, Tool));

  json::Array Results;
  for (const ReportFinding &F : R.Findings)
    Results.push_back(result(F, RuleIndex[F.Check], Paths));

  json::Object Driver{{"name", Tool.Name},
                      {"version", Tool.Version},
                      {"semanticVersion", Tool.Version},
                      {"rules", std::move(Rules)}};
  if (!Tool.InformationUri.empty())
    Driver["informationUri"] = Tool.InformationUri;
  json::Object Run{{"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"columnKind", "unicodeCodePoints"},
                   {"invocations", json::Array{invocation(R, Paths)}},
                   {"results", std::move(Results)}};
  if (R.ShardFacts)
    Run["properties"] =
        json::Object{{"wrapguard/facts", R.ShardFacts->toJSON()},
                     {"wrapguard/candidates", candidates(R, RuleIndex, Paths)},
                     {"wrapguard/sourceRoot", Paths.SourceRoot}};
  if (!Paths.SourceRoot.empty())
    Run["originalUriBaseIds"] = json::Object{
        {"%SRCROOT%",
         json::Object{{"uri", "file://" +
                                  encodeUriPath(sys::path::convert_to_slash(
                                      Paths.SourceRoot)) +
                                  "/"}}}};

  OS << formatv("{0:2}", SarifLog::makeLog(std::move(Run))) << "\n";
}

} // namespace wrapguard
