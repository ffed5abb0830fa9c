//===- ClauseLearningSolverTest.cpp - The engine's SAT solver -------------===//
//
// Every path question the solver answers wrongly is a wrong finding or a
// missed one, so its answers are checked against brute force on random
// formulas, its models against the formulas they satisfy, and its budget
// and its speed on the flow-condition shape that the framework's DPLL
// search could not finish (issue 14) are pinned.
//
//===----------------------------------------------------------------------===//

#include "ClauseLearningSolver.h"
#include "clang/Analysis/FlowSensitive/Arena.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"
#include "gtest/gtest.h"
#include <random>

using namespace clang::dataflow;
using namespace wrapguard;

namespace {

using Status = Solver::Result::Status;
using Model = llvm::DenseMap<Atom, Solver::Result::Assignment>;

bool eval(const Formula &F, const Model &M) {
  switch (F.kind()) {
  case Formula::AtomRef:
    return M.lookup(F.getAtom()) == Solver::Result::Assignment::AssignedTrue;
  case Formula::Literal:
    return F.literal();
  case Formula::Not:
    return !eval(*F.operands()[0], M);
  case Formula::And:
    return eval(*F.operands()[0], M) && eval(*F.operands()[1], M);
  case Formula::Or:
    return eval(*F.operands()[0], M) || eval(*F.operands()[1], M);
  case Formula::Implies:
    return !eval(*F.operands()[0], M) || eval(*F.operands()[1], M);
  case Formula::Equal:
    return eval(*F.operands()[0], M) == eval(*F.operands()[1], M);
  }
  return false;
}

/// Whether some assignment of Atoms satisfies every formula.
bool bruteForce(llvm::ArrayRef<const Formula *> Fs,
                llvm::ArrayRef<Atom> Atoms) {
  for (unsigned Bits = 0; Bits < (1u << Atoms.size()); ++Bits) {
    Model M;
    for (unsigned I = 0; I < Atoms.size(); ++I)
      M[Atoms[I]] = (Bits >> I) & 1 ? Solver::Result::Assignment::AssignedTrue
                                    : Solver::Result::Assignment::AssignedFalse;
    if (llvm::all_of(Fs, [&](const Formula *F) { return eval(*F, M); }))
      return true;
  }
  return false;
}

class ClauseLearningSolverTest : public ::testing::Test {
protected:
  /// A random formula of the given depth over Atoms, with every connective
  /// the framework builds.
  const Formula &random(llvm::ArrayRef<Atom> Atoms, unsigned Depth) {
    unsigned Kind = Depth == 0 ? 0 : Rng() % 6;
    auto Sub = [&] { return std::cref(random(Atoms, Depth - 1)); };
    switch (Kind) {
    case 0:
      return A.makeAtomRef(Atoms[Rng() % Atoms.size()]);
    case 1:
      return A.makeNot(Sub());
    case 2:
      return A.makeAnd(Sub(), Sub());
    case 3:
      return A.makeOr(Sub(), Sub());
    case 4:
      return A.makeImplies(Sub(), Sub());
    default:
      return A.makeEquals(Sub(), Sub());
    }
  }

  Solver::Result solve(llvm::ArrayRef<const Formula *> Fs) {
    std::int64_t Budget = 1000000;
    return solveWithClauseLearning(Fs, Budget);
  }

