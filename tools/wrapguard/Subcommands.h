//===- Subcommands.h - wrapguard's subcommands other than the scan -*- C++ -*-//
//
// Each subcommand lives in a file of its own, with its options: `merge`
// (Merge.cpp) joins the shards' SARIF logs and decides their candidates;
// `join` (Join.cpp) meets flagged sites with a runtime trace; `cache`
// (CacheCommand.cpp) prunes a --cache-dir folder. The scan and
// `index`, which takes the scan's options, are Driver.cpp's.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_SUBCOMMANDS_H
#define WRAPGUARD_TOOLS_SUBCOMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace wrapguard {

/// `merge`; true after parsing when the command line chose it.
extern llvm::cl::SubCommand MergeCommand;
/// `wrapguard merge [-o OUT] a.sarif b.sarif ...` with the parsed options:
/// joins the runs of several SARIF logs into one log with one run. Returns
/// the exit status (0, or 2 when an input cannot be read or written).
int runMerge();

/// `join`; true after parsing when the command line chose it.
extern llvm::cl::SubCommand JoinCommand;
/// Runs `wrapguard join` with the parsed options: the sites the scanner
/// flagged, joined with the WRAPGUARD_TRACE file the shim writes when the
/// program runs (needs no LibTorch: both sides are JSON or text). Returns
/// the exit status (0, or 2 when an input cannot be read or is not what it
/// should be).
int runJoin();

/// `cache`; true after parsing when the command line chose it.
extern llvm::cl::SubCommand CacheCommand;
/// `wrapguard cache --prune DIR` (CacheCommand.cpp): removes from a
/// --cache-dir folder what no scan can use again. Returns the exit status
/// (0, or 2 when the folder cannot be read).
int runCache();

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_SUBCOMMANDS_H
