//===- AnalysisOptions.cpp - What the analysis is asked to do -------------===//

#include "AnalysisOptions.h"

namespace wrapguard {

bool parseFixMode(llvm::StringRef Text, FixMode &Out) {
  for (FixMode M : {FixMode::Guard, FixMode::None, FixMode::Shim})
    if (Text == fixModeName(M)) {
      Out = M;
      return true;
    }
  return false;
}

llvm::StringRef fixModeName(FixMode Mode) {
  switch (Mode) {
  case FixMode::Guard:
    return "guard";
  case FixMode::None:
    return "none";
  case FixMode::Shim:
    return "shim";
  }
  return "guard";
}

} // namespace wrapguard
