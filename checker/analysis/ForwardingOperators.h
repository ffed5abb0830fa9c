//===- ForwardingOperators.h - Calls their callers guard --------*- C++ -*-===//
//
// A hand-written callable class (ns-3's `Callback`, a delegate, a
// `function_ref`) has a call operator whose whole body calls through the
// object's own implementation: `return (*DoPeekImpl())(args...);`. Where the
// class also gives its users a test of that implementation (`bool IsNull()
// const { return DoPeekImpl() == nullptr; }`, `explicit operator bool`),
// calling an empty one is a mistake of the caller, as for std::function:
// the calls of the object are where a test belongs, not the operator. The
// operator's own test-less call is no finding in the default mode (the
// class's test would otherwise be read as belief against it).
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_FORWARDINGOPERATORS_H
#define WRAPGUARD_ANALYSIS_FORWARDINGOPERATORS_H

#include "CallableTypes.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace wrapguard {

/// Whether Call, through Callable, is the one statement of FD, the call
/// operator (or a named invoke method) of a class, through that object's
/// own member or what one of its const methods returns, and the class has a
/// public const method that returns whether that same implementation is set
/// (or empty).
bool forwardsToTestedImplementation(const clang::CallExpr &Call,
                                    const clang::Expr &Callable,
                                    const clang::FunctionDecl &FD,
                                    const CallableTypes &Types);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_FORWARDINGOPERATORS_H
