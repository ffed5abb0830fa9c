//===- Merge.cpp - `wrapguard merge`: join the shards' SARIF logs ---------===//
//
// Each shard writes a log with one run. The merged log has one run: the
// first input's tool and uriBaseIds, the union of the rules, every
// invocation (so each shard's notifications and success flag survive), and
// the results, where a finding in a header that several shards reported
// appears once (same rule and fingerprint).
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace wrapguard {

static std::optional<json::Value> readLog(StringRef Path) {
  auto Buffer = MemoryBuffer::getFileOrSTDIN(Path);
  if (!Buffer) {
    WithColor::error(errs(), "wrapguard merge")
        << "cannot read '" << Path << "': " << Buffer.getError().message()
        << "\n";
    return std::nullopt;
  }
  Expected<json::Value> Log = json::parse((*Buffer)->getBuffer());
  if (!Log) {
    WithColor::error(errs(), "wrapguard merge")
        << "'" << Path << "' is not JSON: " << toString(Log.takeError())
        << "\n";
    return std::nullopt;
  }
  const json::Object *Root = Log->getAsObject();
  if (!Root || Root->getString("version") != StringRef("2.1.0") ||
      !Root->getArray("runs")) {
    WithColor::error(errs(), "wrapguard merge")
        << "'" << Path << "' is not a SARIF 2.1.0 log\n";
    return std::nullopt;
  }
  return std::move(*Log);
}

static std::string resultKey(const json::Object &Result) {
  std::string Key = Result.getString("ruleId").value_or("").str();
  Key += '\0';
  if (const json::Object *Partial = Result.getObject("partialFingerprints"))
    if (auto Print = Partial->getString(FingerprintKey))
      return Key + Print->str();
  // No fingerprint (another tool's log): keep every result.
  return "";
}

int runMerge(ArrayRef<std::string> Inputs, StringRef Output) {
  if (Inputs.empty()) {
    WithColor::error(errs(), "wrapguard merge")
        << "no input; usage: wrapguard merge [-o OUT] a.sarif b.sarif ...\n";
    return 2;
  }
  std::optional<json::Object> Tool, BaseIds;
  json::Array Rules, Invocations, Results;
  StringSet<> RuleIds, ResultKeys;
  std::string ColumnKind;

  for (const std::string &Path : Inputs) {
    std::optional<json::Value> Log = readLog(Path);
    if (!Log)
      return 2;
    for (json::Value &RunValue : *Log->getAsObject()->getArray("runs")) {
      json::Object *Run = RunValue.getAsObject();
      if (!Run)
        continue;
      if (json::Object *T = Run->getObject("tool")) {
        if (json::Object *Driver = T->getObject("driver"))
          if (json::Array *R = Driver->getArray("rules"))
            for (json::Value &Rule : *R)
              if (const json::Object *RO = Rule.getAsObject())
                if (RuleIds.insert(RO->getString("id").value_or("")).second)
                  Rules.push_back(std::move(Rule));
        if (!Tool)
          Tool = std::move(*T);
      }
      if (json::Object *B = Run->getObject("originalUriBaseIds")) {
        if (!BaseIds)
          BaseIds = std::move(*B);
        else if (json::Value(std::move(*B)) !=
                 json::Value(json::Object(*BaseIds)))
          WithColor::warning(errs(), "wrapguard merge")
              << "'" << Path
              << "' was written with another --source-root; its paths may "
                 "not resolve\n";
      }
      if (ColumnKind.empty())
        ColumnKind = Run->getString("columnKind").value_or("").str();
      if (json::Array *I = Run->getArray("invocations"))
        for (json::Value &Inv : *I)
          Invocations.push_back(std::move(Inv));
      if (json::Array *R = Run->getArray("results"))
        for (json::Value &Res : *R) {
          json::Object *RO = Res.getAsObject();
          if (!RO)
            continue;
          // Rule indices point into the input's rule array; the merged
          // array has another order, so refer to rules by id only.
          RO->erase("ruleIndex");
          std::string Key = resultKey(*RO);
          if (!Key.empty() && !ResultKeys.insert(Key).second)
            continue;
          Results.push_back(std::move(Res));
        }
    }
  }

  if (!Tool)
    Tool = json::Object{{"driver", json::Object{{"name", "wrapguard"}}}};
  if (json::Object *Driver = Tool->getObject("driver"))
    (*Driver)["rules"] = std::move(Rules);
  json::Object Run{{"tool", std::move(*Tool)},
                   {"invocations", std::move(Invocations)},
                   {"results", std::move(Results)}};
  if (!ColumnKind.empty())
    Run["columnKind"] = ColumnKind;
  if (BaseIds)
    Run["originalUriBaseIds"] = std::move(*BaseIds);
  json::Object Merged{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}};

  std::error_code EC;
  raw_fd_ostream OS(Output.empty() ? "-" : Output, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "wrapguard merge")
        << "cannot write '" << Output << "': " << EC.message() << "\n";
    return 2;
  }
  OS << formatv("{0:2}", json::Value(std::move(Merged))) << "\n";
  return 0;
}

} // namespace wrapguard
