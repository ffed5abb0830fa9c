//===- AccessorTests.h - Methods that test a field --------------*- C++ -*-===//
//
// Classes say whether a callable member is set through accessors
// (`hasCallback()`, `isOnMessageCallbackRegistered()`, `valid()`): a `bool`
// method whose body returns a test of the field, after declaring locals that
// cannot reach it (a lock). A call of one is that test of the object it is
// called on, so `if (pool->userPool()) pool->rawAlloc(n);` is guarded.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_ACCESSORTESTS_H
#define WRAPGUARD_ENGINE_ACCESSORTESTS_H

#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include <optional>

namespace wrapguard {

/// The test M's visible body makes: its one return (after declarations of
/// locals whose initialisers name no callable field, no method and not
/// `this`) is a test of a callable field of `*this` (`return cb_;`, `!fn_`,
/// `fn_ == nullptr`), a conjunction of such tests that the fields are set
/// (`return a_ && b_;`), or a disjunction of tests that they are empty
/// (`return !a_ || b_ == nullptr;`, Negated); one that also tests other
/// state, without reaching the callable fields there (`return id_ != 0 &&
/// cb_;`), is Partial. None for a virtual method (an override may say
/// something else), a static one, or one without a body here. Else, a
/// predicate of early exits (`if (!cb_) return false; if (!ready_) return
/// false; return true;`) whose `true` implies the fields are set: Partial.
/// Nothing after the exits may reach the callable fields (a method call,
/// `this`), so none can empty them before the `return`.
std::optional<AccessorTest> accessorTestOf(const clang::CXXMethodDecl &M,
                                           const CallableTypes &Types,
                                           clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_ACCESSORTESTS_H
