//===- PassedValues.cpp - A variable's state where it is passed on --------===//

#include "PassedValues.h"
#include "CallableValues.h"
#include "PolicyCallModel.h"

using namespace clang;

namespace wrapguard {

Emptiness PassedValues::at(const FunctionDecl &Owner, const DeclRefExpr &Read) {
  auto Known = Analysed.find(&Owner);
  if (Known == Analysed.end()) {
    // Every read of a nullable callable variable is a CFG element of its
    // own, visited once the analysis has converged, with the state before
    // it: the variable's value as the read sees it, before a
    // `std::move(f)` around the read empties it.
    llvm::DenseMap<const DeclRefExpr *, Emptiness> States;
    llvm::Error Err = runPolicyCallModel(
        Owner, Ctx, Types, Oracle, Opts.MaxSolverIterations,
        Opts.MaxBlockVisits, [&](const CFGElement &Elt, const PathQuery &Q) {
          auto S = Elt.getAs<CFGStmt>();
          const auto *DRE = S ? dyn_cast<DeclRefExpr>(S->getStmt()) : nullptr;
          const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
          if (!V || !Types.isNullable(V->getType()))
            return;
          CallableState St = stateOf(*V, Q.env(), Types);
          Emptiness E = St.NonEmpty ? judgeState(St, Q) : Emptiness::Unknown;
          if (E == Emptiness::NonEmpty || E == Emptiness::AlwaysEmpty)
            States[DRE] = E;
        });
    // Over budget or not analysable: nothing is proven, the syntax decides.
    if (Err) {
      llvm::consumeError(std::move(Err));
      States.clear();
    }
    Known = Analysed.try_emplace(&Owner, std::move(States)).first;
  }
  auto It = Known->second.find(&Read);
  return It == Known->second.end() ? Emptiness::Unknown : It->second;
}

} // namespace wrapguard
