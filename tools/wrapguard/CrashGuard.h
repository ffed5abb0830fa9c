//===- CrashGuard.h - One TU's crash is that TU's alone --------*- C++ -*-===//
//
// The scan runs every TU in one process (threads share the loaded libraries
// and the claims of header code; see Scan.cpp), so a crash in Clang's front
// end or in the analysis must not take the process down. Each TU runs on a
// thread of its own, with the 8 MiB stack clang gives its front end
// (clang::DesiredStackSize), under llvm::CrashRecoveryContext: a signal in
// it (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) unwinds to the
// guard, which reports it, and the scan goes on with the other TUs.
//
// A stack overflow is the crash that matters most (deeply nested code
// overflows the parser's recursion), and its signal cannot be delivered on
// the stack that overflowed: so each TU thread gets an alternate signal
// stack, and the recovery handlers are marked SA_ONSTACK.
//
// The cost, measured in docs/bench-scan.md: one thread created per TU and
// its alternate stack, next to seconds of parsing; no process per TU.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_CRASHGUARD_H
#define WRAPGUARD_TOOLS_CRASHGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace wrapguard {

/// Turns crash recovery on for the process; once, before any TU runs.
void enableCrashRecovery();

/// Runs \p Fn on a new thread with clang's front-end stack. Returns 0 when it
/// returned, else the signal that ended it (its work is then abandoned: what
/// it allocated is leaked, on purpose, as nothing can be trusted to unwind).
int runGuarded(llvm::function_ref<void()> Fn);

/// "SIGSEGV" for 11, and so on; "signal N" for others.
std::string signalName(int Signal);

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_CRASHGUARD_H
