//===- Json.cpp - --format=json, one record per flagged site --------------===//
//
// Consumed by the shim's verifier. The key names are an interface: "file",
// "line", "column", "function", "check", "message", "always_empty" and
// "fingerprint" must stay as they are; other keys may be added.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/JSON.h"
#include "Report.h"

using namespace llvm;

namespace wrapguard {

void writeJson(const Report &R, const PathOptions &Paths, raw_ostream &OS) {
  json::Array Records;
  for (const ReportFinding &F : R.Findings) {
    json::Array Notes;
    for (const ReportNote &N : F.Notes)
      Notes.push_back(json::Object{{"file", relativePath(N.Loc.Path, Paths)},
                                   {"line", N.Loc.Pos.Line},
                                   {"column", N.Loc.Pos.Column},
                                   {"message", N.Message}});
    Records.push_back(json::Object{
        {"file", relativePath(F.Loc.Path, Paths)},
        {"line", F.Loc.Pos.Line},
        {"column", F.Loc.Pos.Column},
        {"function", F.Function},
        {"check", F.Check},
        {"message", F.Message},
        {"always_empty", F.AlwaysEmpty},
        {"fingerprint", F.Fingerprint},
        {"level", F.IsError ? "error" : "warning"},
        {"notes", std::move(Notes)},
        {"has_fix", !F.Edits.empty()},
    });
  }
  OS << formatv("{0:2}", json::Value(std::move(Records))) << "\n";
}

} // namespace wrapguard
