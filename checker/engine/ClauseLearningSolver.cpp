//===- ClauseLearningSolver.cpp - A CDCL solver for path questions --------===//

#include "ClauseLearningSolver.h"
#include "clang/Analysis/FlowSensitive/CNFFormula.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <utility>
#include <vector>

using namespace clang::dataflow;

namespace wrapguard {
namespace {

enum Value : std::int8_t { False = 0, True = 1, Unassigned = -1 };

constexpr std::uint32_t NoReason = ~0u;

/// Clauses back to back in one array, each preceded by its size, and named
/// by the offset of its first literal: a function's flow condition makes
/// hundreds of thousands of them, and one allocation each cost more than the
/// search.
class ClauseDB {
public:
  /// Adds a clause with distinct literals; returns its name.
  std::uint32_t add(llvm::ArrayRef<Literal> C) {
    Lits.push_back(C.size());
    std::uint32_t Name = Lits.size();
    Lits.insert(Lits.end(), C.begin(), C.end());
    return Name;
  }
  /// Adds C unless it always holds (a literal and its negation), without
  /// the literals it repeats (`a && a`).
  void addNormalised(std::initializer_list<Literal> C) {
    llvm::SmallVector<Literal, 4> Kept;
    for (Literal L : C) {
      if (llvm::is_contained(Kept, notLit(L)))
        return;
      if (!llvm::is_contained(Kept, L))
        Kept.push_back(L);
    }
    add(Kept);
  }
  llvm::MutableArrayRef<Literal> operator[](std::uint32_t Name) {
    return {&Lits[Name], Lits[Name - 1]};
  }
  /// Every clause's name, in the order added.
  template <typename Fn> void forEach(Fn F) {
    for (std::uint32_t Name = 1; Name < Lits.size(); Name += Lits[Name - 1] + 1)
      F(Name);
  }

private:
  std::vector<Literal> Lits;
};

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

/// Tseitin's encoding of the framework's formulas into clauses: one
/// variable per atom and per distinct connective (formulas are shared, so
/// each is encoded once), a negation being the negated literal.
class Encoder {
public:
  /// Asserts F: its literal, or each conjunct of a top-level conjunction.
  void assertFormula(const Formula &F) {
    if (F.kind() == Formula::And) {
      for (const Formula *Op : F.operands())
        assertFormula(*Op);
      return;
    }
    Clauses.addNormalised({encode(F)});
  }

  ClauseDB Clauses;
  /// The variable of each atom, for the model.
  llvm::DenseMap<Variable, Atom> Atoms;
  Variable LargestVar = 0;

private:
  Literal encode(const Formula &Root);
  Literal define(const Formula &F);
  Variable fresh() { return ++LargestVar; }
  Literal trueLit() {
    if (True == NullLit) {
      True = posLit(fresh());
      Clauses.addNormalised({True});
    }
    return True;
  }

  llvm::DenseMap<const Formula *, Literal> Lits;
  llvm::DenseMap<Atom, Variable> AtomVars;
  /// encode's work list, kept between formulas.
  std::vector<std::pair<const Formula *, bool>> Stack;
  Literal True = NullLit;
};

/// Post-order over the formula's DAG, without recursion: flow conditions
/// nest as deep as the function is long.
Literal Encoder::encode(const Formula &Root) {
  if (auto It = Lits.find(&Root); It != Lits.end())
    return It->second;
  Stack.assign(1, {&Root, false});
  while (!Stack.empty()) {
    auto [F, Expanded] = Stack.back();
    if (!Expanded) {
      Stack.back().second = true;
      for (const Formula *Op : F->operands())
        if (!Lits.contains(Op))
          Stack.push_back({Op, false});
      continue;
    }
    Stack.pop_back();
    // A shared operand may have been pushed twice before it was encoded.
    if (!Lits.contains(F))
      Lits[F] = define(*F);
  }
  return Lits.lookup(&Root);
}

/// The literal of F, whose operands are encoded.
Literal Encoder::define(const Formula &F) {
  if (F.kind() == Formula::AtomRef) {
    auto [It, New] = AtomVars.try_emplace(F.getAtom(), 0);
    if (New) {
      It->second = fresh();
      Atoms[It->second] = F.getAtom();
    }
    return posLit(It->second);
  }
  if (F.kind() == Formula::Literal)
    return F.literal() ? trueLit() : notLit(trueLit());
  Literal A = Lits.lookup(F.operands()[0]);
  if (F.kind() == Formula::Not)
    return notLit(A);
  Literal B = Lits.lookup(F.operands()[1]);
  Literal V = posLit(fresh());
  switch (F.kind()) {
  case Formula::And:
    Clauses.addNormalised({notLit(V), A});
    Clauses.addNormalised({notLit(V), B});
    Clauses.addNormalised({V, notLit(A), notLit(B)});
    break;
  case Formula::Implies:
    A = notLit(A);
    [[fallthrough]];
  case Formula::Or:
    Clauses.addNormalised({notLit(V), A, B});
    Clauses.addNormalised({V, notLit(A)});
    Clauses.addNormalised({V, notLit(B)});
    break;
  default: // Formula::Equal
    Clauses.addNormalised({notLit(V), notLit(A), B});
    Clauses.addNormalised({notLit(V), A, notLit(B)});
    Clauses.addNormalised({V, A, B});
    Clauses.addNormalised({V, notLit(A), notLit(B)});
    break;
  }
  return V;
}

class CDCL {
public:
  CDCL(Encoder &E, std::int64_t &Budget);
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
  void attach(std::uint32_t C);
  std::uint32_t propagate();
  bool propagateClause(std::uint32_t C, Literal FalseLit, bool &Conflict);
  unsigned analyze(std::uint32_t Conflict, std::vector<Literal> &Learnt);
  void backjump(unsigned Level);
  void bump(Variable V);
  bool decide();

