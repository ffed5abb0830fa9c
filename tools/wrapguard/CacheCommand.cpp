//===- CacheCommand.cpp - wrapguard cache --prune -------------------------===//
//
// A --cache-dir grows with what scans leave there: a result entry per TU
// and compile command, the lists of files they read, and the precompiled
// shared headers. A scan bounds the PCHs (the MaxCachedPCHs most recently
// used); result entries of files that are gone, or of an older wrapguard
// build, stay until `wrapguard cache --prune DIR` removes them, with stale
// or damaged PCHs.
//
//===----------------------------------------------------------------------===//

#include "Cache.h"
#include "SharedHeaders.h"
#include "Subcommands.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wrapguard {

cl::SubCommand CacheCommand("cache", "Maintain a --cache-dir folder");

namespace {

cl::OptionCategory CacheCategory("wrapguard cache options");
cl::opt<bool> Prune("prune",
                    cl::desc("Remove what no scan can use again: results of "
                             "files that are gone or of another wrapguard "
                             "build, damaged entries, and precompiled "
                             "headers that are stale, damaged or beyond the "
                             "most recently used ones"),
                    cl::sub(CacheCommand), cl::cat(CacheCategory));
cl::opt<unsigned> KeepPCHs(
    "keep-pchs",
    cl::desc("How many precompiled shared headers to keep (default: the "
             "limit a scan keeps to)"),
    cl::init(MaxCachedPCHs), cl::sub(CacheCommand), cl::cat(CacheCategory));
cl::opt<std::string> Folder(cl::Positional, cl::Required,
                            cl::desc("<cache folder>"), cl::sub(CacheCommand),
                            cl::cat(CacheCategory));

} // namespace

int runCache() {
  if (!Prune) {
    errs() << "wrapguard cache: nothing to do (--prune removes what no scan "
              "can use again)\n";
    return 2;
  }
  if (!sys::fs::is_directory(Folder)) {
    errs() << "wrapguard cache: '" << Folder << "' is not a folder\n";
    return 2;
  }
  auto Cache = ResultCache::open(Folder);
  if (!Cache) {
    errs() << "wrapguard cache: " << toString(Cache.takeError()) << "\n";
    return 2;
  }
  ResultCache::PruneCounts R = (*Cache)->prune();
  PCHPruneCounts P =
      pruneSharedHeaders((*Cache)->pchFolder(), KeepPCHs, /*CheckInputs=*/true);
  outs() << formatv("wrapguard cache: removed {0} result entries and {1} "
                    "lists of files read; kept {2} entries\n",
                    R.Entries, R.Lists, R.Kept);
  outs() << formatv("wrapguard cache: removed {0} stale, {1} damaged and {2} "
                    "least recently used precompiled headers; kept {3} "
                    "({4} MB)\n",
                    P.Stale, P.Damaged, P.OverBound, P.Kept, P.KeptBytes >> 20);
  return 0;
}

} // namespace wrapguard
