//===- DefaultCheckHost.cpp - The host under clang-tidy and clangd --------===//

#include "DefaultCheckHost.h"
#include "Wording.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <mutex>

namespace wrapguard {

std::string configFolderOf(llvm::StringRef File, llvm::StringRef Option) {
  // The sources come in the order clang-tidy merges them, each later one
  // overriding the earlier; a configuration file's source is its path.
  clang::tidy::FileOptionsProvider Provider(
      clang::tidy::ClangTidyGlobalOptions(), clang::tidy::ClangTidyOptions(),
      clang::tidy::ClangTidyOptions(), llvm::vfs::getRealFileSystem());
  std::string Folder;
  for (const auto &[Options, Source] : Provider.getRawOptions(File))
    if (Options.CheckOptions.count(Option))
      Folder = llvm::sys::path::parent_path(Source).str();
  return Folder;
}

/// The working directory the process started in: clang-tidy changes into
/// each compile command's directory before the check runs, so it is read
/// when the plugin is loaded.
static const std::string StartupDir = [] {
  llvm::SmallString<256> Dir;
  llvm::sys::fs::current_path(Dir);
  return std::string(Dir);
}();

/// Facts files, read once per process and shared by every check instance
/// (clang-tidy makes one per TU, clangd one per parse); a file is read again
/// when it changes.
static llvm::Expected<std::shared_ptr<const ProjectFacts>>
loadFactsFile(llvm::StringRef Path) {
  static std::mutex Lock;
  static llvm::StringMap<
      std::pair<llvm::sys::TimePoint<>, std::shared_ptr<const ProjectFacts>>>
      Loaded;
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status))
    return llvm::createStringError(EC, "cannot read facts file '" + Path +
                                           "': " + EC.message());
  std::lock_guard<std::mutex> Guard(Lock);
  auto &Entry = Loaded[Path];
  if (Entry.second && Entry.first == Status.getLastModificationTime())
    return Entry.second;
  auto Facts = ProjectFacts::readFile(Path);
  if (!Facts)
    return Facts.takeError();
  Entry = {Status.getLastModificationTime(),
           std::make_shared<const ProjectFacts>(std::move(*Facts))};
  return Entry.second;
}

const ProjectFacts *DefaultCheckHost::fileFacts() {
  if (FactsFile.empty())
    return nullptr;
  if (!Tried) {
    Tried = true;
    llvm::SmallString<256> Path(FactsFile);
    if (llvm::sys::path::is_relative(Path)) {
      // Relative to the .clang-tidy that names it; from --config or
      // --config-file, to where clang-tidy was started.
      std::string Dir = configFolderOf(
          MainFile(), "wrapguard-unchecked-policy-call.FactsFile");
      llvm::sys::fs::make_absolute(Dir.empty() ? StartupDir : Dir, Path);
    }
    auto Facts = loadFactsFile(Path);
    if (Facts)
      Loaded = std::move(*Facts);
    else
      Context.configurationDiag(FactsFileDiag)
          << "wrapguard-unchecked-policy-call"
          << llvm::toString(Facts.takeError());
  }
  return Loaded.get();
}

void DefaultCheckHost::endTranslationUnit(ProjectFacts &&TUFacts,
                                          llvm::ArrayRef<Finding> Candidates,
                                          const clang::SourceManager &SM,
                                          EmitFinding Emit) {
  // Only what the candidates refer to matters; a project's facts file may
  // hold a hundred thousand sources, so those few are looked up rather
  // than merged whole.
  std::vector<Candidate> Cs;
  for (const Finding &F : Candidates)
    Cs.push_back(*F.Deferred);
  ProjectFacts Relevant = relevantFacts({&TUFacts, fileFacts()}, Cs);
  for (const Finding &F : Candidates) {
    Resolution R = resolve(Relevant, *F.Deferred);
    if (R.Report)
      Emit(F, R.Notes);
  }
}

} // namespace wrapguard
