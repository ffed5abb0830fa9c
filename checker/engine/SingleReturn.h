//===- SingleReturn.h - Bodies that are one return --------------*- C++ -*-===//
//
// Small functions say what they compute in one statement: `operator bool() {
// return eval(); }`, a comparison helper's `return v1 == v2 ? NULL : msg;`,
// a forwarder's `return t;`. A leaf: it includes nothing of ours, so the
// callable types and the syntax helpers above them can both use it.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_SINGLERETURN_H
#define WRAPGUARD_ENGINE_SINGLERETURN_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace wrapguard {

/// The expression F's visible body returns when that body is one `return
/// e;`; null otherwise (no body here, other statements, `return;`).
const clang::Expr *onlyReturned(const clang::FunctionDecl &F);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_SINGLERETURN_H
