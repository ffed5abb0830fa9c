//===- CatchHandlers.h - Where a try statement's handlers start -*- C++ -*-===//
//
// The dataflow framework builds Clang's CFG without edges for exceptions: a
// try statement's handlers have no predecessor, so the framework never
// visits them. A call through an empty callable on an error path
// (`catch (...) { cb(err); }`) went unseen, in the check and in every
// summary. Each handler is analysed instead as a CFG of its own, from the
// join of the states where its try block may throw: before each call,
// construction, `new` or `throw` in it, as the converged analysis of the
// enclosing code has them. Guards around the try statement, and what the
// try block did before it threw, hold in the handler as they do there.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CATCHHANDLERS_H
#define WRAPGUARD_ENGINE_CATCHHANDLERS_H

#include "PathQuery.h"
#include "clang/AST/Decl.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace wrapguard {

class CatchHandlers {
public:
  /// Indexes the try statements of FD's body (a lambda's, or a local
  /// class's, are left to their own analyses).
  explicit CatchHandlers(const clang::FunctionDecl &FD);

  /// Whether FD has a try statement at all.
  bool empty() const { return InTry.empty(); }

  /// When Elt may throw inside a try block, joins the state before it (Env
  /// and L, from the converged analysis) into that try's handler entry.
  /// A state no path reaches adds nothing.
  void noteState(const clang::CFGElement &Elt,
                 const clang::dataflow::Environment &Env, const PathLattice &L,
                 clang::dataflow::Environment::ValueModel &Model);

  /// A try statement whose handlers have an entry state and were not yet
  /// run, with that state; each is handed out once. The analysis of a
  /// handler may note states for try statements inside it, which later
  /// calls then hand out.
  struct Entry {
    const clang::CXXTryStmt *Try = nullptr;
    std::optional<clang::dataflow::Environment> Env;
    PathLattice Known;
    unsigned Points = 0;
  };
  std::optional<Entry> takeNext();

  /// How many throwing points one try block's entry joins; past it the
  /// entry stays as it is. Each join adds a disjunct to the flow condition
  /// that every question in the handler encodes.
  static constexpr unsigned MaxPoints = 64;

private:
  /// Each statement in a try block, to its innermost try statement.
  llvm::DenseMap<const clang::Stmt *, const clang::CXXTryStmt *> InTry;
  std::vector<Entry> Pending;
  llvm::DenseMap<const clang::CXXTryStmt *, unsigned> IndexOf;
  unsigned Next = 0;
};

/// The state Entry as the start of a separate analysis of FD's code (a
/// handler): the framework would give a state whose call stack is empty
/// fresh parameters and a fresh object, as FD's entry. The result keeps
/// every location and value of Entry.
clang::dataflow::Environment
continueIn(const clang::dataflow::Environment &Entry,
           const clang::FunctionDecl &FD, clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CATCHHANDLERS_H
