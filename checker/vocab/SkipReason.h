//===- SkipReason.h - Why a function was not analysed -----------*- C++ -*-===//
//
// A function the engine does not analyse to the end yields no finding, so
// "no finding" must never silently mean "not analysed". Every such skip
// carries its reason: a budget that ran out, or a construct the engine cannot
// analyse soundly. The check (ReportSkippedFunctions), the scanner (its
// notifications and summary line) and the unit tests report both kinds the
// same way, with the wording of Wording.h.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_VOCAB_SKIPREASON_H
#define WRAPGUARD_VOCAB_SKIPREASON_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace wrapguard {

struct SkipReason {
  enum Kind { Budget, Construct };
  Kind K = Budget;
  /// For a budget, the option that sets it: `MaxBlockVisits` or
  /// `MaxSolverIterations`. For a construct, the construct as the messages
  /// name it (one of Wording.h's `*Construct` phrases).
  std::string What;

  static SkipReason budget(llvm::StringRef Option) {
    return {Budget, Option.str()};
  }
  static SkipReason construct(llvm::StringRef Phrase) {
    return {Construct, Phrase.str()};
  }
  bool isBudget() const { return K == Budget; }
  bool operator==(const SkipReason &O) const {
    return K == O.K && What == O.What;
  }
};

} // namespace wrapguard

#endif // WRAPGUARD_VOCAB_SKIPREASON_H
