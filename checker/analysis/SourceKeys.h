//===- SourceKeys.h - Keys of the sources of callables ---------*- C++ -*-===//
//
// Names the *sources* of nullable callables (functions, fields, parameters,
// classes) with keys that are the same in every translation unit (built on
// USRs), and the places of facts. The dataflow model decides whether a value
// may be empty on a path; these keys say whose emptiness the project's facts
// must judge. Which sources a value comes from is ValueSources.h's.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_SOURCEKEYS_H
#define WRAPGUARD_ANALYSIS_SOURCEKEYS_H

#include "ProjectFacts.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceLocation.h"
#include <optional>
#include <string>

namespace wrapguard {

/// "f:<USR>" for a function or method (all redeclarations share it).
std::optional<std::string> functionKey(const clang::FunctionDecl &FD);
/// "m:<USR>" for a field; none for a member of a union, whose active member
/// a tag the facts do not see decides.
std::optional<std::string> fieldKey(const clang::FieldDecl &FD);
/// "g:<USR>" for a variable of static storage that code anywhere may assign:
/// one at namespace scope, or a static data member. None for a static local,
/// which only its function reaches (its flow analysis, and the reference
/// getters that hand it out, decide it).
std::optional<std::string> globalKey(const clang::VarDecl &V);
/// "p:<USR of the function>#<index>" for a parameter.
std::optional<std::string> parameterKey(const clang::ParmVarDecl &P);
/// "p:<USR of the method>#this" for the object a method is called on (a
/// non-virtual, non-static method, not a constructor or destructor), whose
/// calls the facts count like a parameter's: none otherwise.
std::optional<std::string> objectParameterKey(const clang::CXXMethodDecl &M);
/// "c:<USR>" for a class, whose constructions the facts record.
std::optional<std::string> classKey(const clang::CXXRecordDecl &RD);

/// The function a reader knows code by: lambdas report as their enclosing
/// function.
const clang::FunctionDecl *namedFunction(const clang::FunctionDecl &FD);

/// A fact's location: the expansion location's file (absolute), line,
/// column and offset, and the enclosing function's qualified name.
FactLoc factLoc(clang::SourceLocation Loc, const clang::SourceManager &SM,
                const clang::FunctionDecl *Owner);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_SOURCEKEYS_H
