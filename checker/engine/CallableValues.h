//===- CallableValues.h - Where a callable's state is kept ------*- C++ -*-===//
//
// The model keeps two booleans per nullable callable value (see
// PolicyCallModel.h). A record (std::function, std::optional, a smart
// pointer) keeps them in two synthetic fields of its storage location; a
// pointer (function, member-function, raw) keeps them as properties of its
// PointerValue. These functions read and write them, so that the transfer
// function, the join and the diagnoser agree on where the state lives.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CALLABLEVALUES_H
#define WRAPGUARD_ENGINE_CALLABLEVALUES_H

#include "CallableTypes.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"

namespace wrapguard {

/// Names of the synthetic fields and pointer properties.
inline constexpr llvm::StringLiteral NonEmptyName = "wg.nonempty";
inline constexpr llvm::StringLiteral TrackedName = "wg.tracked";

/// The two booleans the model keeps for one nullable callable value: null
/// when the environment knows nothing of it.
struct CallableState {
  const clang::dataflow::BoolValue *NonEmpty = nullptr;
  const clang::dataflow::BoolValue *Tracked = nullptr;
};

/// The value at K when it is a T. Environment::get<T> casts without
/// checking, and an integer where a boolean was expected would be read as
/// garbage.
template <typename T, typename Key>
T *valueAs(const clang::dataflow::Environment &Env, const Key &K) {
  return llvm::dyn_cast_or_null<T>(Env.getValue(K));
}

/// The record location E denotes: its own for a glvalue, its result object
/// for a prvalue.
clang::dataflow::RecordStorageLocation *
recordLocation(const clang::Expr &E, const clang::dataflow::Environment &Env);

/// The pointer value E evaluates to (a glvalue is read).
clang::dataflow::PointerValue *
pointerValue(const clang::Expr &E, const clang::dataflow::Environment &Env);

/// The object an object expression denotes or points to: `*this` for
/// `this`, the pointee of a pointer (`p->f`, `sp->run()` through the smart
/// pointer's `operator->`), a record (`obj.f`); null when the environment
/// has none.
clang::dataflow::RecordStorageLocation *
objectOf(const clang::Expr &Object, const clang::dataflow::Environment &Env);

/// The location of field F in Obj, when the analysis models it (only the
/// fields a function uses, or whose class's methods it calls, are:
/// children() holds them, and getChild() requires F to be one); else null.
clang::dataflow::StorageLocation *
modelledChild(const clang::dataflow::RecordStorageLocation &Obj,
              const clang::ValueDecl &F);

/// Whether L has the model's synthetic fields (it is a nullable record).
bool hasStateFields(const clang::dataflow::RecordStorageLocation &L);

CallableState stateOfRecord(const clang::dataflow::RecordStorageLocation &L,
                            const clang::dataflow::Environment &Env);
CallableState stateOfPointer(const clang::dataflow::PointerValue &PV);

/// The state of the nullable callable that E denotes, or an empty state when
/// E is not one or the environment knows nothing of it.
CallableState stateOf(const clang::Expr &E,
                      const clang::dataflow::Environment &Env,
                      const CallableTypes &Types);

/// The state of the callable of type T stored at L (a variable, a field),
/// likewise.
CallableState stateAt(const clang::dataflow::StorageLocation &L,
                      clang::QualType T,
                      const clang::dataflow::Environment &Env,
                      const CallableTypes &Types);

/// The state of variable V, likewise.
CallableState stateOf(const clang::VarDecl &V,
                      const clang::dataflow::Environment &Env,
                      const CallableTypes &Types);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CALLABLEVALUES_H
