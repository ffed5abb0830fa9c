//===- PolicyCallTransfer.h - The model's transfer function -----*- C++ -*-===//
//
// What each statement does to the state of nullable callables. The dispatch
// is a ConstStmtVisitor: one case per AST node kind, each delegating to small
// functions, one per API (construction, assignment, a null comparison, a
// member of std::function/optional/unique_ptr, a map lookup, a cast). See
// docs/design.md, "The transfer function", for why a visitor and not
// CFGMatchSwitch.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_POLICYCALLTRANSFER_H
#define WRAPGUARD_ENGINE_POLICYCALLTRANSFER_H

#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "PathFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/StringMap.h"

namespace wrapguard {

/// What the transfer function reads and keeps across statements of one
/// analysed function.
struct TransferContext {
  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  PathFacts &Facts;
  /// Whether a key is present in a map of callables, per `map[key]` text:
  /// one boolean location each, whose value the environments track.
  llvm::StringMap<clang::dataflow::StorageLocation *> &KeyPresence;
};

/// Applies S's effect on nullable callables to Env.
void transferStatement(const clang::Stmt &S, TransferContext &C,
                       clang::dataflow::Environment &Env);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_POLICYCALLTRANSFER_H
