//===- ClauseLearningSolver.h - A CDCL solver for path questions -*- C++
//-*-===//
//
// The framework's WatchedLiteralsSolver is a DPLL search with chronological
// backtracking and no clause learning. On the flow condition of a function
// with many joins, a question about an atom that a flag carries
// (`bool ok = static_cast<bool>(f); ... if (ok && c) ...`) makes it repeat
// the same failed sub-search once per later choice: from 200 branches on it
// did not finish within the solver budget, and the function was skipped.
//
// This is a conflict-driven solver: two watched literals per clause,
// first-UIP clause learning with non-chronological backjumping, decisions by
// activity (VSIDS) with saved phases, and restarts, over a Tseitin encoding
// of the framework's formulas (each shared sub-formula encoded once; the
// framework's own buildCNF cost more than the search). A conflict is learnt
// once and never searched again, which keeps these questions near-linear in
// the formula.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CLAUSELEARNINGSOLVER_H
#define WRAPGUARD_ENGINE_CLAUSELEARNINGSOLVER_H

#include "clang/Analysis/FlowSensitive/Formula.h"
#include "clang/Analysis/FlowSensitive/Solver.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>

namespace wrapguard {

/// Whether the conjunction of Vals is satisfiable. Work (every propagated
/// literal and every conflict) is charged against Budget; when it runs out
/// the result is TimedOut. A satisfiable result carries a model.
clang::dataflow::Solver::Result
solveWithClauseLearning(llvm::ArrayRef<const clang::dataflow::Formula *> Vals,
                        std::int64_t &Budget);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CLAUSELEARNINGSOLVER_H
