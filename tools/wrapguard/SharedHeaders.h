//===- SharedHeaders.h - One parse of the heavy headers TUs reach -*- C++ -*-//
//
// Real LibTorch projects rarely start every TU with the same directives:
// one TU includes <torch/torch.h> first, another after <iostream>, a third
// only through its own "model.h". The directive-sharing preambles
// (Preambles.h) do not fire there, yet every one of these TUs spends most
// of its parse on the same headers. This file shares those.
//
// Planning (IncludeGraph): the scan reads each TU's #include lines, and
// those of the project headers it includes, as text, through the TU's own
// include paths, and notes the system headers it reaches. A system header
// is heavy when the text it reaches (its own includes, followed the same
// way, every branch of every #if taken) is at least a threshold (4 MiB by
// default: above what <iostream> reaches, below <torch/torch.h>). A TU's
// shared root is the heavy header it reaches that reaches the most. TUs
// with the same root form a group when their flags are equal but for the
// project's include folders (-I, -iquote), and the root reaches the same
// files through each TU's folders.
//
// Building (SharedHeaderStore): one precompiled header (PCH) of a group's
// roots, built by the group's first TU on its thread, with function bodies
// in system headers skipped (as the preambles do). With --cache-dir it is
// kept there, keyed by the flags and the roots, checked against every file
// it read before it is reused.
//
// Using it (SharedHeaderGuard): each TU of the group is parsed with the PCH
// loaded before its first line (as -include-pch does), so its own include
// of a root is skipped by the root's include guard. That is the parse the
// scan would have made only if nothing the TU does before it reaches its
// last root could have changed what the roots mean. The guard watches the
// parse and names the first thing that could have:
//
//  - a macro defined or undefined before the roots whose name the shared
//    headers read (any identifier lexed while building the PCH), unless
//    the definition equals the shared headers' own (<version> defines the
//    __cpp_lib_ macros <bits/allocator.h> does);
//  - a macro of the shared headers tested or expanded before the roots
//    (without the PCH it would not be defined yet), unless the TU has
//    already included the header that defines it, or the test is in a
//    system header (which includes what it uses);
//  - a #pragma before the roots other than once, message or a diagnostic
//    one (pack or visibility change what follows), outside system headers;
//  - a using-directive before the roots (it can make their names
//    ambiguous);
//  - a root the TU never reaches (a conditional include).
//
// A root without an include guard is never shared: the TU's own include
// of it would read it a second time. Other headers of the PCH are not all
// guarded as a whole (libstdc++'s <cstdlib> opens with an #include_next
// before its guard, around which it defines and undefines
// _GLIBCXX_INCLUDE_NEXT_C_HEADERS), so the TU may read them again; without
// the PCH it would read them at the same place. What they define and test
// there is theirs, not the TU's, and the guard leaves it alone: the PCH
// read them too, and system headers are written to be included in any
// order.
//
// A TU the guard stops, or that does not parse with the PCH, is parsed
// again whole; its findings come from that parse alone. Declarations
// before the roots are allowed: they can change only the roots' own code,
// which the check never reads.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SHAREDHEADERS_H
#define WRAPGUARD_TOOLS_SHAREDHEADERS_H

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace wrapguard {

/// The text a system header must reach to be worth sharing, by default.
constexpr uint64_t DefaultSharedHeaderBytes = 4u << 20;

/// Where a TU's #include lines are looked up, as its command line says.
struct IncludePaths {
  /// Directories for "..." only (-iquote).
  std::vector<std::string> Quoted;
  /// Directories for <...> and "...", in search order; second: whether
  /// headers found there are system headers.
  std::vector<std::pair<std::string, bool>> Angled;
  /// Equal for TUs whose includes resolve alike.
  std::string key() const;
};

/// The include paths of the compile command \p Args (the compiler first),
/// run in \p Directory; empty when the driver cannot read them.
IncludePaths includePathsOf(const std::vector<std::string> &Args,
                            llvm::StringRef Directory);

/// The #include structure of a scan's files, read as text (see above).
/// Planning runs on one thread; so does this.
class IncludeGraph {
public:
  explicit IncludeGraph(uint64_t HeavyBytes) : HeavyBytes(HeavyBytes) {}

  /// The heavy system header \p File reaches through its project headers
  /// that reaches the most, as an absolute path; none when it reaches no
  /// heavy header. (A list: the PCH and its guard take several.)
  std::vector<std::string> sharedRoots(llvm::StringRef File,
                                       const IncludePaths &Paths);

  /// A digest of the files \p Header reaches through \p Paths: TUs whose
  /// include folders differ share its PCH only when theirs are equal.
  std::string reachDigest(const std::string &Header, const IncludePaths &Paths);

private:
  struct Include {
    std::string Name;
    bool Angled;
  };
  struct Reach {
    std::set<std::string> Files;
    uint64_t Bytes = 0;
    /// The names it looked up in the include folders (not next to the
    /// file that includes them): a project folder that has one of them
    /// would change what it reaches.
    std::set<std::string> Searched;
  };
  const std::vector<Include> &includesOf(const std::string &File);
  /// Where \p I, written in \p From, resolves; empty when nowhere. \p System
  /// says whether it was found in a system directory, \p Searched whether
  /// it was looked up in the include folders.
  std::string resolve(const Include &I, llvm::StringRef From,
                      const IncludePaths &Paths, bool &System, bool &Searched);
  const Reach &reachOf(const std::string &Header, const IncludePaths &Paths);
  /// What \p Header reaches through \p Paths, read once for all the TUs
  /// whose system folders are alike: through those alone, unless one of
  /// the TU's own folders has a header of the same name.
  const Reach &systemReachOf(const std::string &Header,
                             const IncludePaths &Paths);
  static IncludePaths systemOnly(const IncludePaths &Paths);

  uint64_t HeavyBytes;
  std::map<std::string, std::vector<Include>> Includes;
  std::map<std::string, uint64_t> Sizes;
  std::map<std::pair<std::string, std::string>, Reach> Reaches;
  std::map<std::pair<std::string, std::string>, const Reach *> SystemReaches;
  /// Whether a path exists (a header, or a folder for the shadow test of
  /// systemReachOf).
  std::map<std::string, bool> Exists;
};

/// A built PCH of a group's roots, and what the guard needs to know of it.
struct SharedPCH {
  std::string Path;
  /// The group header it was built from (the roots' #includes), a file of
  /// the scan's own: what it reads is in Inputs, so a TU's cached result
  /// does not depend on it, nor on which PCH a scan built.
  std::string Header;
  /// The roots, as the PCH includes them.
  std::vector<std::string> Roots;
  std::vector<llvm::sys::fs::UniqueID> RootIDs;
  /// Every file the PCH read.
  std::vector<std::string> Inputs;
  std::set<llvm::sys::fs::UniqueID> InputIDs;
  /// Every identifier lexed while it was built.
  llvm::StringSet<> Identifiers;
  uint64_t Bytes = 0;
};

/// The shared-header PCHs of a scan's groups.
class SharedHeaderStore {
public:
  /// \p Members[G] TUs share group G, whose roots are \p Roots[G] and
  /// whose flags and roots hash to \p Keys[G]; PCHs are written under
  /// \p TempDir, or kept in \p CacheDir when it is not empty.
  SharedHeaderStore(std::vector<unsigned> Members,
                    std::vector<std::string> Keys,
                    std::vector<std::vector<std::string>> Roots,
                    std::string TempDir, std::string CacheDir);
  ~SharedHeaderStore();

  /// Group G's PCH: read from the cache or built on the first call with
  /// \p Invocation (one of the group's TUs, as it is run), which later
  /// calls wait for; null when it cannot be had, with \p Why saying why.
  /// \p How says where it came from on the call that got it ("built here in
  /// 9.1 s", "from the cache"), and is empty on later calls.
  std::shared_ptr<const SharedPCH>
  get(unsigned G, const clang::CompilerInvocation &Invocation,
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS, std::string &Why,
      std::string &How);

  /// A TU of group G did not parse with it: the group's PCH is not used
  /// again, and its cached copy is removed.
  void distrust(unsigned G);

  /// One TU of group G is done; after its last, the PCH is freed.
  void done(unsigned G);

  /// Seconds spent building PCHs, over every thread.
  double buildSeconds() const;

private:
  struct Group;
  std::vector<std::unique_ptr<Group>> Groups;
  std::string TempDir, CacheDir;
  mutable std::mutex StatsLock;
  double BuildSeconds = 0;
};

/// How many PCHs --cache-dir keeps: the most recently used ones. A
/// LibTorch PCH is about 75 MB; a project has one per flag set that
/// reaches its heavy headers.
constexpr unsigned MaxCachedPCHs = 8;

/// What pruneSharedHeaders removed and kept.
struct PCHPruneCounts {
  unsigned Stale = 0, Damaged = 0, OverBound = 0, Kept = 0;
  uint64_t KeptBytes = 0;
};

/// Bounds the PCHs kept in \p Dir to the \p Keep most recently used, and
/// with \p CheckInputs also removes those a changed header made stale or
/// that are damaged (`wrapguard cache --prune`; a scan checks only the
/// bound, after it stores one). Leftovers of an interrupted build older
/// than an hour go too.
PCHPruneCounts pruneSharedHeaders(const std::string &Dir, unsigned Keep,
                                  bool CheckInputs);

/// Watches the parse of a TU that loaded \p PCH (see above).
class SharedHeaderGuard : public clang::PPCallbacks {
public:
  SharedHeaderGuard(const SharedPCH &PCH, clang::Preprocessor &PP,
                    std::string &Why);

  void FileSkipped(const clang::FileEntryRef &SkippedFile,
                   const clang::Token &FilenameTok,
                   clang::SrcMgr::CharacteristicKind FileType) override;
  void MacroDefined(const clang::Token &MacroNameTok,
                    const clang::MacroDirective *MD) override;
  void MacroUndefined(const clang::Token &MacroNameTok,
                      const clang::MacroDefinition &MD,
                      const clang::MacroDirective *Undef) override;
  void MacroExpands(const clang::Token &MacroNameTok,
                    const clang::MacroDefinition &MD, clang::SourceRange Range,
                    const clang::MacroArgs *Args) override;
  void Defined(const clang::Token &MacroNameTok,
               const clang::MacroDefinition &MD,
               clang::SourceRange Range) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
             const clang::MacroDefinition &MD) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
              const clang::MacroDefinition &MD) override;
  void Elifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
               const clang::MacroDefinition &MD) override;
  void Elifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
                const clang::MacroDefinition &MD) override;
  void PragmaDirective(clang::SourceLocation Loc,
                       clang::PragmaIntroducerKind Introducer) override;
  void EndOfMainFile() override;

  /// After the parse: a using-directive before the last root stops it too.
  void checkDeclarations(clang::ASTContext &Context);

