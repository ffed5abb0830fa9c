//===- SkippedConstructs.h - Constructs the engine skips --------*- C++ -*-===//
//
// A few constructs keep a function from being analysed soundly, or crash
// Clang 19's dataflow framework before any of our code runs. They are found
// on the AST, before the framework sees the function, and the function is
// skipped with the construct as its reason (SkipReason). OpenMP's
// data-sharing clauses are modelled instead (OpenMPCopies), except where
// they cannot be.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_SKIPPEDCONSTRUCTS_H
#define WRAPGUARD_ENGINE_SKIPPEDCONSTRUCTS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

namespace wrapguard {

/// What one walk over FD's body finds.
struct ConstructScan {
  /// The first construct in the body that the engine does not analyse, as
  /// Wording.h names it, or "":
  ///  - a captured statement outside an OpenMP directive
  ///    (`#pragma clang __debug captured`): the CFG keeps its body out of the
  ///    function's flow, so its effects would be lost;
  ///  - a co_await or co_yield whose result is an object: the framework's
  ///    result-object map crashes on it (Clang 19).
  llvm::StringRef Unsupported;
  /// The body has an OpenMP directive, whose clauses may copy callables
  /// (OpenMPCopies); most bodies have none and skip that walk.
  bool OpenMP = false;
  /// The body has a try statement: a throw may be caught in the function,
  /// so it does not end the function's paths.
  bool Try = false;
};

/// Scans FD's body; a lambda's body is left to its own analysis.
ConstructScan scanConstructs(const clang::FunctionDecl &FD);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_SKIPPEDCONSTRUCTS_H
