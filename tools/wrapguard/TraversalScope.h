//===- TraversalScope.h - What each TU's checks walk -----------*- C++ -*-===//
//
// A TU that includes <torch/torch.h> holds hundreds of thousands of
// declarations, nearly all from system headers, which the check neither
// analyses nor reports. Before the checks run, the scan sets the AST's
// traversal scope (ASTContext::setTraversalScope, as clangd does), which
// the MatchFinder, the facts collector and the function locator walk
// instead of the whole TU:
//
//  - every top-level declaration of the main file;
//  - the declarations of the project's own headers (not system headers) that
//    this TU claims: each *unit* -- a top-level declaration of a header,
//    looked into through namespaces and `extern "C"` blocks -- is claimed by
//    the first TU of the scan that meets it, in a set shared by the workers,
//    so a header's functions are analysed and contribute facts once per scan,
//    not once per including TU. A unit is a definition, or the first
//    declaration of a template defined later (`template <class T> class
//    Net;`): clang's visitors reach a template's instantiations through its
//    first declaration only, so that declaration holds their code.
//
// A unit's claim key is its USR plus a signature of what its analysis can
// see in this TU beyond its own text: the compile flags (macros), the
// template instantiations inside it (a TU instantiates a header template
// with its own types), and the definitions visible here of the functions it
// uses and of its members defined elsewhere (a header's constructor defined
// in one .cpp, a policy defined in another). TUs that see a unit alike share
// one key and one analysis; a TU that sees more analyses it again, and the
// report keeps one copy of a finding, as it always did for headers.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TOOLS_TRAVERSALSCOPE_H
#define WRAPGUARD_TOOLS_TRAVERSALSCOPE_H

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include <mutex>
#include <string>
#include <vector>

namespace wrapguard {

/// The units claimed so far in a scan, shared by the workers.
class ClaimSet {
public:
  /// True when \p Key was not claimed yet; it is then claimed.
  bool claim(llvm::StringRef Key);
  /// Gives claims back (a TU that crashed before its checks ran), so that a
  /// TU scanned later can take them.
  void release(llvm::ArrayRef<std::string> Keys);

private:
  std::mutex Lock;
  llvm::StringSet<> Claimed;
};

/// What one TU met and claimed (kept for the result cache).
struct ScopeRecord {
  /// Claim keys of every unit in the TU's project headers.
  std::vector<std::string> Contained;
  /// Those this TU claimed, and so analysed.
  std::vector<std::string> Owned;
};

/// The first consumer of a TU: sets the traversal scope before the checks
/// run. With \p Restrict false (--no-traversal-scope, for testing), the scope
/// is the whole TU except the units other TUs claimed.
class ScopeConsumer : public clang::ASTConsumer {
public:
  ScopeConsumer(ClaimSet &Claims, std::string FlagsKey, bool Restrict,
                ScopeRecord &Record)
      : Claims(Claims), FlagsKey(std::move(FlagsKey)), Restrict(Restrict),
        Record(Record) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  ClaimSet &Claims;
  std::string FlagsKey;
  bool Restrict;
  ScopeRecord &Record;
};

} // namespace wrapguard

#endif // WRAPGUARD_TOOLS_TRAVERSALSCOPE_H