  Arena A;
  std::mt19937 Rng{14};
};

TEST_F(ClauseLearningSolverTest, AgreesWithBruteForceAndItsModelsHold) {
  std::vector<Atom> Atoms;
  for (int I = 0; I < 6; ++I)
    Atoms.push_back(A.makeAtom());
  unsigned Sat = 0, Unsat = 0;
  for (int Trial = 0; Trial < 400; ++Trial) {
    std::vector<const Formula *> Fs;
    for (unsigned I = 0, N = 1 + Rng() % 8; I < N; ++I)
      Fs.push_back(&random(Atoms, 1 + Rng() % 3));
    Solver::Result R = solve(Fs);
    bool Expected = bruteForce(Fs, Atoms);
    ASSERT_EQ(R.getStatus(),
              Expected ? Status::Satisfiable : Status::Unsatisfiable)
        << "trial " << Trial;
    if (!Expected) {
      ++Unsat;
      continue;
    }
    ++Sat;
    Model M = *R.getSolution();
    for (const Formula *F : Fs)
      EXPECT_TRUE(eval(*F, M)) << "trial " << Trial;
  }
  // Both answers were exercised.
  EXPECT_GT(Sat, 50u);
  EXPECT_GT(Unsat, 50u);
}

/// Random 3-CNF near the satisfiability threshold, too large for brute
/// force: the same answer as the framework's own (complete) solver.
TEST_F(ClauseLearningSolverTest, AgreesWithTheFrameworksSolverOnHardCNF) {
  std::vector<Atom> Atoms;
  for (int I = 0; I < 40; ++I)
    Atoms.push_back(A.makeAtom());
  unsigned Sat = 0, Unsat = 0;
  for (int Trial = 0; Trial < 150; ++Trial) {
    std::vector<const Formula *> Fs;
    for (int C = 0; C < 170; ++C) {
      const Formula *Clause = nullptr;
      for (int L = 0; L < 3; ++L) {
        const Formula &Lit = A.makeAtomRef(Atoms[Rng() % Atoms.size()]);
        const Formula &Signed = Rng() % 2 ? A.makeNot(Lit) : Lit;
        Clause = Clause ? &A.makeOr(*Clause, Signed) : &Signed;
      }
      Fs.push_back(Clause);
    }
    Solver::Result Mine = solve(Fs);
    Solver::Result Theirs = WatchedLiteralsSolver().solve(Fs);
    ASSERT_EQ(Mine.getStatus(), Theirs.getStatus()) << "trial " << Trial;
    if (Mine.getStatus() == Status::Satisfiable) {
      ++Sat;
      Model M = *Mine.getSolution();
      for (const Formula *F : Fs)
        EXPECT_TRUE(eval(*F, M)) << "trial " << Trial;
    } else {
      ++Unsat;
    }
  }
  EXPECT_GT(Sat, 10u);
  EXPECT_GT(Unsat, 10u);
}

TEST_F(ClauseLearningSolverTest, LiteralsAndEmptyInput) {
  EXPECT_EQ(solve({}).getStatus(), Status::Satisfiable);
  EXPECT_EQ(solve({&A.makeLiteral(false)}).getStatus(), Status::Unsatisfiable);
  EXPECT_EQ(solve({&A.makeLiteral(true)}).getStatus(), Status::Satisfiable);
  const Formula &X = A.makeAtomRef(A.makeAtom());
  EXPECT_EQ(solve({&X, &A.makeNot(X)}).getStatus(), Status::Unsatisfiable);
}

/// Pigeonhole: N+1 pigeons in N holes, unsatisfiable, and hard for any
/// resolution-based search; a small one must still be refuted, and a budget
/// too small for it must time out rather than answer.
TEST_F(ClauseLearningSolverTest, RefutesPigeonholeAndHonoursItsBudget) {
  const unsigned Holes = 5;
  std::vector<std::vector<const Formula *>> In(Holes + 1);
  for (auto &Row : In)
    for (unsigned H = 0; H < Holes; ++H)
      Row.push_back(&A.makeAtomRef(A.makeAtom()));
  std::vector<const Formula *> Fs;
  for (auto &Row : In) {
    const Formula *Some = Row[0];
    for (unsigned H = 1; H < Holes; ++H)
      Some = &A.makeOr(*Some, *Row[H]);
    Fs.push_back(Some);
  }
  for (unsigned H = 0; H < Holes; ++H)
    for (unsigned P = 0; P <= Holes; ++P)
      for (unsigned Q = P + 1; Q <= Holes; ++Q)
        Fs.push_back(&A.makeNot(A.makeAnd(*In[P][H], *In[Q][H])));
  EXPECT_EQ(solve(Fs).getStatus(), Status::Unsatisfiable);
  std::int64_t Tiny = 10;
  EXPECT_EQ(solveWithClauseLearning(Fs, Tiny).getStatus(), Status::TimedOut);
}

/// The flow condition of `bool ok = f; ... N times: if (ok && c_i) ...;`
/// asked whether the end implies f: the framework's DPLL search did not
/// finish it from about 200 joins on.
TEST_F(ClauseLearningSolverTest, LongChainOfJoinsOnAFlagIsQuick) {
  const Formula &F = A.makeAtomRef(A.makeAtom());
  std::vector<const Formula *> Fs;
  Atom Token = A.makeAtom();
  Fs.push_back(&A.makeAtomRef(Token));
  for (int I = 0; I < 3000; ++I) {
    const Formula &Parent = A.makeAtomRef(Token);
    const Formula &C = A.makeAtomRef(A.makeAtom());
    Atom Taken = A.makeAtom(), Skipped = A.makeAtom(), Join = A.makeAtom();
    Fs.push_back(&A.makeEquals(A.makeAtomRef(Taken),
                               A.makeAnd(Parent, A.makeAnd(F, C))));
    Fs.push_back(&A.makeEquals(A.makeAtomRef(Skipped),
                               A.makeAnd(Parent, A.makeNot(A.makeAnd(F, C)))));
    Fs.push_back(
        &A.makeEquals(A.makeAtomRef(Join),
                      A.makeOr(A.makeAtomRef(Taken), A.makeAtomRef(Skipped))));
    Token = Join;
  }
  std::vector<const Formula *> Implies = Fs;
  Implies.push_back(&A.makeAtomRef(Token));
  Implies.push_back(&A.makeNot(F));
  std::int64_t Budget = 2000000;
  EXPECT_EQ(solveWithClauseLearning(Implies, Budget).getStatus(),
            Status::Satisfiable);
  EXPECT_GT(Budget, 0);
}

} // namespace
