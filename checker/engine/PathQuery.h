//===- PathQuery.h - Cheap answers to path questions ------------*- C++ -*-===//
//
// The diagnoser asks, at each call through a nullable callable, whether the
// path proves the callable non-empty, or empty. The framework answers by
// handing the solver the whole flow condition, whose size grows with the
// function: in a function with thousands of branches each question costs as
// much as the function, and the function costs their square.
//
// Most questions are about one atom that a guard on the path tested
// (`if (f) f(x);`) or that no guard ever tested (`g(x);` after
// `auto g = policy();`). This file answers those without the solver:
//
//   PathLattice  the atoms the branches taken to this point asserted, joined
//                by intersection: an assertion holds after a join only when
//                it held on every incoming path;
//   TestedAtoms  per function, which atoms were made fresh and which were
//                ever turned into a boolean a branch could test;
//   PathQuery    one program point's questions: the lattice first, then the
//                free atoms, and only then the solver.
//
// See docs/design.md, "Query cost".
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_PATHQUERY_H
#define WRAPGUARD_ENGINE_PATHQUERY_H

#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/DataflowLattice.h"
#include "clang/Analysis/FlowSensitive/Formula.h"
#include "clang/Analysis/FlowSensitive/Solver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <optional>

namespace wrapguard {

/// Per analysed function: which state atoms the flow condition can
/// constrain. A source's atom that no guard ever tested is free: neither it
/// nor its negation can be proven on a feasible path, so the question needs
/// no solver call.
class TestedAtoms {
public:
  /// A fresh atom made for a source or an unknown value.
  void noteFresh(const clang::dataflow::Formula &F);
  /// F was turned into a boolean that a branch or a variable may hold.
  void noteGuarded(const clang::dataflow::Formula &F);
  bool isFree(const clang::dataflow::Formula &F) const;
  /// Whether a branch on this atom is worth remembering in PathLattice:
  /// only atoms of callable states are; the rest (integer comparisons, ...)
  /// would only grow every lattice element.
  bool isTested(clang::dataflow::Atom A) const { return Tested.count(A); }
  /// F was copied from one object into another (`g = f`, `g(f)`,
  /// `f.get()`): its atom may outlive the scope of the object that made it.
  void noteCopied(const clang::dataflow::Formula &F);
  bool isCopied(clang::dataflow::Atom A) const { return Copied.count(A); }

  /// Once the solver budget is spent the function's results are dropped, so
  /// no further question is worth asking (collecting the flow condition for
  /// one costs as much as solving it).
  void setSolver(const clang::dataflow::Solver *S) { TheSolver = S; }
  bool exhausted() const { return TheSolver && TheSolver->reachedLimit(); }

private:
  const clang::dataflow::Solver *TheSolver = nullptr;
  llvm::DenseSet<clang::dataflow::Atom> Fresh, Guarded;
  /// Every atom a guard produced, fresh or made by a join.
  llvm::DenseSet<clang::dataflow::Atom> Tested;
  llvm::DenseSet<clang::dataflow::Atom> Copied;
  bool GuardedOther = false;
};

/// The guarded atoms that the branches taken to a program point asserted.
class PathLattice {
public:
  /// The branch taken made Cond hold (Holds) or fail; remembers what that
  /// says about guarded atoms.
  void assume(const clang::dataflow::Formula &Cond, bool Holds,
              const TestedAtoms &Atoms);
  /// What the path says about atom A: known true, known false, or nothing.
  std::optional<bool> lookup(clang::dataflow::Atom A) const;
  /// Drops what the path asserted of A, whose last holder died: the lattice
  /// only ever answers questions about atoms that live storage holds.
  void forget(clang::dataflow::Atom A) { Known.erase(A); }
  /// Two branches on the way asserted an atom and its negation: no
  /// execution gets here.
  bool contradiction() const { return Contradiction; }
  /// The path ended here (a call that never returns): nothing after it
  /// runs, and a join takes the other paths' knowledge whole.
  void markUnreachable() { Contradiction = true; }

  clang::dataflow::LatticeJoinEffect join(const PathLattice &Other);
  clang::dataflow::LatticeJoinEffect widen(const PathLattice &Previous);
  bool operator==(const PathLattice &Other) const {
    return Contradiction == Other.Contradiction && Known == Other.Known;
  }

private:
  llvm::SmallDenseMap<clang::dataflow::Atom, bool, 4> Known;
  /// Two branches asserted an atom and its negation: no execution reaches
  /// here.
  bool Contradiction = false;
};

/// The questions one program point answers.
class PathQuery {
public:
  PathQuery(const clang::dataflow::Environment &Env, const PathLattice &Known,
            const TestedAtoms &Atoms)
      : Env(Env), Known(Known), Atoms(Atoms) {}

  /// Whether every path here makes F true (with Negated, false). Also true
  /// where no path reaches.
  bool proves(const clang::dataflow::Formula &F, bool Negated = false) const;

  const clang::dataflow::Environment &env() const { return Env; }

private:
  const clang::dataflow::Environment &Env;
  const PathLattice &Known;
  const TestedAtoms &Atoms;
};

/// Env.proves(F), answering literals without a solver call: most states are
/// literal true or false, and every solver call re-encodes the whole flow
/// condition.
bool provesCheaply(const clang::dataflow::Environment &Env,
                   const clang::dataflow::Formula &F);

/// The engine's solver: a clause-learning search (ClauseLearningSolver.h)
/// in place of the framework's DPLL, under one budget that counts both the
/// search's work and every constraint encoded per question (each question
/// re-encodes the whole flow condition, which in a long function can
/// dominate), so the bound is on all solver work and stays deterministic
/// (no clock).
class BudgetedSolver : public clang::dataflow::Solver {
public:
  explicit BudgetedSolver(std::int64_t Budget) : Remaining(Budget) {}
  Result solve(llvm::ArrayRef<const clang::dataflow::Formula *> Vals) override;
  bool reachedLimit() const override { return Exhausted; }

private:
  std::int64_t Remaining;
  bool Exhausted = false;
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_PATHQUERY_H
