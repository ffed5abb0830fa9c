//===- SingleReturn.cpp - Bodies that are one return ----------------------===//

#include "SingleReturn.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace wrapguard {

const Expr *onlyReturned(const FunctionDecl &F) {
  const FunctionDecl *Def = nullptr;
  if (!F.hasBody(Def) || !Def)
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  return Ret ? Ret->getRetValue() : nullptr;
}

} // namespace wrapguard
