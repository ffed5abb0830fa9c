//===- Fixes.cpp - --fix: the findings' edits applied in place ------------===//
//
// As clang-tidy --fix does: every finding's edits, per file, a finding whose
// edits overlap an earlier one's left out whole, then the file's style tidies
// around them (test/scanner/fix-parity.test holds the two front doors to the
// same text).
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include <map>

using namespace clang;
using namespace clang::tooling;
using namespace llvm;

namespace wrapguard {

/// The edits of the findings, per file; a finding whose edits overlap an
/// earlier one's is left out whole.
static std::map<std::string, Replacements>
planFixes(const std::vector<ReportFinding> &Findings, unsigned &Applied,
          unsigned &Offered) {
  std::map<std::string, Replacements> PerFile;
  for (const ReportFinding &F : Findings) {
    if (F.Edits.empty())
      continue;
    ++Offered;
    std::map<std::string, Replacements> Trial = PerFile;
    bool Ok = true;
    for (const ReportEdit &E : F.Edits)
      if (Error Err = Trial[E.Path].add(
              Replacement(E.Path, E.Offset, E.Length, E.Text))) {
        consumeError(std::move(Err));
        Ok = false;
        break;
      }
    if (Ok) {
      PerFile = std::move(Trial);
      ++Applied;
    }
  }
  return PerFile;
}

/// Applies \p Reps to the file at \p Path; false, with a message, on an I/O
/// error.
static bool fixFile(StringRef Path, Replacements Reps) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer) {
    WithColor::error(errs(), "wrapguard")
        << "cannot read '" << Path << "' to fix it\n";
    return false;
  }
  // As clang-tidy --fix does: the file's style (else LLVM's) tidies around
  // the edits, so both front doors write the same text.
  Expected<format::FormatStyle> Style =
      format::getStyle("file", Path, "llvm", (*Buffer)->getBuffer());
  if (!Style) {
    consumeError(Style.takeError());
    Style = format::getLLVMStyle();
  }
  Expected<Replacements> Cleaned =
      format::cleanupAroundReplacements((*Buffer)->getBuffer(), Reps, *Style);
  if (Cleaned)
    Reps = std::move(*Cleaned);
  else
    consumeError(Cleaned.takeError());
  Expected<std::string> Fixed =
      applyAllReplacements((*Buffer)->getBuffer(), Reps);
  if (!Fixed) {
    WithColor::error(errs(), "wrapguard")
        << "cannot fix '" << Path << "': " << toString(Fixed.takeError())
        << "\n";
    return false;
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC) {
    WithColor::error(errs(), "wrapguard")
        << "cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS << *Fixed;
  return true;
}

/// Applies the findings' edits in place; a finding whose edits overlap an
/// earlier one's is skipped whole. Returns false on an I/O error.
bool applyFixes(const std::vector<ReportFinding> &Findings, unsigned &Applied,
                unsigned &Offered) {
  bool Success = true;
  for (auto &[Path, Reps] : planFixes(Findings, Applied, Offered))
    Success &= fixFile(Path, std::move(Reps));
  return Success;
}

} // namespace wrapguard
