//===- EmptyObjectCalls.h - Can calling an empty object fail? ---*- C++ -*-===//
//
// A class with operator() and a test of emptiness is taken for a nullable
// callable: calling an empty std::function throws, and a packed-function
// handle or a homegrown function wrapper calls through a null pointer. But
// not every such class fails when called empty. A list of callbacks
// (eventpp's CallbackList) is "empty" when it holds none, and calling it
// then calls none; oneDNN's implementation-list item tests its slot inside
// its own operator(). Whether calling an empty object can fail is read from
// the definition of operator(), never from the class's name.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_EMPTYOBJECTCALLS_H
#define WRAPGUARD_ENGINE_EMPTYOBJECTCALLS_H

#include "clang/AST/DeclCXX.h"

namespace wrapguard {

/// True when calling an empty object of RD cannot fail, by the definitions
/// here: RD's emptiness test reads fields (its witnesses, HandleWitnesses.h);
/// every operator() of RD has a definition; and in each, and in the
/// object's own methods it calls a few levels deep, a witness (or a local
/// copied from one) is used only in a function that tests it too, and
/// nothing throws or calls a function that never returns; another
/// pointer-like field is only dereferenced or called where tested. A
/// virtual method called on the object runs RD's overrider (exact where RD
/// is final or the object is held by value). Anything not seen (a
/// declaration without a body, a pure virtual method, `*this` handed to
/// another function, the depth bound) answers false, which keeps the class
/// a nullable callable.
bool callingEmptyIsHarmless(const clang::CXXRecordDecl &RD);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_EMPTYOBJECTCALLS_H
