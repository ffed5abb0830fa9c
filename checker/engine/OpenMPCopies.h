//===- OpenMPCopies.h - OpenMP's private copies of callables ----*- C++ -*-===//
//
// The CFG lays an OpenMP directive's region out in place (the framework sees
// its body as ordinary statements, and the directive itself as one element
// after them), and every reference in the region names the original
// variable. But a data-sharing clause gives the region its own copy of a
// variable: `private` and `lastprivate` a default-initialised one (an empty
// std::function), `firstprivate`, written or implicit (tasks, target
// regions), one copied from the original; `lastprivate` copies the last value
// back when the region ends. Judged in place, a call through a private copy
// would get the original's state, and the copy's assignments would leak out
// of the region.
//
// This file finds, per function, the copies of nullable callables and the
// references in each region that name them; the transfer function gives each
// copy an object of its own. It also finds what cannot be modelled so: a
// deferred task (task, taskloop, target nowait) that shares a callable, whose
// body may run after the code that follows it, and a reduction over a
// callable.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_OPENMPCOPIES_H
#define WRAPGUARD_ENGINE_OPENMPCOPIES_H

#include "CallableTypes.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>

namespace wrapguard {

class OpenMPCopies {
public:
  struct Region;

  /// One region's copy of one variable.
  struct Copy {
    const clang::VarDecl *Var = nullptr;
    const Region *In = nullptr;
    /// Starts as a copy of the original (firstprivate); otherwise
    /// default-initialised (private, lastprivate).
    bool FromOriginal = false;
    /// Its value goes back to the original at the region's end
    /// (lastprivate).
    bool CopiesBack = false;
    /// The enclosing region's copy of Var, which is this copy's original;
    /// null when the original is Var itself.
    const Copy *Outer = nullptr;
    /// Where the clause names Var; the directive's place for an implicit
    /// clause.
    clang::SourceLocation ClauseLoc;
  };

  /// A directive whose clauses copy at least one callable.
  struct Region {
    const clang::OMPExecutableDirective *Directive = nullptr;
    /// The enclosing region with copies, or null.
    const Region *Outer = nullptr;
    std::deque<Copy> Copies;
  };

  OpenMPCopies(const clang::FunctionDecl &FD, const CallableTypes &Types);

  bool empty() const { return Regions.empty(); }
  /// The innermost region with copies that S is evaluated in, or null.
  const Region *regionOf(const clang::Stmt &S) const {
    return InRegion.lookup(&S);
  }
  /// The region D's clauses open, when they copy a callable.
  const Region *regionOpenedBy(const clang::OMPExecutableDirective &D) const {
    return Opened.lookup(&D);
  }
  /// The copy a reference in a region names, or null.
  const Copy *copyAt(const clang::DeclRefExpr &E) const {
    return Refs.lookup(&E);
  }
  /// Whether some region has its own copy of V.
  bool copies(const clang::VarDecl &V) const {
    for (const Region &R : Regions)
      for (const Copy &C : R.Copies)
        if (C.Var == &V)
          return true;
    return false;
  }
  /// The construct that keeps the function from being analysed soundly, as
  /// Wording.h names it, or "".
  llvm::StringRef unsupported() const { return Unsupported; }

private:
  friend class OpenMPWalker;
  std::deque<Region> Regions;
  llvm::DenseMap<const clang::Stmt *, const Region *> InRegion;
  llvm::DenseMap<const clang::OMPExecutableDirective *, const Region *> Opened;
  llvm::DenseMap<const clang::DeclRefExpr *, const Copy *> Refs;
  llvm::StringRef Unsupported;
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_OPENMPCOPIES_H
