//===- Emptiness.h - Whether a callable may be empty ------------*- C++ -*-===//
//
// The one answer every layer gives about a nullable callable, whatever it is
// asked of: the state at a call or a return (the engine), what a function's
// definition returns (its summary), or what the project's facts say of a
// source (resolution).
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_VOCAB_EMPTINESS_H
#define WRAPGUARD_VOCAB_EMPTINESS_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace wrapguard {

enum class Emptiness {
  NonEmpty,    ///< Holds a target on every path (or no path gets here).
  MayBeEmpty,  ///< Empty on some path, and the evidence says so.
  AlwaysEmpty, ///< Empty on every path.
  Unknown,     ///< Nothing decides it; unknowns stay quiet.
};

inline bool mayBeEmpty(Emptiness E) {
  return E == Emptiness::MayBeEmpty || E == Emptiness::AlwaysEmpty;
}

/// Two definitions (a function's overrides, or the same function seen by
/// two TUs) taken together: one that may return empty makes the join one;
/// two that agree keep their answer; never-empty beside unknown is unknown.
Emptiness join(Emptiness A, Emptiness B);

/// The spellings of the facts format: "never-empty", "may-be-empty",
/// "always-empty", "unknown".
llvm::StringRef toString(Emptiness E);
std::optional<Emptiness> parseEmptiness(llvm::StringRef S);

} // namespace wrapguard

#endif // WRAPGUARD_VOCAB_EMPTINESS_H
