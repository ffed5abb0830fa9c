//===- CompiledOutAssertions.h - Assertions this build left out -*- C++ -*-===//
//
// A release build compiles assertion macros out: under NDEBUG,
// `D_ASSERT(callbacks.state_size);` expands to `((void)0)` or to nothing,
// so the flow analysis sees no test before the call that follows it. The
// source still states the author's invariant, and a debug build of the same
// code has the test (where the assertion ends the process, the engine takes
// it as a guard: Guards.h, assertsNonEmpty). A scan of a release database
// should not report what a scan of a debug one proves.
//
// Such an assertion is read from the AST alone, so that the preamble, the
// traversal scope and clangd see it alike: a statement spelled as one
// function-like macro invocation, `NAME(ARGS)`, whose expansion reads
// nothing that can run (an empty statement, a cast of a constant,
// `do {} while (0)`, code behind a condition the compiler decides is false:
// glog's `while (false) CHECK(c)`, Chromium's `DCHECK_IS_ON() && ...`).
// Which macro it is does not matter: what it left in the build does.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_COMPILEDOUTASSERTIONS_H
#define WRAPGUARD_ANALYSIS_COMPILEDOUTASSERTIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace wrapguard {

/// The first argument of S, as written, when S is a function-like macro
/// invocation that this build compiled to code reading nothing.
std::optional<std::string>
compiledOutMacroArgument(const clang::Stmt &S, const clang::ASTContext &Ctx);

/// Whether Condition (source text) states that the value spelled Callable
/// is set: `f`, `f != nullptr`, `NULL != f`, `!!f`, or a conjunct of `&&`.
bool statesSet(llvm::StringRef Condition, llvm::StringRef Callable);

/// Whether a compiled-out assertion that Callable is set comes before Call
/// in a block that encloses it, so that it runs first on every path through
/// that block.
bool assertedOutOfBuild(const clang::CallExpr &Call, llvm::StringRef Callable,
                        const clang::ParentMap &PM,
                        const clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_COMPILEDOUTASSERTIONS_H
