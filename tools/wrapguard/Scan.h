//===- Scan.h - Runs clang-tidy's machinery over many TUs -------*- C++ -*-===//
//
// Each translation unit gets its own ClangTidyContext, ClangTool and
// diagnostic consumer, so TUs run on worker threads without sharing mutable
// state. The per-TU code mirrors clang::tidy::runClangTidy, with two
// additions: the working directory is kept per TU instead of per process,
// and the enclosing function of every diagnostic is looked up while the AST
// is still alive.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SCAN_H
#define WRAPGUARD_TOOLS_SCAN_H

#include "ProjectFacts.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

struct ScanOptions {
  clang::tidy::ClangTidyGlobalOptions Global;
  clang::tidy::ClangTidyOptions Defaults;
  clang::tidy::ClangTidyOptions Overrides;
  /// From --config / --config-file: replaces .clang-tidy discovery.
  std::optional<clang::tidy::ClangTidyOptions> Config;
  /// --source-root without a header filter: a TU whose configuration sets
  /// no HeaderFilterRegex reports findings from every header (".*"), which
  /// the driver then narrows to those under the source root
  /// (TUResult::HeadersUnderSourceRoot). Otherwise such a TU reports none.
  bool SourceRootHeaders = false;
  unsigned Jobs = 1;
};

struct TUResult {
  std::string File;
  /// False when the TU did not parse (compiler errors or a driver failure).
  bool Parsed = true;
  /// Header findings are limited to the source root (see
  /// ScanOptions::SourceRootHeaders) rather than by a configured filter.
  bool HeadersUnderSourceRoot = false;
  std::vector<clang::tidy::ClangTidyError> Errors;
  /// (file as in the diagnostic, file offset) -> enclosing function.
  std::map<std::pair<std::string, unsigned>, std::string> Functions;
  /// What the check left for the project-wide decision: the TU's facts and
  /// its candidates (see checker/ProjectFacts.h).
  TUEvidence Evidence;
};

/// Called after each TU, serialized: (TUs done, total, findings so far).
using ProgressFn = std::function<void(unsigned, unsigned, unsigned)>;

/// Runs the configured checks on \p Files; results come back in the order
/// of \p Files whatever the scheduling.
std::vector<TUResult> scanFiles(const clang::tooling::CompilationDatabase &DB,
                                const std::vector<std::string> &Files,
                                const ScanOptions &Options,
                                const ProgressFn &Progress);

/// True for the diagnostics clang-tidy makes of compiler errors.
inline bool isCompilerError(const clang::tidy::ClangTidyError &E) {
  return E.DiagnosticName == "clang-diagnostic-error" ||
         (E.DiagLevel == clang::tooling::Diagnostic::Error &&
          llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"));
}

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SCAN_H
