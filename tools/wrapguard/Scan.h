//===- Scan.h - Runs clang-tidy's machinery over many TUs -------*- C++ -*-===//
//
// Each translation unit gets its own ClangTidyContext, ClangTool and
// diagnostic consumer, so TUs run on worker threads without sharing mutable
// state. The per-TU code mirrors clang::tidy::runClangTidy, with these
// additions:
//
//  - the working directory is kept per TU instead of per process;
//  - TUs that reach the same heavy system header (<torch/torch.h>) share
//    one parse of it, a precompiled header kept across scans with
//    --cache-dir (SharedHeaders.h); other TUs that start alike share a
//    precompiled preamble (Preambles.h);
//  - the checks walk the main file and the header code this TU claimed, not
//    the whole AST (TraversalScope.h);
//  - a crash loses that TU only (CrashGuard.h);
//  - the enclosing function of every diagnostic is looked up while the AST
//    is still alive.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SCAN_H
#define WRAPGUARD_TOOLS_SCAN_H

#include "TUResult.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

class ClaimSet;
class ResultCache;

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
  /// Share a preamble between TUs that start alike (--no-preamble: no).
  bool Preambles = true;
  /// The text a system header must reach for TUs to share a PCH of it
  /// (hidden --shared-header-bytes, for tests).
  uint64_t SharedHeaderBytes = 4u << 20;
  /// Where PCHs of shared headers are kept between scans (--cache-dir's
  /// pch folder); empty: in a temporary folder, for this scan only.
  std::string SharedHeaderCacheDir;
  /// Walk only the main file and claimed header code (hidden
  /// --no-traversal-scope, for tests: the whole TU, claims still apply).
  bool TraversalScope = true;
  /// One line per TU on stderr: how it was parsed, what it claimed.
  bool Verbose = false;
  /// --cache-dir: results of unchanged TUs are reused, fresh ones stored.
  ResultCache *Cache = nullptr;
  /// Hidden --debug-crash-in: the check crashes when it is about to analyse
  /// the function of this qualified name (tests of crash isolation).
  std::string CrashIn;
};

/// Called after each TU, serialized: (TUs done, total, findings so far).
using ProgressFn = std::function<void(unsigned, unsigned, unsigned)>;

/// Runs the configured checks on \p Files; results come back in the order
/// of \p Files whatever the scheduling. Header units already claimed in
/// \p Claims (by TUs whose results the cache holds) are left to them.
std::vector<TUResult> scanFiles(const clang::tooling::CompilationDatabase &DB,
                                const std::vector<std::string> &Files,
                                const ScanOptions &Options, ClaimSet &Claims,
                                const ProgressFn &Progress);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SCAN_H
