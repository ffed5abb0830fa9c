//===- PolicyCallDiagnoser.h - Verdicts at calls through callables -*- C++ -*-//
//
// The diagnosis half of the analysis, in the style of Clang's
// UncheckedOptionalAccessDiagnoser: runPolicyCallModel hands it every CFG
// element of the converged analysis with the questions the state before the
// element answers (PathQuery), and it returns a verdict for each call through
// a nullable callable that may be empty there. Turning verdicts into findings
// (names, notes, fix-its, candidates) is PolicyCallAnalyzer's job.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_POLICYCALLDIAGNOSER_H
#define WRAPGUARD_ANALYSIS_POLICYCALLDIAGNOSER_H

#include "CallSite.h"
#include "CallableTypes.h"
#include "Emptiness.h"
#include "FlagValues.h"
#include "PathQuery.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace wrapguard {

/// If C calls through a nullable callable (`f(x)`, `(*p)(x)`,
/// `p->operator()(x)`, `(obj.*pm)(x)`, ...), the call site; else nullopt.
std::optional<CallSite> matchCallSite(const clang::CallExpr &C,
                                      const CallableTypes &Types);

/// A call through a callable that may be empty on some path to it.
struct PolicyCallVerdict {
  CallSite Site;
  /// AlwaysEmpty on every path that reaches the call; MayBeEmpty on some,
  /// with a tracked origin; Unknown when the origin is not known here, for
  /// the captures, the project's facts or StrictMode to decide.
  Emptiness State = Emptiness::Unknown;
  /// With Unknown: what every path to the call requires of the function's
  /// boolean parameters, for the facts (Candidate::Requires).
  FlagValues Requires;
};

/// Decides, per CFG element, whether a call through a nullable callable may
/// go through an empty one. One diagnoser serves one function's analysis: it
/// remembers the calls it has judged, so that each gets one verdict.
class PolicyCallDiagnoser {
public:
  /// Types must outlive it.
  explicit PolicyCallDiagnoser(const CallableTypes &Types) : Types(Types) {}

  /// The verdicts for Elt, given the state before it. Empty unless Elt is a
  /// call through a nullable callable that the path does not prove
  /// non-empty (no path reaching it counts as proven).
  llvm::SmallVector<PolicyCallVerdict, 1>
  operator()(const clang::CFGElement &Elt, const PathQuery &Q);

private:
  const CallableTypes &Types;
  /// Calls already judged.
  llvm::SmallPtrSet<const clang::CallExpr *, 16> Seen;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_POLICYCALLDIAGNOSER_H