  std::int64_t &Budget;
  ClauseDB Clauses;
  /// Per literal, the clauses that watch it (it is their first or second
  /// literal); visited when it becomes false.
  /// Most literals are watched by a clause or two: inline storage spares
  /// an allocation each.
  std::vector<llvm::SmallVector<std::uint32_t, 2>> Watches;
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

CDCL::CDCL(Encoder &E, std::int64_t &Budget)
    : Budget(Budget), Clauses(std::move(E.Clauses)),
      Watches(2 * E.LargestVar + 2), Val(E.LargestVar + 1, Unassigned),
      Phase(E.LargestVar + 1, False), Levels(E.LargestVar + 1, 0),
      Reasons(E.LargestVar + 1, NoReason), Activity(E.LargestVar + 1, 0),
      Order(Activity), Seen(E.LargestVar + 1, 0) {
  Clauses.forEach([&](std::uint32_t C) { attach(C); });
}

void CDCL::assign(Literal L, std::uint32_t Reason) {
  Variable V = var(L);
  Val[V] = isPosLit(L) ? True : False;
  Levels[V] = level();
  Reasons[V] = Reason;
  Trail.push_back(L);
}

/// An original clause, at level 0: a unit is assigned at once.
void CDCL::attach(std::uint32_t C) {
  llvm::MutableArrayRef<Literal> Lits = Clauses[C];
  for (Literal L : Lits)
    Order.insert(var(L));
  if (Lits.size() > 1) {
    Watches[Lits[0]].push_back(C);
    Watches[Lits[1]].push_back(C);
    return;
  }
  if (Lits.empty() || valueOf(Lits[0]) == False)
    Contradiction = true;
  else if (valueOf(Lits[0]) == Unassigned)
    assign(Lits[0], NoReason);
}

/// Assigns what the trail implies; returns a conflicting clause, or
/// NoReason.
std::uint32_t CDCL::propagate() {
  while (QHead < Trail.size()) {
    --Budget;
    Literal FalseLit = notLit(Trail[QHead++]);
    llvm::SmallVector<std::uint32_t, 2> &Ws = Watches[FalseLit];
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
  llvm::MutableArrayRef<Literal> Lits = Clauses[C];
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
    for (Literal Q : Clauses[C].drop_front(P == NullLit ? 0 : 1)) {
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
      std::uint32_t C = Clauses.add(Learnt);
      Watches[Learnt[0]].push_back(C);
      Watches[Learnt[1]].push_back(C);
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
  Encoder E;
  for (const Formula *F : Vals)
    E.assertFormula(*F);
  CDCL Search(E, Budget);
  switch (Search.solve()) {
  case Solver::Result::Status::Unsatisfiable:
    return Solver::Result::Unsatisfiable();
  case Solver::Result::Status::TimedOut:
    return Solver::Result::TimedOut();
  case Solver::Result::Status::Satisfiable:
    break;
  }
  llvm::DenseMap<Atom, Solver::Result::Assignment> Model;
  for (const auto &[V, A] : E.Atoms)
    Model[A] = Search.isTrue(V) ? Solver::Result::Assignment::AssignedTrue
                                : Solver::Result::Assignment::AssignedFalse;
  return Solver::Result::Satisfiable(std::move(Model));
}

} // namespace wrapguard
