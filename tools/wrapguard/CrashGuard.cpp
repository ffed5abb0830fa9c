//===- CrashGuard.cpp - One TU's crash is that TU's alone -----------------===//

#include "CrashGuard.h"
#include "clang/Basic/Stack.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include <csignal>
#include <memory>
#include <string>

namespace wrapguard {

namespace {
/// The signals CrashRecoveryContext recovers from.
constexpr int RecoveredSignals[] = {SIGABRT, SIGBUS,  SIGFPE,
                                    SIGILL,  SIGSEGV, SIGTRAP};

/// An alternate signal stack for the current thread, while it lives.
class AltStack {
public:
  AltStack() : Memory(new char[Size]) {
    stack_t Stack{};
    Stack.ss_sp = Memory.get();
    Stack.ss_size = Size;
    Installed = sigaltstack(&Stack, &Previous) == 0;
  }
  ~AltStack() {
    if (Installed)
      sigaltstack(&Previous, nullptr);
  }

private:
  // The recovery handler only unblocks the signal and jumps back.
  static constexpr size_t Size = 64 << 10;
  std::unique_ptr<char[]> Memory;
  stack_t Previous{};
  bool Installed = false;
};
} // namespace

void enableCrashRecovery() {
  llvm::CrashRecoveryContext::Enable();
  // CrashRecoveryContext installs its handlers without SA_ONSTACK; a stack
  // overflow's SIGSEGV would then have no stack to run its handler on.
  for (int Signal : RecoveredSignals) {
    struct sigaction Action;
    if (sigaction(Signal, nullptr, &Action) != 0 ||
        Action.sa_handler == SIG_DFL || Action.sa_handler == SIG_IGN)
      continue;
    Action.sa_flags |= SA_ONSTACK;
    sigaction(Signal, &Action, nullptr);
  }
}

int runGuarded(llvm::function_ref<void()> Fn) {
  llvm::CrashRecoveryContext CRC;
  bool Returned = CRC.RunSafelyOnThread(
      [&] {
        AltStack Stack;
        // As clang's cc1_main: Sema's deep recursions check their distance
        // from here and continue on a fresh stack before overflowing.
        clang::noteBottomOfStack();
        Fn();
      },
      clang::DesiredStackSize);
  if (Returned)
    return 0;
  // RetCode is 128 + the signal for a crash.
  return CRC.RetCode > 128 ? CRC.RetCode - 128 : CRC.RetCode;
}

std::string signalName(int Signal) {
  switch (Signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGILL:
    return "SIGILL";
  case SIGFPE:
    return "SIGFPE";
  case SIGABRT:
    return "SIGABRT";
  case SIGTRAP:
    return "SIGTRAP";
  }
  return "signal " + std::to_string(Signal);
}

} // namespace wrapguard
