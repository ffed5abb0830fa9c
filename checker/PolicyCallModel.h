//===- PolicyCallModel.h - Dataflow model of nullable callables -*- C++ -*-===//
//
// A model for Clang's dataflow framework that tracks, for every nullable
// callable value, two booleans:
//
//   nonempty  the value holds a target (std::function engaged, pointer
//             non-null, optional has a value);
//   tracked   we know where the value came from (a policy call, a local
//             empty, a lambda, ...). Parameters, fields and other values of
//             unknown origin have an unconstrained `tracked`, which keeps them
//             quiet unless StrictMode is on.
//
// Records (std::function, std::optional, smart pointers) keep the booleans in
// synthetic fields; pointers (function, member-function, raw) keep them as
// properties of their PointerValue. Both are formulas over the flow
// condition, so guards such as `const bool ok = static_cast<bool>(f); if (ok)`
// are understood through the solver rather than pattern-matched.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_CHECKER_POLICYCALLMODEL_H
#define WRAPGUARD_CHECKER_POLICYCALLMODEL_H

#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/NoopLattice.h"
#include "clang/Analysis/FlowSensitive/Solver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace wrapguard {

/// What a call that returns a nullable callable yields.
enum class Emptiness { NonEmpty, MayBeEmpty, AlwaysEmpty, Unknown };

/// Decides what a call returning a nullable callable yields: from the
/// callee's visible definition, its annotations, or its name.
class CallResultOracle {
public:
  virtual ~CallResultOracle();
  virtual Emptiness classifyCallResult(const clang::CallExpr &Call) = 0;
};

/// What the model learns, per analysed function, about which state atoms
/// the flow condition can constrain. A source's atom that no guard ever
/// tested is free: neither it nor its negation can be proven on a feasible
/// path, so the question needs no solver call. Every solver call encodes the
/// whole flow condition, which in a long function costs seconds; see
/// docs/design.md.
class PathFacts {
public:
  /// A fresh atom made for a source or an unknown value.
  void noteFresh(const clang::dataflow::Formula &F);
  /// F was turned into a boolean that a branch or a variable may hold.
  void noteGuarded(const clang::dataflow::Formula &F);
  bool isFree(const clang::dataflow::Formula &F) const;

  /// Once the solver budget is spent the function's results are dropped, so
  /// no further question is worth asking (collecting the flow condition for
  /// one costs as much as solving it).
  void setSolver(const clang::dataflow::Solver *S) { TheSolver = S; }
  bool exhausted() const { return TheSolver && TheSolver->reachedLimit(); }

private:
  const clang::dataflow::Solver *TheSolver = nullptr;
  llvm::DenseSet<clang::dataflow::Atom> Fresh, Guarded;
  bool GuardedOther = false;
};

/// Env proves F (or, with Negated, not F), using PathFacts to skip solver
/// calls whose answer is known.
bool provesState(const clang::dataflow::Environment &Env,
                 const clang::dataflow::Formula &F, const PathFacts &Facts,
                 bool Negated = false);

/// The two booleans the model keeps for one nullable callable value.
struct CallableState {
  const clang::dataflow::BoolValue *NonEmpty = nullptr;
  const clang::dataflow::BoolValue *Tracked = nullptr;
};

class PolicyCallModel
    : public clang::dataflow::DataflowAnalysis<PolicyCallModel,
                                               clang::dataflow::NoopLattice> {
public:
  PolicyCallModel(clang::ASTContext &Ctx, clang::dataflow::Environment &Env,
                  const CallableTypes &Types, CallResultOracle &Oracle,
                  PathFacts &Facts);

  static clang::dataflow::NoopLattice initialElement() { return {}; }

  void transfer(const clang::CFGElement &Elt, clang::dataflow::NoopLattice &,
                clang::dataflow::Environment &Env);

  clang::dataflow::ComparisonResult
  compare(clang::QualType Type, const clang::dataflow::Value &Val1,
          const clang::dataflow::Environment &Env1,
          const clang::dataflow::Value &Val2,
          const clang::dataflow::Environment &Env2) override;
  void join(clang::QualType Type, const clang::dataflow::Value &Val1,
            const clang::dataflow::Environment &Env1,
            const clang::dataflow::Value &Val2,
            const clang::dataflow::Environment &Env2,
            clang::dataflow::Value &JoinedVal,
            clang::dataflow::Environment &JoinedEnv) override;
  std::optional<clang::dataflow::WidenResult>
  widen(clang::QualType Type, clang::dataflow::Value &Prev,
        const clang::dataflow::Environment &PrevEnv,
        clang::dataflow::Value &Current,
        clang::dataflow::Environment &CurrentEnv) override;

  /// The state of the nullable callable that E denotes, or an empty state
  /// when E is not one or the environment knows nothing of it.
  static CallableState getState(const clang::Expr &E,
                                const clang::dataflow::Environment &Env,
                                const CallableTypes &Types);

private:
  class Transfer;
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  PathFacts &Facts;
  /// Whether a key is present in a map of callables, per `map[key]` text:
  /// one boolean location each, whose value the environments track.
  llvm::StringMap<clang::dataflow::StorageLocation *> KeyPresence;
};

/// For `m[k]` on a std::map or std::unordered_map whose mapped type is a
/// nullable callable, the map expression m; else null. `operator[]` inserts
/// an empty callable when the key is missing.
const clang::Expr *callableMapSubscript(const clang::CallExpr &C,
                                        const CallableTypes &Types);

/// The mapped type of the map that M denotes, as the user spelled it.
std::string mappedTypeName(const clang::Expr &M, clang::ASTContext &Ctx);

/// Runs the model over FD within the given budgets and calls Visit on every
/// CFG element of the converged analysis, with the state before it. Returns
/// an error when FD cannot be analysed or a budget is exceeded.
llvm::Error
runPolicyCallModel(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                   const CallableTypes &Types, CallResultOracle &Oracle,
                   std::int64_t MaxSolverIterations,
                   std::int32_t MaxBlockVisits,
                   llvm::function_ref<void(const clang::CFGElement &,
                                           const clang::dataflow::Environment &,
                                           const PathFacts &)>
                       Visit);

/// Env.proves(F), answering literals without a solver call: most states are
/// literal true or false, and every solver call re-encodes the whole flow
/// condition.
bool provesCheaply(const clang::dataflow::Environment &Env,
                   const clang::dataflow::Formula &F);

/// `nullptr`, `NULL`, `0`, `std::nullopt`: a literal empty value.
bool isNullLiteral(const clang::Expr *E, clang::ASTContext &Ctx);

/// For `std::move(x)`, the expression x; else null.
const clang::Expr *movedFromObject(const clang::Expr *Arg);

/// Strips what never changes which object an expression denotes: parens,
/// implicit casts, temporaries and full-expression cleanups.
const clang::Expr *stripNoise(const clang::Expr *E);

} // namespace wrapguard

#endif // WRAPGUARD_CHECKER_POLICYCALLMODEL_H
