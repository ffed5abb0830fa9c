//===- PathFactsTest.cpp - The lattice of tested atoms --------------------===//
//
// PathLattice answers most of the diagnoser's questions without the solver
// (docs/design.md, "Query cost"). A wrong fact there is a wrong finding, or a
// missed one, so its rules are pinned here: which atoms it records, what a
// join and a widening keep, and when a contradiction makes a point
// unreachable.
//
//===----------------------------------------------------------------------===//

#include "PathFacts.h"
#include "clang/Analysis/FlowSensitive/Arena.h"
#include "gtest/gtest.h"

using namespace clang::dataflow;
using namespace wrapguard;

namespace {

class PathFactsTest : public ::testing::Test {
protected:
  /// A fresh atom that a guard tested, as the model makes for `if (f)`.
  const Formula &tested() {
    const Formula &F = A.makeAtomRef(A.makeAtom());
    Facts.noteFresh(F);
    Facts.noteGuarded(F);
    return F;
  }
  Arena A;
  PathFacts Facts;
};

TEST_F(PathFactsTest, RecordsTheBranchTakenForTestedAtoms) {
  const Formula &F = tested();
  PathLattice Then, Else;
  Then.assume(F, /*Holds=*/true, Facts);
  Else.assume(F, /*Holds=*/false, Facts);
  EXPECT_EQ(Then.lookup(F.getAtom()), std::optional<bool>(true));
  EXPECT_EQ(Else.lookup(F.getAtom()), std::optional<bool>(false));
}

TEST_F(PathFactsTest, IgnoresAtomsNoGuardProduced) {
  // An integer comparison's atom: remembering it would only grow every
  // lattice element.
  const Formula &Int = A.makeAtomRef(A.makeAtom());
  PathLattice L;
  L.assume(Int, true, Facts);
  EXPECT_EQ(L.lookup(Int.getAtom()), std::nullopt);
  EXPECT_TRUE(L == PathLattice());
}

TEST_F(PathFactsTest, LooksThroughNotAndOrAndOnTheRightEdges) {
  const Formula &F = tested(), &G = tested();
  PathLattice NotTaken; // `if (!f)`, false edge.
  NotTaken.assume(A.makeNot(F), false, Facts);
  EXPECT_EQ(NotTaken.lookup(F.getAtom()), std::optional<bool>(true));

  PathLattice BothTrue; // `if (f && g)`, true edge.
  BothTrue.assume(A.makeAnd(F, G), true, Facts);
  EXPECT_EQ(BothTrue.lookup(F.getAtom()), std::optional<bool>(true));
  EXPECT_EQ(BothTrue.lookup(G.getAtom()), std::optional<bool>(true));

  PathLattice AndFalse; // `if (f && g)`, false edge: one of them fails.
  AndFalse.assume(A.makeAnd(F, G), false, Facts);
  EXPECT_EQ(AndFalse.lookup(F.getAtom()), std::nullopt);
  EXPECT_EQ(AndFalse.lookup(G.getAtom()), std::nullopt);

  PathLattice OrFalse; // `if (f || g)`, false edge: both fail.
  OrFalse.assume(A.makeOr(F, G), false, Facts);
  EXPECT_EQ(OrFalse.lookup(F.getAtom()), std::optional<bool>(false));
  EXPECT_EQ(OrFalse.lookup(G.getAtom()), std::optional<bool>(false));

  PathLattice OrTrue; // `if (f || g)`, true edge: one of them holds.
  OrTrue.assume(A.makeOr(F, G), true, Facts);
  EXPECT_EQ(OrTrue.lookup(F.getAtom()), std::nullopt);
}

TEST_F(PathFactsTest, JoinKeepsOnlyWhatEveryPathKnows) {
  const Formula &F = tested(), &G = tested();
  PathLattice L, R;
  L.assume(F, true, Facts);
  L.assume(G, true, Facts);
  R.assume(F, true, Facts);
  R.assume(G, false, Facts);
  EXPECT_EQ(L.join(R), LatticeJoinEffect::Changed);
  EXPECT_EQ(L.lookup(F.getAtom()), std::optional<bool>(true));
  EXPECT_EQ(L.lookup(G.getAtom()), std::nullopt);
  EXPECT_EQ(L.join(R), LatticeJoinEffect::Unchanged);
}

TEST_F(PathFactsTest, AContradictionIsUnreachableAndJoinsAsTheOtherSide) {
  const Formula &F = tested();
  PathLattice Dead;
  Dead.assume(F, true, Facts);
  Dead.assume(F, false, Facts);
  EXPECT_TRUE(Dead.contradiction());

  PathLattice Live;
  Live.assume(F, true, Facts);
  PathLattice Copy = Live;
  EXPECT_EQ(Live.join(Dead), LatticeJoinEffect::Unchanged);
  EXPECT_TRUE(Live == Copy);
  EXPECT_EQ(Dead.join(Live), LatticeJoinEffect::Changed);
  EXPECT_FALSE(Dead.contradiction());
  EXPECT_EQ(Dead.lookup(F.getAtom()), std::optional<bool>(true));
}

TEST_F(PathFactsTest, WideningShrinksSoLoopsConverge) {
  // Each iteration of `while (!f) { f(x); f = next(); }` tests a new atom.
  const Formula &First = tested(), &Second = tested();
  PathLattice Previous, Current;
  Previous.assume(First, false, Facts);
  Current.assume(Second, false, Facts);
  EXPECT_EQ(Current.widen(Previous), LatticeJoinEffect::Changed);
  EXPECT_TRUE(Current == PathLattice());
  PathLattice Next;
  EXPECT_EQ(Next.widen(Current), LatticeJoinEffect::Unchanged);
}

TEST_F(PathFactsTest, FreeAtomsAreThoseNoGuardTested) {
  const Formula &Fresh = A.makeAtomRef(A.makeAtom());
  Facts.noteFresh(Fresh);
  EXPECT_TRUE(Facts.isFree(Fresh));
  Facts.noteGuarded(Fresh);
  EXPECT_FALSE(Facts.isFree(Fresh));
}

} // namespace
