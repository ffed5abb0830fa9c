//===- Cache.h - --cache-dir: results of unchanged TUs ----------*- C++ -*-===//
//
// A rescan reuses what each unchanged TU produced last time: its findings
// (clang-tidy's errors), the functions around them, its facts and
// candidates, its budget skips, and the header units it contained and
// claimed. The project-wide decision (resolve) still runs over cached and
// fresh TUs alike, after the last, so a change in one TU still changes a
// finding in another.
//
// One entry per TU and compile command (a file with several commands has one
// entry of them all, keyed by each), a JSON file under DIR/v1/, beside
// the list of the files it read (deps-HASH.txt, shared by the TUs that read
// the same files). An entry is used only when all of these are what they
// were:
//
//  - the content (BLAKE3) of every file the TU read: the main file, every
//    header, system headers included, those of its preamble and of its
//    shared headers' PCH too (not the scan's own group header that the PCH
//    was built from: a PCH evicted or built for other groups leaves the
//    result valid);
//  - the compile commands, as the TU runs them (TUPlan::CacheKey);
//  - the effective configuration for the file (.clang-tidy, --config,
//    --checks, header filters; serialized as clang-tidy writes it);
//  - the wrapguard build: a hash of the scanner's own executable (so a
//    rebuilt wrapguard with other rules never reuses an entry), the facts'
//    FormatVersion and LLVM's version.
//
// An entry that does not parse, or whose checksum does not match its
// content, is ignored with a note and replaced. Entries are written to a
// temporary file and renamed into place, so a scan that reads one while
// another scan writes it sees the old entry or the new one, never half.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_CACHE_H
#define WRAPGUARD_TOOLS_CACHE_H

#include "TUResult.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <mutex>
#include <optional>
#include <string>

namespace wrapguard {

class ResultCache {
public:
  /// Opens (creating) the cache in \p Dir; an error when it cannot.
  static llvm::Expected<std::unique_ptr<ResultCache>> open(llvm::StringRef Dir);

  /// The entry of \p File under \p Key (its flags and configuration), when
  /// it is valid and every file it read is unchanged. \p Why says why not
  /// ("new", "x.h changed", ...); \p Corrupt is set when the entry was
  /// there but could not be trusted.
  std::optional<TUResult> lookup(llvm::StringRef File, llvm::StringRef Key,
                                 std::string &Why, bool &Corrupt);

  /// Stores \p Result as \p File's entry under \p Key. A TU that crashed is
  /// not stored. Errors are ignored: a cache that cannot be written makes
  /// the next scan slower, not wrong.
  void store(llvm::StringRef File, llvm::StringRef Key, const TUResult &Result);

  /// Forgets \p File's entry under \p Key (the scan rescans the TU).
  void drop(llvm::StringRef File, llvm::StringRef Key);

  /// Where the scan keeps its precompiled shared headers (SharedHeaders.h):
  /// a folder beside the entries, which it manages itself.
  std::string pchFolder() const;

  /// `wrapguard cache --prune`: removes the entries that no scan can use
  /// again (damaged, written by another wrapguard build, or of a file that
  /// is gone) and the lists of files read that no entry names. Counts what
  /// it removed and kept.
  struct PruneCounts {
    unsigned Entries = 0, Lists = 0, Kept = 0;
  };
  PruneCounts prune();

private:
  ResultCache(std::string Dir, std::string Build)
      : Dir(std::move(Dir)), Build(std::move(Build)) {}
  std::string entryPath(llvm::StringRef File, llvm::StringRef Key) const;
  /// The list of files an entry read, with their hashes, is a file of its
  /// own named after its content's hash: TUs that read the same files (a
  /// preamble group) share one, which a scan reads and checks once.
  std::string dependenciesPath(llvm::StringRef Id) const;
  /// Whether every file in list \p Id is unchanged; if not, \p Why says
  /// which changed, or that the list is damaged (\p Corrupt).
  bool dependenciesUnchanged(llvm::StringRef Id, std::string &Why,
                             bool &Corrupt);
  /// The content hash of \p Path, once per scan; empty when unreadable.
  std::string contentHash(llvm::StringRef Path);

  std::string Dir;
  std::string Build;
  std::mutex HashLock;
  llvm::StringMap<std::string> Hashes;
  llvm::StringMap<std::pair<std::string, bool>> DepsChecked;
};

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_CACHE_H
