//===- Paths.h - One name per file in reports ------------------*- C++ -*-===//
//
// A header reached through different include paths has as many spellings
// (`src/data/../common/pool.h`, `src/common/pool.h`, a symlink); reports,
// deduplication and fingerprints need one. Every path the scanner reports
// goes through reportPath: the file's real path when it exists, else the
// path made absolute with `.` and `..` removed. --source-root is resolved the
// same way, so relativePath sees both sides in one spelling.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_PATHS_H
#define WRAPGUARD_TOOLS_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace wrapguard {

/// \p Path made absolute against \p Base (the working directory when
/// empty), with `.` and `..` removed lexically.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base = "");

/// The name reports use for the file at \p Path (relative to \p Base): its
/// real path (symlinks and `..` resolved) when it exists, else
/// absolutePath. Thread-safe; each spelling is resolved once per process.
std::string reportPath(llvm::StringRef Path, llvm::StringRef Base = "");

/// Where paths in reports are anchored. Empty: absolute paths everywhere.
struct PathOptions {
  std::string SourceRoot; ///< A reportPath, no trailing separator.
};

/// Path of \p Abs relative to the source root when it lies under it, else
/// \p Abs unchanged. Always uses '/' separators in the relative case.
std::string relativePath(llvm::StringRef Abs, const PathOptions &Paths);
/// True when \p Abs lies under the source root.
bool isUnderSourceRoot(llvm::StringRef Abs, const PathOptions &Paths);
/// True when \p Abs is \p Dir or lies under it.
bool isUnder(llvm::StringRef Abs, llvm::StringRef Dir);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_PATHS_H
