//===- ClauseLearningSolver.cpp - A CDCL solver for path questions --------===//

#include "ClauseLearningSolver.h"
#include "clang/Analysis/FlowSensitive/CNFFormula.h"
#include "llvm/ADT/DenseMap.h"
#include <utility>
#include <vector>

using namespace clang::dataflow;

namespace wrapguard {
namespace {

enum Value : std::int8_t { False = 0, True = 1, Unassigned = -1 };

constexpr std::uint32_t NoReason = ~0u;

/// Unassigned variables ordered by activity, most active first: MiniSat's
/// indexed binary heap.
class ActivityHeap {
public:
  explicit ActivityHeap(const std::vector<double> &Activity)
      : Activity(Activity), Pos(Activity.size(), -1) {}

  bool contains(Variable V) const { return Pos[V] >= 0; }
  bool empty() const { return Heap.empty(); }

  void insert(Variable V) {
    if (contains(V))
      return;
    Pos[V] = Heap.size();
    Heap.push_back(V);
    up(Pos[V]);
  }
  /// V's activity grew.
  void bumped(Variable V) {
    if (contains(V))
      up(Pos[V]);
  }
  Variable pop() {
    Variable Top = Heap.front();
    Pos[Top] = -1;
    Heap.front() = Heap.back();
    Heap.pop_back();
    if (!Heap.empty()) {
      Pos[Heap.front()] = 0;
      down(0);
    }
    return Top;
  }

private:
  bool before(Variable A, Variable B) const {
    return Activity[A] > Activity[B];
  }
  void place(size_t I, Variable V) {
    Heap[I] = V;
    Pos[V] = I;
  }
  void up(size_t I) {
    Variable V = Heap[I];
    for (; I > 0 && before(V, Heap[(I - 1) / 2]); I = (I - 1) / 2)
      place(I, Heap[(I - 1) / 2]);
    place(I, V);
  }
  void down(size_t I) {
    Variable V = Heap[I];
    for (size_t Child; (Child = 2 * I + 1) < Heap.size(); I = Child) {
      if (Child + 1 < Heap.size() && before(Heap[Child + 1], Heap[Child]))
        ++Child;
      if (!before(Heap[Child], V))
        break;
      place(I, Heap[Child]);
    }
    place(I, V);
  }

  const std::vector<double> &Activity;
  std::vector<Variable> Heap;
  std::vector<int> Pos;
};

class CDCL {
public:
  CDCL(const CNFFormula &CNF, std::int64_t &Budget);
  Solver::Result::Status solve();
  /// The value of V in the model found; unassigned reads as true.
  bool isTrue(Variable V) const { return Val[V] != False; }

private:
  Value valueOf(Literal L) const {
    Value V = Val[var(L)];
    return V == Unassigned ? Unassigned
                           : static_cast<Value>(V ^ (isNegLit(L) ? 1 : 0));
  }
  unsigned level() const { return TrailLim.size(); }
  void assign(Literal L, std::uint32_t Reason);
  void addClause(std::vector<Literal> Lits);
  std::uint32_t propagate();
  bool propagateClause(std::uint32_t C, Literal FalseLit, bool &Conflict);
  unsigned analyze(std::uint32_t Conflict, std::vector<Literal> &Learnt);
  void backjump(unsigned Level);
  void bump(Variable V);
  bool decide();

