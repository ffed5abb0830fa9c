//===- StripNoise.h - What never changes the object denoted -----*- C++ -*-===//
//
// Nearly every question about an expression first looks through the nodes
// that do not change which object it denotes. A leaf: it includes nothing
// of ours, so every file of the engine and above can use it without a cycle.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_STRIPNOISE_H
#define WRAPGUARD_ENGINE_STRIPNOISE_H

#include "clang/AST/Expr.h"

namespace wrapguard {

/// Strips what never changes which object an expression denotes: parens,
/// implicit casts, temporaries and full-expression cleanups.
const clang::Expr *stripNoise(const clang::Expr *E);

/// stripNoise, and explicit casts too: the value a cast converts, such as a
/// loader's result in `(init_fn)dlsym(h, "init")`.
const clang::Expr *stripCasts(const clang::Expr *E);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_STRIPNOISE_H
