//===- FlagValues.h - Values of a function's boolean parameters -*- C++ -*-===//
//
// `static void blit(.., bool reduce, Fn f = nullptr) { if (reduce) run(f); }`,
// called as `blit(.., false)` wherever f is left empty: the empty f never
// reaches `run`. Evidence that a parameter is passed empty holds only for
// the paths that call can take. Two sides meet here: what a call passes to
// a function's boolean parameters as literals ("1=0"), and what every path
// to a use of a parameter requires of them ("1=1"). A call whose literals
// contradict the requirement cannot reach the use.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_VOCAB_FLAGVALUES_H
#define WRAPGUARD_VOCAB_FLAGVALUES_H

#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>

namespace wrapguard {

struct FlagValues {
  /// Parameter index to value; a parameter not named is not known.
  std::map<unsigned, bool> Values;

  bool empty() const { return Values.empty(); }
  /// "I=V" per parameter, by index, joined by ',' ("1=1,3=0"); "" when
  /// nothing is known. Also the form in the facts file.
  std::string text() const;
  static std::optional<FlagValues> parse(llvm::StringRef Text);

  /// No parameter has different values in the two.
  bool compatible(const FlagValues &Other) const;
  /// The values both hold: what two uses require, taken together, is what
  /// each of them requires.
  FlagValues common(const FlagValues &Other) const;
  bool operator==(const FlagValues &Other) const {
    return Values == Other.Values;
  }
};

} // namespace wrapguard

#endif // WRAPGUARD_VOCAB_FLAGVALUES_H
