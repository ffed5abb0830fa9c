//===- Join.h - `wrapguard join`: flagged sites meet a trace ---*- C++ -*-===//
//
// The static half of the proof that a flagged call is handled: the sites the
// scanner flagged, joined with the WRAPGUARD_TRACE file the shim writes when
// the program runs. Needs no LibTorch: both sides are JSON (or text).
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_JOIN_H
#define WRAPGUARD_TOOLS_JOIN_H

#include "llvm/Support/CommandLine.h"

namespace wrapguard {

/// The `join` subcommand; true after parsing when the command line chose it.
extern llvm::cl::SubCommand JoinCommand;

/// Runs `wrapguard join` with the parsed options; returns the exit status
/// (0, or 2 when an input cannot be read or is not what it should be).
int runJoin();

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_JOIN_H
