//===- Finding.h - What the analysis reports ---------------------*- C++
//-*-===//
//
// One finding of the analysis: where, what, the notes that explain it, the
// edits that repair it, and, when the TU alone cannot decide it, the
// candidate the project's facts decide.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_FINDING_H
#define WRAPGUARD_ANALYSIS_FINDING_H

#include "ProjectFacts.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

struct FindingNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct Finding {
  /// Where the callable is named in the call (e.g. `f` in `f(m)`, `p` in
  /// `(*p)(m)`).
  clang::SourceLocation Loc;
  bool AlwaysEmpty = false;
  std::string Message;
  std::vector<FindingNote> Notes;
  /// Edits that repair the call; empty when no safe automatic edit exists
  /// (then Notes holds a note saying which check to add).
  std::vector<clang::FixItHint> Fixes;
  /// True when Fixes use the shim's helpers and need
  /// AnalysisOptions::ShimHeader.
  bool NeedsShimInclude = false;
  /// Set when the finding waits for the project's facts (see
  /// ProjectFacts.h): reported only if `resolve` says so, with its notes
  /// added at OriginLoc.
  std::optional<Candidate> Deferred;
  clang::SourceLocation OriginLoc;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_FINDING_H
