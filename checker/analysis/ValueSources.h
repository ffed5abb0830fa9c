//===- ValueSources.h - Where a callable's value comes from -----*- C++ -*-===//
//
// Reads off a function's syntax which sources (SourceKeys.h) an expression's
// value may come from, and what a value is where it is passed or stored:
// what a candidate's keys are, and what the facts record of arguments and
// assignments.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_VALUESOURCES_H
#define WRAPGUARD_ANALYSIS_VALUESOURCES_H

#include "BodyIndex.h"
#include "CallableTypes.h"
#include "PassedValues.h"
#include "ProjectFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include <string>
#include <vector>

namespace wrapguard {

/// A source an expression's value may come from.
struct SourceUse {
  std::string Key;
  SourceKind Kind;
  std::string Name;
};

struct SourceSet {
  std::vector<SourceUse> Sources;
  /// Some assignment or initialisation makes the value empty locally.
  bool EmptyLocally = false;
  /// False when some origin is neither a keyed source nor a value of known
  /// state (e.g. a call through another callable): the set cannot decide.
  bool Complete = true;
};

/// The sources E's value may come from, read off the syntax of Owner's body:
/// a call, a field, a parameter, or a local whose initialisations and
/// assignments are followed (a few levels deep) through Index, Owner's.
SourceSet sourcesOf(const clang::Expr &E, const clang::FunctionDecl &Owner,
                    clang::ASTContext &Ctx, const CallableTypes &Types,
                    const BodyIndex &Index);

/// What an argument reads, past the copy or move that passes it by value
/// (`run(f)`, `run(std::move(f))`: `f`).
const clang::Expr *passedRead(const clang::Expr &Arg);

/// Whether Use, a reference to a field or variable, is only read where it
/// stands: converted to an rvalue, copied, compared, or the object of a
/// const method (a call through it, its `operator bool`).
bool onlyRead(const clang::Expr &Use, clang::ParentMap &Parents);

/// Whether Body (Parents is its map) has a use of V that may write it: one
/// not only read (onlyRead), other than a lambda's capture of it. Uses in a
/// lambda's body count.
bool writtenIn(const clang::Stmt &Body, const clang::VarDecl &V,
               clang::ParentMap &Parents);

/// Whether another of a call's arguments Args moves from the variable that
/// Arg (one of them) reads, while the arguments are evaluated: `run(cb,
/// [cb = std::move(cb)] {..})`, or `run(f, std::move(f))` where the second
/// parameter is by value. C++ leaves the order in which arguments are
/// evaluated unspecified, so Arg may copy the moved-from value, which is
/// empty; one bound to a reference parameter reads it after the move. A
/// move into a parameter by reference moves nothing yet, and a lambda's body
/// runs later.
bool movedBySiblingArgument(const clang::Expr &Arg,
                            llvm::ArrayRef<const clang::Expr *> Args);

/// The state of E's value where Owner passes or stores it (Owner is null
/// for the initializer of a global): set, empty on some path, from other
/// sources (sourcesOf), or unknown. With Flow, a variable Owner assigns is
/// set where the flow analysis proves it set (PassedValues.h).
ValueState valueStateOf(const clang::Expr &E, const clang::FunctionDecl *Owner,
                        clang::ASTContext &Ctx, const CallableTypes &Types,
                        BodyIndexes &Indexes, PassedValues *Flow = nullptr);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_VALUESOURCES_H
