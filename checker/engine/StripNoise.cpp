//===- StripNoise.cpp - What never changes the object denoted -------------===//

#include "StripNoise.h"

using namespace clang;

namespace wrapguard {

const Expr *stripNoise(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts()->IgnoreImplicit();
    if (const auto *FE = dyn_cast<FullExpr>(Next))
      Next = FE->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const Expr *stripCasts(const Expr *E) {
  E = stripNoise(E);
  while (const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(E))
    E = stripNoise(Cast->getSubExpr());
  return E;
}

} // namespace wrapguard
