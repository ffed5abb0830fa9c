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

#ifndef WRAPGUARD_ENGINE_POLICYCALLMODEL_H
#define WRAPGUARD_ENGINE_POLICYCALLMODEL_H

#include "CallResultOracle.h"
#include "CallableSyntax.h"
#include "CallableTypes.h"
#include "CallableValues.h"
#include "Emptiness.h"
#include "OpenMPCopies.h"
#include "PathQuery.h"
#include "PolicyCallTransfer.h"
#include "SkipReason.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace wrapguard {

class PolicyCallModel
    : public clang::dataflow::DataflowAnalysis<PolicyCallModel, PathLattice> {
public:
  PolicyCallModel(clang::ASTContext &Ctx, clang::dataflow::Environment &Env,
                  const CallableTypes &Types, CallResultOracle &Oracle,
                  TestedAtoms &Atoms, const OpenMPCopies *Copies,
                  bool ThrowsLeave);

  /// What every path knows at the start: nothing at a function's entry;
  /// at a handler's, what each path that may throw into it knows
  /// (CatchHandlers.h).
  PathLattice initialElement() const { return Seed; }
  void seed(PathLattice Known) { Seed = std::move(Known); }

  void transfer(const clang::CFGElement &Elt, PathLattice &,
                clang::dataflow::Environment &Env);
  /// Records in the lattice what the branch taken says about the callable
  /// states it tested, so that most questions skip the solver.
  void transferBranch(bool Branch, const clang::Stmt *Cond, PathLattice &L,
                      const clang::dataflow::Environment &Env);

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

private:
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  TestedAtoms &Atoms;
  /// Whether a key is present in a map of callables, per `map[key]` text:
  /// one boolean location each, whose value the environments track.
  llvm::StringMap<clang::dataflow::StorageLocation *> KeyPresence;
  llvm::DenseMap<const clang::VarDecl *, clang::dataflow::StorageLocation *>
      Statics;
  std::map<std::vector<const void *>, clang::dataflow::BoolValue *> PureResults;
  std::map<std::vector<const void *>, clang::dataflow::StorageLocation *>
      PureObjects;
  std::map<std::pair<const void *, const void *>,
           clang::dataflow::StorageLocation *>
      Elements;
  llvm::DenseMap<const void *, clang::dataflow::StorageLocation *> PointeeSlots;
  llvm::DenseMap<const void *, clang::dataflow::StorageLocation *>
      FirstPointees;
  /// Null when the function copies no callable for OpenMP.
  std::unique_ptr<OpenMPObjects> OpenMP;
  /// The function has no try statement: a throw leaves it, and the exit's
  /// state (what every return leaves) does not include that path.
  bool ThrowsLeave;
  PathLattice Seed;
};

/// What a path says of one callable's state: NonEmpty on every path (or no
/// path reaches here), AlwaysEmpty on every path, MayBeEmpty when tracked
/// and empty on some path, Unknown when of unknown origin and not decided.
/// The diagnoser (at a call) and the callee summaries (at a return) ask the
/// same three questions, in the order that spends the solver least. S's
/// NonEmpty must be set.
Emptiness judgeState(const CallableState &S, const PathQuery &Q);

/// The error runPolicyCallModel returns when it does not analyse a function
/// to the end: a budget ran out, or the function contains a construct the
/// engine does not analyse. Its reason says which, so that the skip can.
class AnalysisSkipped : public llvm::ErrorInfo<AnalysisSkipped> {
public:
  static char ID;
  explicit AnalysisSkipped(SkipReason Why) : Why(std::move(Why)) {}
  const SkipReason &reason() const { return Why; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  SkipReason Why;
};

/// Runs the model over FD within the given budgets and calls Visit on every
/// CFG element of the converged analysis, with the questions the state before
/// it answers, and AtExit (when given) with those of the state at FD's exit
/// (not called when no path returns). Returns AnalysisSkipped when a budget
/// runs out or FD contains a construct the engine does not analyse (checked
/// before the framework sees FD), and another error when FD cannot be analysed.
llvm::Error runPolicyCallModel(
    const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
    const CallableTypes &Types, CallResultOracle &Oracle,
    std::int64_t MaxSolverIterations, std::int32_t MaxBlockVisits,
    llvm::function_ref<void(const clang::CFGElement &, const PathQuery &)>
        Visit,
    llvm::function_ref<void(const PathQuery &)> AtExit = nullptr);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_POLICYCALLMODEL_H
