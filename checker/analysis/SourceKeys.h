//===- SourceKeys.h - Where a callable's value comes from -*- C++ -*-===//
//
// Names the *sources* of nullable callables (functions, fields, parameters)
// with keys that are the same in every translation unit (built on USRs), and
// reads off a function's syntax which sources an expression's value may come
// from. The dataflow model decides whether a value may be empty on a path;
// these keys say whose emptiness the project's facts must judge.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_SOURCEKEYS_H
#define WRAPGUARD_ANALYSIS_SOURCEKEYS_H

#include "ASTHelpers.h"
#include "BodyIndex.h"
#include "CallableTypes.h"
#include "ProjectFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

/// "f:<USR>" for a function or method (all redeclarations share it).
std::optional<std::string> functionKey(const clang::FunctionDecl &FD);
/// "m:<USR>" for a field.
std::optional<std::string> fieldKey(const clang::FieldDecl &FD);
/// "p:<USR of the function>#<index>" for a parameter.
std::optional<std::string> parameterKey(const clang::ParmVarDecl &P);
/// "c:<USR>" for a class, whose constructions the facts record.
std::optional<std::string> classKey(const clang::CXXRecordDecl &RD);

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

/// The state of E's value where Owner passes or stores it (Owner is null
/// for the initializer of a global): set, empty on some path, from other
/// sources (sourcesOf), or unknown.
ValueState valueStateOf(const clang::Expr &E, const clang::FunctionDecl *Owner,
                        clang::ASTContext &Ctx, const CallableTypes &Types,
                        BodyIndexes &Indexes);

/// If E tests a nullable callable for emptiness (`if (f)`, `f != nullptr`,
/// `o.has_value()`, `static_cast<bool>(p)`), the tested expression.
const clang::Expr *testedCallable(const clang::Expr &E,
                                  const CallableTypes &Types,
                                  clang::ASTContext &Ctx);

/// The function a reader knows code by: lambdas report as their enclosing
/// function.
const clang::FunctionDecl *namedFunction(const clang::FunctionDecl &FD);

/// A fact's location: the expansion location's file (absolute), line,
/// column and offset, and the enclosing function's qualified name.
FactLoc factLoc(clang::SourceLocation Loc, const clang::SourceManager &SM,
                const clang::FunctionDecl *Owner);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_SOURCEKEYS_H
