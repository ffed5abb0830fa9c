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
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace wrapguard {

bool isUnderSourceRoot(StringRef Abs, const PathOptions &Paths) {
  StringRef Root = Paths.SourceRoot;
  if (Root.empty() || !Abs.starts_with(Root))
    return false;
  StringRef Rest = Abs.drop_front(Root.size());
  return Rest.empty() || sys::path::is_separator(Rest.front()) ||
         Root.ends_with("/");
}

std::string relativePath(StringRef Abs, const PathOptions &Paths) {
  if (!isUnderSourceRoot(Abs, Paths))
    return Abs.str();
  StringRef Rest = Abs.drop_front(Paths.SourceRoot.size());
  while (!Rest.empty() && sys::path::is_separator(Rest.front()))
    Rest = Rest.drop_front();
  return sys::path::convert_to_slash(Rest);
}

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
  auto Buffer = MemoryBuffer::getFile(SarifPath);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read baseline '%s': %s",
                             SarifPath.str().c_str(),
                             Buffer.getError().message().c_str());
  Expected<json::Value> Log = json::parse((*Buffer)->getBuffer());
  if (!Log)
    return createStringError(
        inconvertibleErrorCode(), "baseline '%s' is not JSON: %s",
        SarifPath.str().c_str(), toString(Log.takeError()).c_str());
  const json::Object *Root = Log->getAsObject();
  const json::Array *Runs = Root ? Root->getArray("runs") : nullptr;
  if (!Runs)
    return createStringError(inconvertibleErrorCode(),
                             "baseline '%s' is not a SARIF log (no 'runs')",
                             SarifPath.str().c_str());
  StringSet<> Prints;
  for (const json::Value &Run : *Runs) {
    const json::Object *RunObj = Run.getAsObject();
    const json::Array *Results = RunObj ? RunObj->getArray("results") : nullptr;
    if (!Results)
      continue;
    for (const json::Value &Result : *Results) {
      const json::Object *ResObj = Result.getAsObject();
      const json::Object *Partial =
          ResObj ? ResObj->getObject("partialFingerprints") : nullptr;
      if (!Partial)
        continue;
      if (std::optional<StringRef> Print = Partial->getString(FingerprintKey))
        Prints.insert(*Print);
    }
  }
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
