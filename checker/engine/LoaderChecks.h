//===- LoaderChecks.h - Run-time loads tested through dlerror --*- C++ -*-===//
//
// POSIX's way to test a `dlsym` is `dlerror()`: it returns non-null when the
// last lookup failed, which is also when the pointer is null. Code that
// loads straight into its variable or table and tests `dlerror()` before
// any use has tested the load (mlx's `LOAD_SYMBOL`):
//
//   fn = (fn_t)dlsym(h, "f");
//   char *err = dlerror();
//   if (err != nullptr) { h = nullptr; return; }
//
// Past such a test the loaded pointer is set. So it is past a test of the
// stored pointer itself that leaves the block when it is null (`fn =
// (fn_t)dlsym(h, "f"); if (!fn) throw ..;`): the loader reports its failure
// either way, and what it stored is not used on that path. This file finds
// those loads by the statements that follow them in their block; the transfer
// and the facts collector then treat them as set values.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_LOADERCHECKS_H
#define WRAPGUARD_ENGINE_LOADERCHECKS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace wrapguard {

class CheckedLoads {
public:
  using IsLoaderFn = llvm::function_ref<bool(const clang::FunctionDecl &)>;

  /// Whether Load, a call of a run-time loader in Owner's body, is stored
  /// by its statement (`x = (T)dlsym(..)`, `T x = (T)dlsym(..)`) and the
  /// statements right after it in its block test `dlerror()` (directly, or
  /// through a local it initialises), or the next one tests the stored
  /// pointer for null, and leave the block on an error, by a `return`,
  /// `throw`, `break`, `continue` or `goto`.
  bool tested(const clang::CallExpr &Load, const clang::FunctionDecl &Owner,
              IsLoaderFn IsLoader);

private:
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseSet<const clang::CallExpr *>>
      ByFunction;
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_LOADERCHECKS_H
