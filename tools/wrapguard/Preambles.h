//===- Preambles.h - One parse of the headers a group of TUs shares -*- C++
//-*-//
//
// Parsing dominates a scan: <torch/torch.h> takes a TU 12-14 s, the check a
// fraction of a second. Trainers' TUs start with the same #include block and
// are compiled with the same flags, so the scan parses that block once per
// group, into a precompiled preamble (clang's PrecompiledPreamble, as clangd
// builds for each open file), and every TU of the group starts from it.
//
// A group is the TUs whose compile flags (without the file's own name and
// outputs), working directory, directory (quoted includes search it first)
// and leading directives agree, comments and blank lines aside (a file's own
// banner does not keep it out). Each TU of a group is parsed from a copy of
// its file whose first bytes are those directives alone, padded so that the
// rest keeps its offsets and lines. A TU that shares its directives with no
// other, whose directives define macros (their locations would name another
// TU's file), or whose first comments hold a NOLINT (the copy drops them) is
// parsed whole, as before.
//
// The preamble is built by the group's first TU to run, on its thread, and
// stored in a file of the scan's temporary folder, which is gone when the last
// TU of the group is done: the scan schedules a group's TUs one after the
// other, so few preambles are alive at once. Function bodies in system
// headers are skipped while building it (as clangd does): the check never
// looks into them, and they are most of the work.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_PREAMBLES_H
#define WRAPGUARD_TOOLS_PREAMBLES_H

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace wrapguard {

/// The start of a main file, as far as sharing a preamble goes.
struct PreambleRegion {
  /// The leading directives' bytes in the file.
  unsigned Size = 0;
  bool EndsAtStartOfLine = false;
  /// The directives alone, one a line, without the comments and blank lines
  /// around them: what TUs must agree on to share a preamble, and what the
  /// preamble is built from. No longer than the region, with no more lines.
  std::string Directives;
  /// Why this TU cannot share its preamble; empty when it can.
  std::string Unshareable;
};

/// Reads the preamble region of \p Text (a C++ file).
PreambleRegion inspectPreamble(llvm::StringRef Text);

/// \p Text with its preamble region replaced by \p R's directives, padded
/// with blanks and newlines to the region's size and lines: the rest of the
/// file keeps its offsets, lines and columns, and every TU of a group
/// starts with the same bytes, which the preamble skips.
std::unique_ptr<llvm::MemoryBuffer> withDirectivesOnly(llvm::StringRef Text,
                                                       const PreambleRegion &R,
                                                       llvm::StringRef Name);

/// Gives the preprocessor's callbacks the #include directives of the main
/// file's first \p Size bytes, which a preamble kept them from seeing: the
/// check's include inserter learns the file's includes from them.
void replayPreambleIncludes(clang::Preprocessor &PP, unsigned Size);

/// The preambles of a scan's groups.
class PreambleStore {
public:
  /// \p Members[G] TUs share group G; preambles are written under \p Dir.
  PreambleStore(std::vector<unsigned> Members, std::string Dir);
  ~PreambleStore();

  /// Group G's preamble: built on the first call from \p Invocation and
  /// the first \p Bounds of \p Main (one of the group's TUs, as
  /// withDirectivesOnly made it), which later calls wait for; null when
  /// it cannot be built (a TU of the group then parses whole, and reports
  /// whatever stopped the build), with \p Why saying so. \p Built is set on
  /// the call that built it.
  std::shared_ptr<const clang::PrecompiledPreamble>
  get(unsigned G, const clang::CompilerInvocation &Invocation,
      const llvm::MemoryBuffer &Main, clang::PreambleBounds Bounds,
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS, std::string &Why,
      bool &Built);

  /// One TU of group G is done; after its last, the preamble is freed.
  void done(unsigned G);

  /// Seconds spent building preambles, over every thread.
  double buildSeconds() const;

private:
  struct Group;
  std::vector<std::unique_ptr<Group>> Groups;
  std::string Dir;
  mutable std::mutex StatsLock;
  double BuildSeconds = 0;
};

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_PREAMBLES_H
