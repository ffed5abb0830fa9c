//===- CallResultOracle.h - What a call returning a callable yields C++ -*-===//
//
// The transfer function asks this, at every call whose result is a nullable
// callable, what the result may be. PolicySummaries answers from the callee's
// definition, annotations or name; tests may answer otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CALLRESULTORACLE_H
#define WRAPGUARD_ENGINE_CALLRESULTORACLE_H

#include "Emptiness.h"

namespace clang {
class CallExpr;
class CFGElement;
} // namespace clang

namespace wrapguard {

class CallResultOracle {
public:
  virtual ~CallResultOracle() = default;
  virtual Emptiness classifyCallResult(const clang::CallExpr &Call) = 0;
  /// Whether Elt calls a function that never returns (a call, a
  /// construction, a destructor at a scope's end): the path ends there.
  virtual bool endsPath(const clang::CFGElement &Elt) { return false; }
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CALLRESULTORACLE_H
