//===- SourceText.h - Files' text, lines and columns ------------*- C++ -*-===//
//
// Reports give a place as a line and a column. Clang and the facts count
// bytes; SARIF (columnKind "unicodeCodePoints") counts code points. This is
// the one place that reads a file to turn an offset into both, for the scan
// and for `merge` alike.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SOURCETEXT_H
#define WRAPGUARD_TOOLS_SOURCETEXT_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>

namespace wrapguard {

/// A position in a file. Line and Column are 1-based; Column counts bytes
/// (as clang prints it), CharColumn counts Unicode code points (as SARIF's
/// columnKind "unicodeCodePoints" wants it).
struct TextPos {
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned CharColumn = 0;
};

/// The contents of the files reports point into, each read once. Not
/// thread-safe: one per report.
class SourceText {
public:
  /// The file's text; empty when it cannot be read.
  llvm::StringRef get(llvm::StringRef Path);

  /// The position of byte \p Offset (clamped to the file's size).
  TextPos position(llvm::StringRef Path, unsigned Offset);

  /// A position that the facts recorded as a line and a byte column: the
  /// code-point column is read off the file when the file still has that
  /// line there, else the byte column stands for it.
  TextPos position(llvm::StringRef Path, unsigned Offset, unsigned Line,
                   unsigned ByteColumn);

  /// The line around \p Offset with runs of whitespace collapsed, so
  /// re-indenting does not change a fingerprint.
  std::string lineText(llvm::StringRef Path, unsigned Offset);

private:
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Files;
};

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SOURCETEXT_H
