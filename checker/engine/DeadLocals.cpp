//===- DeadLocals.cpp - Dropping locals whose lifetime ended --------------===//

#include "DeadLocals.h"
#include "CallableValues.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {
namespace {

class Dropper {
public:
  Dropper(Environment &Env, PathLattice &L, const TestedAtoms &Atoms)
      : Env(Env), L(L), Atoms(Atoms) {}

  void drop(const StorageLocation &Loc) {
    if (const auto *R = dyn_cast<RecordStorageLocation>(&Loc))
      return dropRecord(*R);
    if (const auto *PV = dyn_cast_or_null<PointerValue>(Env.getValue(Loc)))
      forgetState(stateOfPointer(*PV));
    Env.clearValue(Loc);
  }

private:
  void dropRecord(const RecordStorageLocation &R) {
    forgetState(stateOfRecord(R, Env));
    for (const auto &Entry : R.synthetic_fields())
      Env.clearValue(*Entry.getValue());
    for (const auto &[Field, Child] : R.children())
      // A reference member names another object, which lives on.
      if (Child && !Field->getType()->isReferenceType())
        drop(*Child);
  }

  void forgetState(const CallableState &S) {
    forgetAtom(S.NonEmpty);
    forgetAtom(S.Tracked);
  }

  void forgetAtom(const BoolValue *B) {
    if (!B || B->formula().kind() != Formula::AtomRef)
      return;
    Atom A = B->formula().getAtom();
    if (!Atoms.isCopied(A))
      L.forget(A);
  }

  Environment &Env;
  PathLattice &L;
  const TestedAtoms &Atoms;
};

} // namespace

void dropDeadLocal(const VarDecl &V, Environment &Env, PathLattice &L,
                   const TestedAtoms &Atoms) {
  // A reference names an object that outlives it; a static local lives on.
  if (!V.hasLocalStorage() || V.getType()->isReferenceType())
    return;
  StorageLocation *Loc = Env.getStorageLocation(V);
  if (Loc)
    Env.removeDecl(V);
  else // The framework's own transfer removed the declaration already.
    Loc = &Env.getDataflowAnalysisContext().getStableStorageLocation(V);
  Dropper(Env, L, Atoms).drop(*Loc);
}

} // namespace wrapguard
