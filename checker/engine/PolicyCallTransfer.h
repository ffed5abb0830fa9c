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
#include "OpenMPCopies.h"
#include "PathQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <vector>

namespace wrapguard {

/// The objects the transfer gives a function's OpenMP copies of callables
/// (OpenMPCopies), shared by every environment: per copy, the copy itself
/// and a boolean that is true while the copy exists on the path (from the
/// first statement of its region to the directive that ends it).
struct OpenMPObjects {
  explicit OpenMPObjects(const OpenMPCopies &Copies) : Copies(Copies) {}
  const OpenMPCopies &Copies;
  struct Locations {
    clang::dataflow::StorageLocation *Object = nullptr;
    clang::dataflow::StorageLocation *Made = nullptr;
  };
  llvm::DenseMap<const OpenMPCopies::Copy *, Locations> Locs;
};

/// What the transfer function reads and keeps across statements of one
/// analysed function.
struct TransferContext {
  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  TestedAtoms &Atoms;
  /// Whether a key is present in a map of callables, per `map[key]` text:
  /// one boolean location each, whose value the environments track.
  llvm::StringMap<clang::dataflow::StorageLocation *> &KeyPresence;
  /// The storage of static variables that reference getters return, one
  /// location per variable for the whole function.
  llvm::DenseMap<const clang::VarDecl *, clang::dataflow::StorageLocation *>
      &Statics;
  /// One boolean per call of a pure function with the same arguments (the
  /// callee, then the arguments' values or storage): see CallResultOracle.
  std::map<std::vector<const void *>, clang::dataflow::BoolValue *>
      &PureResults;
  /// Likewise, one object per call of a pure function that returns a
  /// pointer or a reference to one (an entry of a constant table).
  std::map<std::vector<const void *>, clang::dataflow::StorageLocation *>
      &PureObjects;
  /// One location per element of a standard sequence read with `v[i]`,
  /// keyed by the container's location and the index's value (or, for an
  /// integer the framework does not model, its variable's location).
  std::map<std::pair<const void *, const void *>,
           clang::dataflow::StorageLocation *> &Elements;
  /// Per smart pointer's location, a location whose value, in each
  /// environment, points at the object `p->`, `*p` and `p.get()` denote
  /// there: a change of `p` clears it, and paths that reach different
  /// objects join as the framework joins pointers.
  llvm::DenseMap<const void *, clang::dataflow::StorageLocation *>
      &PointeeSlots;
  /// Per smart pointer's location, the object it points to on every path
  /// that has not changed it since the function began: `p->` in two
  /// branches denotes one object, which a join keeps (a test of its field
  /// in one branch and a setter's call in the other both reach the call
  /// after them). A change gives the slot a new object at once.
  llvm::DenseMap<const void *, clang::dataflow::StorageLocation *>
      &FirstPointees;
  /// Null when the function copies no callable for OpenMP.
  OpenMPObjects *OpenMP = nullptr;
};

/// Applies S's effect on nullable callables to Env.
void transferStatement(const clang::Stmt &S, TransferContext &C,
                       clang::dataflow::Environment &Env);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_POLICYCALLTRANSFER_H
