//===- PathQuery.cpp - Cheap answers to path questions --------------------===//

#include "PathQuery.h"
#include "ClauseLearningSolver.h"
#include "clang/Analysis/FlowSensitive/Arena.h"

using namespace clang::dataflow;

namespace wrapguard {

void TestedAtoms::noteFresh(const Formula &F) {
  if (F.kind() == Formula::AtomRef)
    Fresh.insert(F.getAtom());
}

void TestedAtoms::noteGuarded(const Formula &F) {
  if (F.kind() == Formula::Literal)
    return;
  if (F.kind() == Formula::AtomRef)
    Tested.insert(F.getAtom());
  if (F.kind() == Formula::AtomRef && Fresh.count(F.getAtom())) {
    Guarded.insert(F.getAtom());
    return;
  }
  // A joined or widened state: its atoms are defined by constraints we do
  // not see, so from now on every question goes to the solver.
  GuardedOther = true;
}

void TestedAtoms::noteCopied(const Formula &F) {
  if (F.kind() == Formula::AtomRef)
    Copied.insert(F.getAtom());
}

bool TestedAtoms::isFree(const Formula &F) const {
  return !GuardedOther && F.kind() == Formula::AtomRef &&
         Fresh.count(F.getAtom()) && !Guarded.count(F.getAtom());
}

void PathLattice::assume(const Formula &Cond, bool Holds,
                         const TestedAtoms &Atoms) {
  switch (Cond.kind()) {
  case Formula::AtomRef: {
    if (!Atoms.isTested(Cond.getAtom()))
      return;
    auto [It, Inserted] = Known.try_emplace(Cond.getAtom(), Holds);
    if (!Inserted && It->second != Holds)
      Contradiction = true;
    return;
  }
  case Formula::Not:
    return assume(*Cond.operands()[0], !Holds, Atoms);
  case Formula::And:
    // `if (f && g)`: both hold on the true branch; the false branch says
    // only that one fails.
    if (Holds)
      for (const Formula *Op : Cond.operands())
        assume(*Op, true, Atoms);
    return;
  case Formula::Or:
    if (!Holds)
      for (const Formula *Op : Cond.operands())
        assume(*Op, false, Atoms);
    return;
  default:
    return;
  }
}

std::optional<bool> PathLattice::lookup(Atom A) const {
  auto It = Known.find(A);
  if (It == Known.end())
    return std::nullopt;
  return It->second;
}

LatticeJoinEffect PathLattice::join(const PathLattice &Other) {
  if (Other.Contradiction)
    return LatticeJoinEffect::Unchanged;
  if (Contradiction) {
    *this = Other;
    return LatticeJoinEffect::Changed;
  }
  // Intersection: keep what both paths know, with the same polarity.
  llvm::SmallVector<Atom, 4> Lost;
  for (const auto &[A, Holds] : Known) {
    auto It = Other.Known.find(A);
    if (It == Other.Known.end() || It->second != Holds)
      Lost.push_back(A);
  }
  for (Atom A : Lost)
    Known.erase(A);
  return Lost.empty() ? LatticeJoinEffect::Unchanged
                      : LatticeJoinEffect::Changed;
}

LatticeJoinEffect PathLattice::widen(const PathLattice &Previous) {
  // At a loop's back edge the assertions are about atoms that each iteration
  // makes anew; keeping only what the previous round also knew makes the
  // sequence shrink, so the loop converges.
  join(Previous);
  return *this == Previous ? LatticeJoinEffect::Unchanged
                           : LatticeJoinEffect::Changed;
}

bool PathQuery::proves(const Formula &F, bool Negated) const {
  if (Atoms.exhausted())
    return false;
  if (Known.contradiction())
    return true;
  if (F.kind() == Formula::Literal)
    return F.literal() != Negated || Env.proves(Env.arena().makeLiteral(false));
  if (F.kind() == Formula::AtomRef) {
    // The answer the path's own guards give, when they give one. An
    // assertion of the opposite polarity still goes to the solver: only an
    // infeasible path proves both, and telling that needs the whole flow
    // condition.
    std::optional<bool> K = Known.lookup(F.getAtom());
    if (K && *K != Negated)
      return true;
    if (Atoms.isFree(F))
      return false;
  }
  return Env.proves(Negated ? Env.arena().makeNot(F) : F);
}

bool provesCheaply(const Environment &Env, const Formula &F) {
  if (F.kind() == Formula::Literal && F.literal())
    return true;
  return Env.proves(F);
}

BudgetedSolver::Result
BudgetedSolver::solve(llvm::ArrayRef<const Formula *> Vals) {
  Remaining -= static_cast<std::int64_t>(Vals.size());
  if (Exhausted || Remaining <= 0) {
    Exhausted = true;
    return Result::TimedOut();
  }
  Result R = solveWithClauseLearning(Vals, Remaining);
  if (R.getStatus() == Result::Status::TimedOut)
    Exhausted = true;
  return R;
}

} // namespace wrapguard
