//===- TUResult.h - What the scan of one TU leaves --------------*- C++ -*-===//
//
// The scan (Scan.h) produces one TUResult per translation unit, the result
// cache (Cache.h) stores and reuses them, and the report (ScanReport.h) is
// made of them. Kept apart from all three so none of them includes another
// for this type.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_TURESULT_H
#define WRAPGUARD_TOOLS_TURESULT_H

#include "ScanHost.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace wrapguard {

struct TUResult {
  std::string File;
  /// False when the TU did not parse (compiler errors or a driver failure).
  bool Parsed = true;
  /// Non-zero when the TU crashed: the signal. Its results are lost.
  int CrashSignal = 0;
  /// Where it crashed: the qualified name of the function the check was
  /// analysing, or empty when it crashed elsewhere: in the front end, or
  /// after it when CrashAfterParse.
  std::string CrashFunction;
  bool CrashAfterParse = false;
  /// Header findings are limited to the source root (see
  /// ScanOptions::SourceRootHeaders) rather than by a configured filter.
  bool HeadersUnderSourceRoot = false;
  std::vector<clang::tidy::ClangTidyError> Errors;
  /// (file as in the diagnostic, file offset) -> enclosing function.
  std::map<std::pair<std::string, unsigned>, std::string> Functions;
  /// What the check left for the project-wide decision: the TU's facts and
  /// its candidates (ScanHost.h).
  TUEvidence Evidence;
  /// Claim keys of the project-header units the TU met, and of those it
  /// claimed (TraversalScope.h).
  std::vector<std::string> UnitsContained, UnitsOwned;
  /// Every file the TU read (the main file, headers, those of its preamble).
  std::vector<std::string> Dependencies;
  /// A note to report: its cache entry could not be trusted.
  std::string CacheNote;
  /// How this scan parsed it ("shared headers of group 1", "preamble of
  /// group 2", "parsed whole: why"); empty when its result came from the
  /// cache. Not cached.
  std::string Parsing;
};

/// True for the diagnostics clang-tidy makes of compiler errors.
inline bool isCompilerError(const clang::tidy::ClangTidyError &E) {
  return E.DiagnosticName == "clang-diagnostic-error" ||
         (E.DiagLevel == clang::tooling::Diagnostic::Error &&
          llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"));
}

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_TURESULT_H
