//===- PathQueryTest.cpp - The lattice of tested atoms --------------------===//
//
// PathLattice answers most of the diagnoser's questions without the solver
// (docs/design.md, "Query cost"). A wrong atom there is a wrong finding, or a
// missed one, so its rules are pinned here: which atoms it records, what a
// join and a widening keep, and when a contradiction makes a point
// unreachable.
//
//===----------------------------------------------------------------------===//

#include "PathQuery.h"
#include "clang/Analysis/FlowSensitive/Arena.h"
#include "gtest/gtest.h"

using namespace clang::dataflow;
using namespace wrapguard;

namespace {

class PathQueryTest : public ::testing::Test {
protected:
  /// A fresh atom that a guard tested, as the model makes for `if (f)`.
  const Formula &tested() {
    const Formula &F = A.makeAtomRef(A.makeAtom());
    Atoms.noteFresh(F);
    Atoms.noteGuarded(F);
    return F;
  }
  Arena A;
  TestedAtoms Atoms;
};

TEST_F(PathQueryTest, RecordsTheBranchTakenForTestedAtoms) {
  const Formula &F = tested();
  PathLattice Then, Else;
  Then.assume(F, /*Holds=*/true, Atoms);
  Else.assume(F, /*Holds=*/false, Atoms);
  EXPECT_EQ(Then.lookup(F.getAtom()), std::optional<bool>(true));
  EXPECT_EQ(Else.lookup(F.getAtom()), std::optional<bool>(false));
}

TEST_F(PathQueryTest, IgnoresAtomsNoGuardProduced) {
  // An integer comparison's atom: remembering it would only grow every
  // lattice element.
  const Formula &Int = A.makeAtomRef(A.makeAtom());
  PathLattice L;
  L.assume(Int, true, Atoms);
  EXPECT_EQ(L.lookup(Int.getAtom()), std::nullopt);
  EXPECT_TRUE(L == PathLattice());
}

TEST_F(PathQueryTest, LooksThroughNotAndOrAndOnTheRightEdges) {
  const Formula &F = tested(), &G = tested();
  PathLattice NotTaken; // `if (!f)`, false edge.
  NotTaken.assume(A.makeNot(F), false, Atoms);
  EXPECT_EQ(NotTaken.lookup(F.getAtom()), std::optional<bool>(true));

  PathLattice BothTrue; // `if (f && g)`, true edge.
  BothTrue.assume(A.makeAnd(F, G), true, Atoms);
  EXPECT_EQ(BothTrue.lookup(F.getAtom()), std::optional<bool>(true));
  EXPECT_EQ(BothTrue.lookup(G.getAtom()), std::optional<bool>(true));

  PathLattice AndFalse; // `if (f && g)`, false edge: one of them fails.
  AndFalse.assume(A.makeAnd(F, G), false, Atoms);
  EXPECT_EQ(AndFalse.lookup(F.getAtom()), std::nullopt);
  EXPECT_EQ(AndFalse.lookup(G.getAtom()), std::nullopt);

  PathLattice OrFalse; // `if (f || g)`, false edge: both fail.
  OrFalse.assume(A.makeOr(F, G), false, Atoms);
  EXPECT_EQ(OrFalse.lookup(F.getAtom()), std::optional<bool>(false));
  EXPECT_EQ(OrFalse.lookup(G.getAtom()), std::optional<bool>(false));

  PathLattice OrTrue; // `if (f || g)`, true edge: one of them holds.
  OrTrue.assume(A.makeOr(F, G), true, Atoms);
  EXPECT_EQ(OrTrue.lookup(F.getAtom()), std::nullopt);
}

TEST_F(PathQueryTest, JoinKeepsOnlyWhatEveryPathKnows) {
  const Formula &F = tested(), &G = tested();
  PathLattice L, R;
  L.assume(F, true, Atoms);
  L.assume(G, true, Atoms);
  R.assume(F, true, Atoms);
  R.assume(G, false, Atoms);
  EXPECT_EQ(L.join(R), LatticeJoinEffect::Changed);
  EXPECT_EQ(L.lookup(F.getAtom()), std::optional<bool>(true));
  EXPECT_EQ(L.lookup(G.getAtom()), std::nullopt);
  EXPECT_EQ(L.join(R), LatticeJoinEffect::Unchanged);
}

TEST_F(PathQueryTest, AContradictionIsUnreachableAndJoinsAsTheOtherSide) {
  const Formula &F = tested();
  PathLattice Dead;
  Dead.assume(F, true, Atoms);
  Dead.assume(F, false, Atoms);
  EXPECT_TRUE(Dead.contradiction());

  PathLattice Live;
  Live.assume(F, true, Atoms);
  PathLattice Copy = Live;
  EXPECT_EQ(Live.join(Dead), LatticeJoinEffect::Unchanged);
  EXPECT_TRUE(Live == Copy);
  EXPECT_EQ(Dead.join(Live), LatticeJoinEffect::Changed);
  EXPECT_FALSE(Dead.contradiction());
  EXPECT_EQ(Dead.lookup(F.getAtom()), std::optional<bool>(true));
}

TEST_F(PathQueryTest, WideningShrinksSoLoopsConverge) {
  // Each iteration of `while (!f) { f(x); f = next(); }` tests a new atom.
  const Formula &First = tested(), &Second = tested();
  PathLattice Previous, Current;
  Previous.assume(First, false, Atoms);
  Current.assume(Second, false, Atoms);
  EXPECT_EQ(Current.widen(Previous), LatticeJoinEffect::Changed);
  EXPECT_TRUE(Current == PathLattice());
  PathLattice Next;
  EXPECT_EQ(Next.widen(Current), LatticeJoinEffect::Unchanged);
}

TEST_F(PathQueryTest, FreeAtomsAreThoseNoGuardTested) {
  const Formula &Fresh = A.makeAtomRef(A.makeAtom());
  Atoms.noteFresh(Fresh);
  EXPECT_TRUE(Atoms.isFree(Fresh));
  Atoms.noteGuarded(Fresh);
  EXPECT_FALSE(Atoms.isFree(Fresh));
}

} // namespace
