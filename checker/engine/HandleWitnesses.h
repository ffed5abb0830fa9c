//===- HandleWitnesses.h - The fields that say a handle is empty -*- C++
//-*-===//
//
// A callable class of a project or library says what "empty" means in its
// `operator bool` or its comparison with nullptr. The fields those read,
// through the object's own methods a little way (`operator bool` ->
// `empty()` -> `!head`), are the handle's *witnesses*: whether a
// construction leaves the handle empty (HandleConstructors.h) and whether
// calling an empty one can fail (EmptyObjectCalls.h) are both questions
// about them.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_HANDLEWITNESSES_H
#define WRAPGUARD_ENGINE_HANDLEWITNESSES_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace wrapguard {

/// An `operator==` or `operator!=` taking std::nullptr_t (a member or a
/// hidden friend).
bool comparesWithNullptr(const clang::FunctionDecl &FD);

/// Whether FD says if an object is empty: a conversion to bool, or a
/// comparison with nullptr.
bool testsEmptiness(const clang::FunctionDecl &FD);

/// The operands E compares or converts as a test of emptiness: both sides of
/// `==` or `!=` (built in or overloaded), the operand of a pointer's or a
/// member pointer's conversion to bool. A class's own `bool` conversion is
/// the caller's to recognise.
llvm::SmallVector<const clang::Expr *, 2>
emptinessTestOperands(const clang::Expr &E);

/// The fields of RD or its bases that its emptiness tests read; empty when
/// no such test has a definition here. With ReadPatterns, a test of a class
/// template's specialization that was never instantiated is read in its
/// pattern (`operator bool` is seldom called where the object is).
llvm::SmallVector<const clang::FieldDecl *, 2>
emptinessWitnesses(const clang::CXXRecordDecl &RD, bool ReadPatterns);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_HANDLEWITNESSES_H
