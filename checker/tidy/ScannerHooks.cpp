//===- ScannerHooks.cpp - What the scanner asks of the check --------------===//

#include "ScannerHooks.h"

namespace wrapguard {

ScannerHooks *&scannerHooks() {
  thread_local ScannerHooks *Hooks = nullptr;
  return Hooks;
}

} // namespace wrapguard
