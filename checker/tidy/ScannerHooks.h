//===- ScannerHooks.h - What the scanner asks of the check -----*- C++ -*-===//
//
// The scanner (tools/wrapguard) runs each translation unit on a thread of its
// own and survives a crash in it. When one happens it names the function the
// check was analysing, which it reads here; and its hidden debugging option
// --debug-crash-in makes the check crash inside the analysis of a named
// function, so that this path is tested. Under clang-tidy and clangd there
// are no hooks and none of this runs.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TIDY_SCANNERHOOKS_H
#define WRAPGUARD_TIDY_SCANNERHOOKS_H

#include <string>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace wrapguard {

struct ScannerHooks {
  /// The function the check is analysing on this thread, null between
  /// functions. Read by the scanner after a crash, when the AST it points
  /// into is still allocated.
  const clang::FunctionDecl *Analysing = nullptr;
  /// Testing only: crash (a trap) when about to analyse the function whose
  /// qualified name this is.
  std::string CrashIn;
};

/// The hooks the scanner set on this thread for the TU it runs; null
/// otherwise.
ScannerHooks *&scannerHooks();

} // namespace wrapguard

#endif // WRAPGUARD_TIDY_SCANNERHOOKS_H