  std::int64_t &Budget;
  std::vector<std::vector<Literal>> Clauses;
  /// Per literal, the clauses that watch it (it is their first or second
  /// literal); visited when it becomes false.
  std::vector<std::vector<std::uint32_t>> Watches;
  std::vector<Value> Val, Phase;
  std::vector<unsigned> Levels;
  std::vector<std::uint32_t> Reasons;
  std::vector<Literal> Trail;
  std::vector<size_t> TrailLim;
  size_t QHead = 0;
  std::vector<double> Activity;
  double Increment = 1;
  ActivityHeap Order;
  std::vector<char> Seen;
  bool Contradiction = false;
};

CDCL::CDCL(const CNFFormula &CNF, std::int64_t &Budget)
    : Budget(Budget), Watches(2 * CNF.largestVar() + 2),
      Val(CNF.largestVar() + 1, Unassigned), Phase(CNF.largestVar() + 1, False),
      Levels(CNF.largestVar() + 1, 0), Reasons(CNF.largestVar() + 1, NoReason),
      Activity(CNF.largestVar() + 1, 0), Order(Activity),
      Seen(CNF.largestVar() + 1, 0) {
  Contradiction = CNF.knownContradictory();
  for (ClauseID C = 1; C <= CNF.numClauses() && !Contradiction; ++C) {
    llvm::ArrayRef<Literal> Lits = CNF.clauseLiterals(C);
    addClause(std::vector<Literal>(Lits.begin(), Lits.end()));
  }
}

void CDCL::assign(Literal L, std::uint32_t Reason) {
  Variable V = var(L);
  Val[V] = isPosLit(L) ? True : False;
  Levels[V] = level();
  Reasons[V] = Reason;
  Trail.push_back(L);
}

/// An original clause, at level 0: a unit is assigned at once.
void CDCL::addClause(std::vector<Literal> Lits) {
  for (Literal L : Lits)
    Order.insert(var(L));
  if (Lits.size() == 1) {
    Value V = valueOf(Lits[0]);
    if (V == False)
      Contradiction = true;
    else if (V == Unassigned)
      assign(Lits[0], NoReason);
    return;
  }
  std::uint32_t C = Clauses.size();
  Watches[Lits[0]].push_back(C);
  Watches[Lits[1]].push_back(C);
  Clauses.push_back(std::move(Lits));
}

/// Assigns what the trail implies; returns a conflicting clause, or
/// NoReason.
std::uint32_t CDCL::propagate() {
  while (QHead < Trail.size()) {
    --Budget;
    Literal FalseLit = notLit(Trail[QHead++]);
    std::vector<std::uint32_t> &Ws = Watches[FalseLit];
    size_t Kept = 0;
    for (size_t I = 0; I < Ws.size(); ++I) {
      bool Conflict = false;
      if (propagateClause(Ws[I], FalseLit, Conflict))
        Ws[Kept++] = Ws[I];
      if (Conflict) {
        std::uint32_t C = Ws[I];
        for (++I; I < Ws.size(); ++I)
          Ws[Kept++] = Ws[I];
        Ws.resize(Kept);
        return C;
      }
    }
    Ws.resize(Kept);
  }
  return NoReason;
}

/// Clause C watches FalseLit, which just became false: it watches another
/// literal instead (false is returned: C leaves FalseLit's list), or
/// implies its other watched literal, or is in conflict.
bool CDCL::propagateClause(std::uint32_t C, Literal FalseLit, bool &Conflict) {
  std::vector<Literal> &Lits = Clauses[C];
  if (Lits[0] == FalseLit)
    std::swap(Lits[0], Lits[1]);
  if (valueOf(Lits[0]) == True)
    return true;
  for (size_t K = 2; K < Lits.size(); ++K)
    if (valueOf(Lits[K]) != False) {
      std::swap(Lits[1], Lits[K]);
      Watches[Lits[1]].push_back(C);
      return false;
    }
  if (valueOf(Lits[0]) == False)
    Conflict = true;
  else
    assign(Lits[0], C);
  return true;
}

void CDCL::bump(Variable V) {
  if ((Activity[V] += Increment) > 1e100) {
    for (double &A : Activity)
      A *= 1e-100;
    Increment *= 1e-100;
  }
  Order.bumped(V);
}

/// First-UIP learning: Learnt gets the clause that the conflict teaches, its
/// asserting literal first; returns the level to go back to.
unsigned CDCL::analyze(std::uint32_t Conflict, std::vector<Literal> &Learnt) {
  Learnt.assign(1, NullLit);
  unsigned Open = 0;
  Literal P = NullLit;
  size_t Index = Trail.size();
  std::uint32_t C = Conflict;
  do {
    // A reason clause's first literal is the one it implied: P.
    for (Literal Q :
         llvm::ArrayRef(Clauses[C]).drop_front(P == NullLit ? 0 : 1)) {
      Variable V = var(Q);
      if (Seen[V] || Levels[V] == 0)
        continue;
      Seen[V] = 1;
      bump(V);
      if (Levels[V] >= level())
        ++Open;
      else
        Learnt.push_back(Q);
    }
    while (!Seen[var(Trail[--Index])])
      ;
    P = Trail[Index];
    C = Reasons[var(P)];
    Seen[var(P)] = 0;
  } while (--Open > 0);
  Learnt[0] = notLit(P);

  unsigned Back = 0;
  for (size_t I = 1; I < Learnt.size(); ++I) {
    Seen[var(Learnt[I])] = 0;
    if (Levels[var(Learnt[I])] > Back) {
      Back = Levels[var(Learnt[I])];
      std::swap(Learnt[1], Learnt[I]);
    }
  }
  Increment /= 0.95;
  return Back;
}

void CDCL::backjump(unsigned Level) {
  if (level() <= Level)
    return;
  for (size_t I = Trail.size(); I-- > TrailLim[Level];) {
    Variable V = var(Trail[I]);
    Phase[V] = Val[V];
    Val[V] = Unassigned;
    Reasons[V] = NoReason;
    Order.insert(V);
  }
  Trail.resize(TrailLim[Level]);
  TrailLim.resize(Level);
  QHead = Trail.size();
}

/// Assigns the most active unassigned variable its saved phase; false when
/// every variable is assigned (a model).
bool CDCL::decide() {
  while (!Order.empty()) {
    Variable V = Order.pop();
    if (Val[V] != Unassigned)
      continue;
    TrailLim.push_back(Trail.size());
    assign(Phase[V] == True ? posLit(V) : negLit(V), NoReason);
    return true;
  }
  return false;
}

Solver::Result::Status CDCL::solve() {
  using Status = Solver::Result::Status;
  if (Contradiction)
    return Status::Unsatisfiable;
  std::vector<Literal> Learnt;
  std::uint64_t Conflicts = 0, RestartAt = 100;
  while (true) {
    std::uint32_t Conflict = propagate();
    if (Budget <= 0)
      return Status::TimedOut;
    if (Conflict == NoReason) {
      if (!decide())
        return Status::Satisfiable;
      continue;
    }
    --Budget;
    if (level() == 0)
      return Status::Unsatisfiable;
    backjump(analyze(Conflict, Learnt));
    if (Learnt.size() == 1) {
      assign(Learnt[0], NoReason);
    } else {
      std::uint32_t C = Clauses.size();
      Watches[Learnt[0]].push_back(C);
      Watches[Learnt[1]].push_back(C);
      Clauses.push_back(Learnt);
      assign(Learnt[0], C);
    }
    if (++Conflicts == RestartAt) {
      RestartAt += RestartAt / 2;
      backjump(0);
    }
  }
}

} // namespace

Solver::Result solveWithClauseLearning(llvm::ArrayRef<const Formula *> Vals,
                                       std::int64_t &Budget) {
  if (Vals.empty())
    return Solver::Result::Satisfiable(
        llvm::DenseMap<Atom, Solver::Result::Assignment>());
  llvm::DenseMap<Variable, Atom> Atomics;
  CNFFormula CNF = buildCNF(Vals, Atomics);
  CDCL Search(CNF, Budget);
  switch (Search.solve()) {
  case Solver::Result::Status::Unsatisfiable:
    return Solver::Result::Unsatisfiable();
  case Solver::Result::Status::TimedOut:
    return Solver::Result::TimedOut();
  case Solver::Result::Status::Satisfiable:
    break;
  }
  llvm::DenseMap<Atom, Solver::Result::Assignment> Model;
  for (const auto &[V, A] : Atomics)
    Model[A] = Search.isTrue(V) ? Solver::Result::Assignment::AssignedTrue
                                : Solver::Result::Assignment::AssignedFalse;
  return Solver::Result::Satisfiable(std::move(Model));
}

} // namespace wrapguard
