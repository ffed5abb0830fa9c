//===- DefaultCheckHost.h - The host under clang-tidy, clangd -*- C++ -*-===//
//
// Under clang-tidy and clangd each TU is on its own: the check decides its
// candidates at the end of the TU, against the TU's facts merged with the
// facts file the FactsFile option names (written by `wrapguard index`).
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TIDY_DEFAULTCHECKHOST_H
#define WRAPGUARD_TIDY_DEFAULTCHECKHOST_H

#include "CheckHost.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <memory>
#include <string>

namespace wrapguard {

class DefaultCheckHost : public CheckHost {
public:
  /// FactsFile: the option's value, "" when unset. Context: where a facts
  /// file that cannot be used is reported, as a configuration problem.
  /// MainFile: the TU's main file, whose configuration a relative FactsFile
  /// is relative to; asked when the facts are first needed, as the check
  /// knows it only once the TU runs.
  DefaultCheckHost(std::string FactsFile,
                   clang::tidy::ClangTidyContext &Context,
                   std::function<std::string()> MainFile)
      : FactsFile(std::move(FactsFile)), Context(Context),
        MainFile(std::move(MainFile)) {}

  void endTranslationUnit(ProjectFacts &&TUFacts,
                          llvm::ArrayRef<Finding> Candidates,
                          const clang::SourceManager &SM,
                          EmitFinding Emit) override;

private:
  /// The facts of FactsFile, read once; null when the option is unset or the
  /// file cannot be read (reported once as a configuration error).
  const ProjectFacts *fileFacts();

  std::string FactsFile;
  clang::tidy::ClangTidyContext &Context;
  std::function<std::string()> MainFile;
  std::shared_ptr<const ProjectFacts> Loaded;
  bool Tried = false;
};

/// The folder of the configuration file that sets Option (a check option's
/// full name) for File, found as clang-tidy's -explain-config finds where an
/// option came from: of the configurations clang-tidy reads for File, the
/// last that sets it. "" when no configuration file does (the option came
/// from --config, --config-file or elsewhere).
std::string configFolderOf(llvm::StringRef File, llvm::StringRef Option);

} // namespace wrapguard

#endif // WRAPGUARD_TIDY_DEFAULTCHECKHOST_H
