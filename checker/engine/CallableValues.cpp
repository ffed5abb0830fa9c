//===- CallableValues.cpp - Where a callable's state is kept --------------===//

#include "CallableValues.h"
#include "CallableSyntax.h"
#include "StripNoise.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

static RecordStorageLocation *recordLocAt(const Environment &Env,
                                          const Expr &E) {
  return dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(E));
}

RecordStorageLocation *recordLocation(const Expr &E, const Environment &Env) {
  if (E.isPRValue()) {
    if (!E.getType()->isRecordType())
      return nullptr;
    return &Env.getResultObjectLocation(E);
  }
  if (auto *L = recordLocAt(Env, E))
    return L;
  // Implicit casts of a record glvalue (e.g. adding const) carry no location
  // of their own in the framework; the object is the same.
  const Expr *Inner = stripNoise(&E);
  if (Inner != &E && Inner->isGLValue())
    return recordLocAt(Env, *Inner);
  return nullptr;
}

PointerValue *pointerValue(const Expr &E, const Environment &Env) {
  if (E.isGLValue()) {
    if (StorageLocation *L = Env.getStorageLocation(E))
      return dyn_cast_or_null<PointerValue>(Env.getValue(*L));
    return nullptr;
  }
  return valueAs<PointerValue>(Env, E);
}

RecordStorageLocation *objectOf(const Expr &Object, const Environment &Env) {
  const Expr *B = Object.IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(B))
    return Env.getThisPointeeStorageLocation();
  if (B->getType()->isPointerType()) {
    PointerValue *PV = pointerValue(*B, Env);
    return PV ? dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()) : nullptr;
  }
  return B->isGLValue() ? recordLocation(*B, Env) : nullptr;
}

bool hasStateFields(const RecordStorageLocation &L) {
  for (const auto &Entry : L.synthetic_fields())
    if (Entry.getKey() == NonEmptyName)
      return true;
  return false;
}

CallableState stateOfRecord(const RecordStorageLocation &L,
                            const Environment &Env) {
  if (!hasStateFields(L))
    return {};
  return {valueAs<BoolValue>(Env, L.getSyntheticField(NonEmptyName)),
          valueAs<BoolValue>(Env, L.getSyntheticField(TrackedName))};
}

CallableState stateOfPointer(const PointerValue &PV) {
  return {dyn_cast_or_null<BoolValue>(PV.getProperty(NonEmptyName)),
          dyn_cast_or_null<BoolValue>(PV.getProperty(TrackedName))};
}

CallableState stateOf(const Expr &E, const Environment &Env,
                      const CallableTypes &Types) {
  CallableKind K = Types.classify(E.getType());
  if (K == CallableKind::None)
    return {};
  if (isRecordKind(K)) {
    if (RecordStorageLocation *L = recordLocation(E, Env))
      return stateOfRecord(*L, Env);
    return {};
  }
  if (PointerValue *PV = pointerValue(E, Env))
    return stateOfPointer(*PV);
  return {};
}

StorageLocation *modelledChild(const RecordStorageLocation &Obj,
                               const ValueDecl &F) {
  for (const auto &[D, L] : Obj.children())
    if (D == &F)
      return L;
  return nullptr;
}

CallableState stateAt(const StorageLocation &L, QualType T,
                      const Environment &Env, const CallableTypes &Types) {
  CallableKind K = Types.classify(T);
  if (K == CallableKind::None)
    return {};
  if (isRecordKind(K)) {
    if (const auto *R = dyn_cast<RecordStorageLocation>(&L))
      return stateOfRecord(*R, Env);
    return {};
  }
  if (auto *PV = valueAs<PointerValue>(Env, L))
    return stateOfPointer(*PV);
  return {};
}

CallableState stateOf(const VarDecl &V, const Environment &Env,
                      const CallableTypes &Types) {
  StorageLocation *L = Env.getStorageLocation(V);
  return L ? stateAt(*L, V.getType(), Env, Types) : CallableState{};
}

} // namespace wrapguard