private:
  bool beforeRoots() const { return !RootsLeft.empty(); }
  /// Whether \p Loc is in a file of the TU's own (not the PCH, not the
  /// command line or the compiler's predefined macros).
  bool inTUFile(clang::SourceLocation Loc) const;
  void macroDefinedHere(const clang::Token &Name);
  void macroRead(const clang::Token &Name, const clang::MacroDefinition &MD);
  /// Whether the PCH's definition at \p Loc is in a header the TU has
  /// already included (and the PCH let it skip): without the PCH it would
  /// be defined there too.
  bool readAlready(clang::SourceLocation Loc) const;
  /// Whether \p Loc is in a header the PCH read, which the TU reads again
  /// (it is not guarded as a whole). What such a header defines and tests
  /// is its own business: the PCH read it too, and system headers are
  /// written to be included in any order.
  bool inPCHHeader(clang::SourceLocation Loc) const;
  void stop(const std::string &Reason);

  const SharedPCH &PCH;
  clang::Preprocessor &PP;
  const clang::SourceManager &SM;
  std::string &Why;
  std::set<llvm::sys::fs::UniqueID> RootsLeft;
  /// The PCH's headers the TU included before its roots.
  std::set<llvm::sys::fs::UniqueID> Reached;
  /// Where the TU's include of its last root is.
  clang::SourceLocation LastRoot;
};

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SHAREDHEADERS_H
