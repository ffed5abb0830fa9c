//===- CheckHost.h - What the check asks of whoever runs it -----*- C++ -*-===//
//
// The check runs under clang-tidy, clangd and the scanner (tools/wrapguard).
// What differs between them is here, and nowhere else: which facts decide a
// TU's candidates and when, where the findings and candidates go, and what
// the host wants to know of each function the check analyses. clang-tidy
// hands a check everything else through ClangTidyContext; it has no slot for
// this, so a host is installed for one ClangTidyContext (ScopedCheckHost),
// and a check created with a context that has none runs under the default
// host (DefaultCheckHost.h): clang-tidy's and clangd's.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TIDY_CHECKHOST_H
#define WRAPGUARD_TIDY_CHECKHOST_H

#include "Finding.h"
#include "PolicyCallAnalysis.h"
#include "ProjectFacts.h"
#include "SkipReason.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class FunctionDecl;
class SourceManager;
namespace tidy {
class ClangTidyContext;
} // namespace tidy
} // namespace clang

namespace wrapguard {

/// Reports a finding through clang-tidy's diagnostics (so NOLINT, the header
/// filter and deduplication apply), with Extra notes at its origin; false
/// when the check had already reported one at the same spelling.
using EmitFinding =
    llvm::function_ref<bool(const Finding &F, llvm::ArrayRef<Evidence> Extra)>;

class CheckHost {
public:
  virtual ~CheckHost();

  /// The check is about to analyse FD. A host that outlives a crash in the
  /// analysis reads here which function it was.
  virtual void beginFunction(const clang::FunctionDecl &FD) {}
  /// The check is done with FD (the status says how far it got).
  virtual void endFunction(const clang::FunctionDecl &FD,
                           AnalysisStatus Status) {}
  /// A function not analysed to the end, over a budget or for a construct,
  /// once per spelling: Where is its name in its definition, Where.Function
  /// its qualified name.
  virtual void skippedFunction(const FactLoc &Where, const SkipReason &Why) {}
  /// A finding the TU decided alone was reported.
  virtual void reported(const Finding &F, const clang::SourceManager &SM) {}

  /// Whether the host wants every TU's facts, even one without candidates
  /// (their collection costs a walk of the TU's user code).
  virtual bool wantsEveryTUsFacts() const { return false; }
  /// The end of a TU that has candidates, or of every TU when the host
  /// wants every TU's facts: its facts, and the findings that wait for the
  /// project's facts (Finding::Deferred set), in the order found. The host
  /// decides each now and reports those it keeps, or reports them all and
  /// decides them once every TU's facts are in.
  virtual void endTranslationUnit(ProjectFacts &&TUFacts,
                                  llvm::ArrayRef<Finding> Candidates,
                                  const clang::SourceManager &SM,
                                  EmitFinding Emit) = 0;
};

/// Installs Host for the checks created with Context while this object
/// lives. The one way a host other than the default reaches the check.
class ScopedCheckHost {
public:
  ScopedCheckHost(const clang::tidy::ClangTidyContext &Context,
                  CheckHost &Host);
  ~ScopedCheckHost();
  ScopedCheckHost(const ScopedCheckHost &) = delete;
  ScopedCheckHost &operator=(const ScopedCheckHost &) = delete;

private:
  const clang::tidy::ClangTidyContext &Context;
};

/// The host installed for Context; null when there is none.
CheckHost *installedCheckHost(const clang::tidy::ClangTidyContext &Context);

} // namespace wrapguard

#endif // WRAPGUARD_TIDY_CHECKHOST_H
