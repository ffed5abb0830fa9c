//===- DeadLocals.h - Dropping locals whose lifetime ended ------*- C++ -*-===//
//
// The framework removes a local's declaration from the environment where its
// lifetime ends (the CFG's LifetimeEnds elements), but keeps the values in
// its storage: the synthetic fields of a block's `std::function`, a flag
// copied from it. A local that dies on a path that never joins another (the
// rest of a block after `if (!h) return;`) is then carried to the end of the
// function, and every later block copies, joins and compares it. Likewise
// the path lattice keeps what `if (!h) return;` asserted of h's atom.
//
// dropDeadLocal drops both, so that the state of a program point holds what
// is live there, not what happened before it. See docs/design.md, "Dead
// locals".
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_DEADLOCALS_H
#define WRAPGUARD_ENGINE_DEADLOCALS_H

#include "PathQuery.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"

namespace wrapguard {

/// Drops local V from Env and L where its lifetime ends: the values in V's
/// own storage (a scalar's or a pointer's value, the fields and synthetic
/// fields of a record, recursively; not what its references and pointers
/// refer to), and what L asserts of the atoms of callable states that only
/// V held (an atom copied into another object stays).
void dropDeadLocal(const clang::VarDecl &V, clang::dataflow::Environment &Env,
                   PathLattice &L, const TestedAtoms &Atoms);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_DEADLOCALS_H
