//===- JsonFile.h - One way to read a JSON file -----------------*- C++ -*-===//
//
// Every input the scanner's subcommands read as JSON (SARIF logs, the
// scanner's JSON report, WRAPGUARD_TRACE files, cache entries) goes through
// readJsonFile, so a missing file and a file that is not JSON are reported in
// the same words everywhere. What the scanner keeps between scans (cache
// entries, PCH manifests) is written through writeFileAtomically.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_JSONFILE_H
#define WRAPGUARD_TOOLS_JSONFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace wrapguard {

/// The text of \p Path ("-" reads stdin). The error says "cannot read
/// '<What ><Path>': <reason>", where \p What (say, "baseline") names the
/// file's role when given.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readTextFile(llvm::StringRef Path, llvm::StringRef What = "");

/// \p Text parsed as JSON; the error says "<What >'<Path>' is not JSON:
/// <where and why>".
llvm::Expected<llvm::json::Value> parseJsonText(llvm::StringRef Text,
                                                llvm::StringRef Path,
                                                llvm::StringRef What = "");

/// readTextFile, then parseJsonText.
llvm::Expected<llvm::json::Value> readJsonFile(llvm::StringRef Path,
                                               llvm::StringRef What = "");

/// Writes \p Text to \p Path through a temporary file beside it renamed
/// over it, so that a reader sees the old file or the new one, never half
/// (the result cache's entries, the shared headers' PCH files); false when
/// it could not.
bool writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// "baseline 'a.sarif'" or "'a.sarif'": how errors name a file.
std::string describeFile(llvm::StringRef Path, llvm::StringRef What);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_JSONFILE_H
