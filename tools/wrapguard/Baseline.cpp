//===- Baseline.cpp - Fingerprints and baseline filtering -----------------===//
//
// A fingerprint identifies a finding across commits: it hashes what the
// finding is (check, message), where it is in terms that survive edits
// elsewhere in the file (path relative to the source root, enclosing
// function, the flagged line's text) and, to tell identical findings apart,
// its rank among them. Line and column numbers are left out on purpose, so
// inserting lines above a finding keeps its fingerprint.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace wrapguard {

void assignFingerprints(std::vector<ReportFinding> &Findings,
                        const PathOptions &Paths) {
  StringMap<unsigned> Seen;
  for (ReportFinding &F : Findings) {
    std::string Key;
    raw_string_ostream KS(Key);
    KS << F.Check << '\0' << relativePath(F.Loc.Path, Paths) << '\0'
       << F.Function << '\0' << F.Message << '\0' << F.LineText;
    unsigned Rank = Seen[Key]++;
    KS << '\0' << Rank;
    SHA256 Hash;
    Hash.update(Key);
    std::array<uint8_t, 32> Digest = Hash.final();
    F.Fingerprint = toHex(ArrayRef<uint8_t>(Digest).take_front(16),
                          /*LowerCase=*/true);
  }
}

Expected<StringSet<>> loadBaseline(StringRef SarifPath) {
  Expected<SarifLog> Log = SarifLog::read(SarifPath, "baseline");
  if (!Log)
    return Log.takeError();
  StringSet<> Prints;
  Log->forEachResult([&](const json::Object &Result) {
    if (std::optional<StringRef> Print = resultFingerprint(Result))
      Prints.insert(*Print);
  });
  return Prints;
}

unsigned applyBaseline(std::vector<ReportFinding> &Findings,
                       const StringSet<> &Baseline) {
  size_t Before = Findings.size();
  llvm::erase_if(Findings, [&](const ReportFinding &F) {
    return Baseline.contains(F.Fingerprint);
  });
  return Before - Findings.size();
}

} // namespace wrapguard
