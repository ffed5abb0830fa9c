//===- Emptiness.cpp - Whether a callable may be empty --------------------===//

#include "Emptiness.h"

namespace wrapguard {

Emptiness join(Emptiness A, Emptiness B) {
  if (A == B)
    return A;
  if (mayBeEmpty(A) || mayBeEmpty(B))
    return Emptiness::MayBeEmpty;
  return Emptiness::Unknown;
}

llvm::StringRef toString(Emptiness E) {
  switch (E) {
  case Emptiness::NonEmpty:
    return "never-empty";
  case Emptiness::MayBeEmpty:
    return "may-be-empty";
  case Emptiness::AlwaysEmpty:
    return "always-empty";
  case Emptiness::Unknown:
    return "unknown";
  }
  return "unknown";
}

std::optional<Emptiness> parseEmptiness(llvm::StringRef S) {
  for (Emptiness E : {Emptiness::NonEmpty, Emptiness::MayBeEmpty,
                      Emptiness::AlwaysEmpty, Emptiness::Unknown})
    if (toString(E) == S)
      return E;
  return std::nullopt;
}

} // namespace wrapguard
