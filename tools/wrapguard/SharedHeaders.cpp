//===- SharedHeaders.cpp - One parse of the heavy headers TUs reach -------===//

#include "SharedHeaders.h"
#include "JsonFile.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <chrono>

using namespace clang;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace wrapguard {

static std::string hashText(llvm::StringRef Text) {
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::arrayRefFromStringRef(Text)),
                         /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

std::string IncludePaths::key() const {
  std::string K;
  for (const std::string &D : Quoted)
    K += "q" + D + '\0';
  for (const auto &[D, System] : Angled)
    K += (System ? "s" : "a") + D + '\0';
  return K;
}

IncludePaths includePathsOf(const std::vector<std::string> &Args,
                            llvm::StringRef Directory) {
  IncludePaths P;
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS(
      llvm::vfs::createPhysicalFileSystem().release());
  FS->setCurrentWorkingDirectory(Directory);
  IgnoringDiagConsumer Ignore;
  CreateInvocationOptions Opts;
  Opts.VFS = FS;
  Opts.Diags =
      CompilerInstance::createDiagnostics(new DiagnosticOptions(), &Ignore,
                                          /*ShouldOwnClient=*/false);
  Opts.RecoverOnError = true;
  Opts.ProbePrecompiled = false;
  std::unique_ptr<CompilerInvocation> CI = createInvocation(Argv, Opts);
  if (!CI)
    return P;
  auto Absolute = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> Out(Dir);
    if (!path::is_absolute(Out)) {
      Out = Directory;
      path::append(Out, Dir);
    }
    path::remove_dots(Out, /*remove_dot_dot=*/true);
    return std::string(Out);
  };
  const HeaderSearchOptions &HS = CI->getHeaderSearchOpts();
  // The order clang searches them in (InitHeaderSearch).
  for (frontend::IncludeDirGroup G :
       {frontend::Quoted, frontend::Angled, frontend::System,
        frontend::CXXSystem, frontend::ExternCSystem, frontend::CSystem,
        frontend::After})
    for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
      if (E.Group != G || E.IsFramework)
        continue;
      if (G == frontend::Quoted)
        P.Quoted.push_back(Absolute(E.Path));
      else
        P.Angled.emplace_back(Absolute(E.Path), G != frontend::Angled);
    }
  return P;
}

/// The #include lines of \p Text, as written, each branch of each #if
/// taken: the scan needs to know what a TU may reach, not what it does.
static void readIncludes(llvm::StringRef Text,
                         std::vector<std::pair<std::string, bool>> &Out) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include_next") && !Line.consume_front("include") &&
        !Line.consume_front("import"))
      continue;
    Line = Line.ltrim(" \t");
    if (Line.empty() || (Line[0] != '<' && Line[0] != '"'))
      continue; // A macro names the header: not followed.
    char Close = Line[0] == '<' ? '>' : '"';
    size_t End = Line.find(Close, 1);
    if (End == llvm::StringRef::npos)
      continue;
    Out.emplace_back(Line.slice(1, End).str(), Close == '>');
  }
}

const std::vector<IncludeGraph::Include> &
IncludeGraph::includesOf(const std::string &File) {
  auto [It, New] = Includes.try_emplace(File);
  if (!New)
    return It->second;
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return It->second;
  Sizes[File] = (*Buffer)->getBufferSize();
  std::vector<std::pair<std::string, bool>> Found;
  readIncludes((*Buffer)->getBuffer(), Found);
  for (auto &[Name, Angled] : Found)
    It->second.push_back({std::move(Name), Angled});
  return It->second;
}

std::string IncludeGraph::resolve(const Include &I, llvm::StringRef From,
                                  const IncludePaths &Paths, bool &System,
                                  bool &Searched) {
  Searched = false;
  auto Try = [&](llvm::StringRef Dir) -> std::string {
    llvm::SmallString<256> Candidate(Dir);
    path::append(Candidate, I.Name);
    path::remove_dots(Candidate, /*remove_dot_dot=*/true);
    // The same candidates come back from many headers, and a stat is a
    // system call: each is asked once.
    auto [Known, New] = Exists.try_emplace(std::string(Candidate), false);
    if (New)
      Known->second = fs::is_regular_file(Candidate);
    return Known->second ? Known->first : std::string();
  };
  if (!I.Angled) {
    // Next to the file that includes it: a system header's neighbour is
    // one too, so the caller keeps System as it is.
    std::string Found = Try(path::parent_path(From));
    if (!Found.empty())
      return Found;
    Searched = true;
    for (const std::string &Dir : Paths.Quoted) {
      Found = Try(Dir);
      if (!Found.empty()) {
        System = false;
        return Found;
      }
    }
  }
  Searched = true;
  for (const auto &[Dir, IsSystem] : Paths.Angled) {
    std::string Found = Try(Dir);
    if (!Found.empty() && Found != From) {
      System = IsSystem;
      return Found;
    }
  }
  return "";
}

const IncludeGraph::Reach &IncludeGraph::reachOf(const std::string &Header,
                                                 const IncludePaths &Paths) {
  auto [It, New] = Reaches.try_emplace({Paths.key(), Header});
  if (!New)
    return It->second;
  Reach R;
  std::vector<std::string> Stack{Header};
  while (!Stack.empty()) {
    std::string File = std::move(Stack.back());
    Stack.pop_back();
    if (!R.Files.insert(File).second)
      continue;
    const std::vector<Include> &Incs = includesOf(File);
    R.Bytes += Sizes[File];
    for (const Include &I : Incs) {
      bool System = true, Searched = false;
      std::string Next = resolve(I, File, Paths, System, Searched);
      if (Searched)
        R.Searched.insert(I.Name);
      if (!Next.empty() && !R.Files.count(Next))
        Stack.push_back(std::move(Next));
    }
  }
  It->second = std::move(R);
  return It->second;
}

IncludePaths IncludeGraph::systemOnly(const IncludePaths &Paths) {
  IncludePaths System;
  for (const auto &Entry : Paths.Angled)
    if (Entry.second)
      System.Angled.push_back(Entry);
  return System;
}

const IncludeGraph::Reach &
IncludeGraph::systemReachOf(const std::string &Header,
                            const IncludePaths &Paths) {
  auto [It, New] = SystemReaches.try_emplace({Paths.key(), Header}, nullptr);
  if (!New)
    return *It->second;
  const Reach &R = reachOf(Header, systemOnly(Paths));
  // A project folder searched before the system ones could hold a header
  // of a name the system reach looked up: then read it through them all.
  std::vector<llvm::StringRef> Own(Paths.Quoted.begin(), Paths.Quoted.end());
  for (const auto &[Dir, IsSystem] : Paths.Angled)
    if (!IsSystem)
      Own.push_back(Dir);
  bool Shadowed = false;
  for (llvm::StringRef Dir : Own) {
    for (const std::string &Name : R.Searched) {
      // Most names share a first folder (c10/, ATen/, torch/): the rest of
      // the name is looked at only where that folder exists.
      llvm::StringRef First = llvm::StringRef(Name).split('/').first;
      auto [Known, New] = Exists.try_emplace((Dir + "/" + First).str(), false);
      if (New)
        Known->second = fs::exists(Known->first);
      if (!Known->second)
        continue;
      if (First.size() == Name.size() || fs::exists((Dir + "/" + Name).str())) {
        Shadowed = true;
        break;
      }
    }
    if (Shadowed)
      break;
  }
  It->second = Shadowed ? &reachOf(Header, Paths) : &R;
  return *It->second;
}

std::string IncludeGraph::reachDigest(const std::string &Header,
                                      const IncludePaths &Paths) {
  std::string All;
  for (const std::string &F : systemReachOf(Header, Paths).Files)
    All += F + '\n';
  return hashText(All);
}

std::vector<std::string> IncludeGraph::sharedRoots(llvm::StringRef MainFile,
                                                   const IncludePaths &Paths) {
  // The project's own files, followed; the system headers they include,
  // noted.
  std::set<std::string> Project, System;
  std::vector<std::string> Stack{MainFile.str()};
  while (!Stack.empty()) {
    std::string File = std::move(Stack.back());
    Stack.pop_back();
    if (!Project.insert(File).second)
      continue;
    for (const Include &I : includesOf(File)) {
      bool IsSystem = false, Searched = false;
      std::string Next = resolve(I, File, Paths, IsSystem, Searched);
      if (Next.empty())
        continue;
      if (IsSystem)
        System.insert(Next);
      else if (!Project.count(Next))
        Stack.push_back(std::move(Next));
    }
  }
  // How much each reaches, through the system folders alone: which one
  // is shared decides only which PCH the TU asks for; what that PCH holds
  // is read through all its folders (reachDigest).
  IncludePaths SystemPaths = systemOnly(Paths);
  std::vector<std::string> Heavy;
  for (const std::string &H : System)
    if (reachOf(H, SystemPaths).Bytes >= HeavyBytes)
      Heavy.push_back(H);
  // The one that reaches the most text: a second heavy header (<random>
  // beside <torch/torch.h>) would split the TUs into more groups than it
  // saves; it is parsed with the TU, as without sharing.
  std::string Root;
  uint64_t Most = 0;
  for (const std::string &H : Heavy)
    if (reachOf(H, SystemPaths).Bytes > Most) {
      Most = reachOf(H, SystemPaths).Bytes;
      Root = H;
    }
  if (Root.empty())
    return {};
  return {Root};
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

namespace {

/// Skips the bodies of functions in system headers: the check reads none
/// of them, and they are most of LibTorch.
class SkipSystemBodies : public ASTConsumer {
public:
  explicit SkipSystemBodies(const SourceManager &SM) : SM(SM) {}
  bool shouldSkipFunctionBody(Decl *D) override {
    return SM.isInSystemHeader(D->getLocation());
  }

private:
  const SourceManager &SM;
};

/// The files the PCH reads.
class InputsRead : public DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef Filename, bool, bool, bool IsModuleFile,
                     bool IsMissing) override {
    return !IsModuleFile && !IsMissing && !Filename.starts_with("<");
  }
};

/// clang's own PCH action, skipping system bodies, and reading what the
/// guard needs while the preprocessor is still there.
class BuildSharedPCH : public GeneratePCHAction {
public:
  BuildSharedPCH(SharedPCH &Out, std::string &Error) : Out(Out), Error(Error) {}

protected:
  std::unique_ptr<ASTConsumer>
  CreateASTConsumer(CompilerInstance &CI, llvm::StringRef File) override {
    std::unique_ptr<ASTConsumer> Writer =
        GeneratePCHAction::CreateASTConsumer(CI, File);
    if (!Writer)
      return nullptr;
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::move(Writer));
    Consumers.push_back(
        std::make_unique<SkipSystemBodies>(CI.getSourceManager()));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    Preprocessor &PP = CI.getPreprocessor();
    for (const auto &Entry : PP.getIdentifierTable())
      Out.Identifiers.insert(Entry.getKey());
    for (const std::string &Root : Out.Roots) {
      OptionalFileEntryRef FE = CI.getFileManager().getOptionalFileRef(Root);
      if (!FE) {
        Error = "cannot read <" + Root + ">";
        break;
      }
      // Without a guard the TU's own include of it would read it again.
      if (!PP.getHeaderSearchInfo().isFileMultipleIncludeGuarded(*FE)) {
        Error = "'" + Root + "' has no include guard";
        break;
      }
      Out.RootIDs.push_back(FE->getUniqueID());
    }
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  SharedPCH &Out;
  std::string &Error;
};

/// Each file the PCH read, with its size and modification time: what clang
/// checks before it trusts a PCH, here checked before clang is asked to.
struct InputStamp {
  std::string Path;
  uint64_t Size = 0;
  int64_t MTime = 0;
};

bool stampOf(const std::string &Path, InputStamp &S) {
  fs::file_status St;
  if (fs::status(Path, St))
    return false;
  S.Path = Path;
  S.Size = St.getSize();
  S.MTime = St.getLastModificationTime().time_since_epoch().count();
  return true;
}

} // namespace

/// The PCHs kept in --cache-dir: KEY.pch, KEY.ids (the identifiers, one a
/// line) and KEY.json (the roots, every input's stamp, the hashes of the
/// other two). The .json is written last, so a reader that finds it finds
/// the rest whole or sees a hash that does not match.
namespace pchcache {

std::string file(const std::string &Dir, const std::string &Key,
                 llvm::StringRef Ext) {
  llvm::SmallString<256> P(Dir);
  path::append(P, Key + Ext);
  return std::string(P);
}

/// The cached PCH \p Key, when every file it read is as it was and its
/// files are whole, and its roots are \p Roots (when given); \p Why says
/// why not. \p Use marks it used now (the eviction rule reads that time).
std::shared_ptr<SharedPCH> load(const std::string &Dir, const std::string &Key,
                                const std::vector<std::string> *Roots,
                                std::string &Why, bool Use) {
  auto Manifest = llvm::MemoryBuffer::getFile(file(Dir, Key, ".json"));
  if (!Manifest) {
    Why = "not in the cache";
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> Doc =
      llvm::json::parse((*Manifest)->getBuffer());
  if (!Doc) {
    llvm::consumeError(Doc.takeError());
    Why = "its cache entry is damaged";
    return nullptr;
  }
  const llvm::json::Object *O = Doc->getAsObject();
  const llvm::json::Array *Inputs = O ? O->getArray("inputs") : nullptr;
  const llvm::json::Array *RootList = O ? O->getArray("roots") : nullptr;
  std::optional<llvm::StringRef> PCHHash =
      O ? O->getString("pch") : std::nullopt;
  std::optional<llvm::StringRef> IdsHash =
      O ? O->getString("ids") : std::nullopt;
  if (!Inputs || !RootList || !PCHHash || !IdsHash) {
    Why = "its cache entry is damaged";
    return nullptr;
  }
  auto PCH = std::make_shared<SharedPCH>();
  for (const llvm::json::Value &R : *RootList)
    if (std::optional<llvm::StringRef> S = R.getAsString())
      PCH->Roots.push_back(S->str());
  if (Roots && PCH->Roots != *Roots) {
    Why = "its cache entry is damaged";
    return nullptr;
  }
  for (const llvm::json::Value &V : *Inputs) {
    const llvm::json::Array *A = V.getAsArray();
    if (!A || A->size() != 3 || !(*A)[0].getAsString() ||
        !(*A)[1].getAsInteger() || !(*A)[2].getAsInteger()) {
      Why = "its cache entry is damaged";
      return nullptr;
    }
    InputStamp Now;
    std::string Path = (*A)[0].getAsString()->str();
    if (!stampOf(Path, Now) || Now.Size != uint64_t(*(*A)[1].getAsInteger()) ||
        Now.MTime != *(*A)[2].getAsInteger()) {
      Why = "'" + Path + "' changed since it was built";
      return nullptr;
    }
    fs::UniqueID ID;
    if (!fs::getUniqueID(Path, ID))
      PCH->InputIDs.insert(ID);
    PCH->Inputs.push_back(std::move(Path));
  }
  for (const std::string &Root : PCH->Roots) {
    fs::UniqueID ID;
    if (fs::getUniqueID(Root, ID)) {
      Why = "cannot read '" + Root + "'";
      return nullptr;
    }
    PCH->RootIDs.push_back(ID);
  }
  PCH->Path = file(Dir, Key, ".pch");
  PCH->Header = file(Dir, Key, ".h");
  auto Bytes = llvm::MemoryBuffer::getFile(PCH->Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  auto Ids = llvm::MemoryBuffer::getFile(file(Dir, Key, ".ids"));
  if (!Bytes || !Ids || !fs::exists(file(Dir, Key, ".h")) ||
      hashText((*Bytes)->getBuffer()) != *PCHHash ||
      hashText((*Ids)->getBuffer()) != *IdsHash) {
    Why = "its cached PCH is damaged";
    return nullptr;
  }
  PCH->Bytes = (*Bytes)->getBufferSize();
  llvm::StringRef Text = (*Ids)->getBuffer();
  while (!Text.empty()) {
    auto [Id, Rest] = Text.split('\n');
    PCH->Identifiers.insert(Id);
    Text = Rest;
  }
  int FD;
  if (Use && !fs::openFileForRead(file(Dir, Key, ".json"), FD)) {
    fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return PCH;
}

/// Stores \p PCH (built into a temporary file) as \p Key; its Path moves
/// into the cache on success.
void store(const std::string &Dir, const std::string &Key, SharedPCH &PCH) {
  if (fs::create_directories(Dir))
    return;
  auto Bytes = llvm::MemoryBuffer::getFile(PCH.Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!Bytes)
    return;
  std::string Ids;
  for (const auto &Entry : PCH.Identifiers)
    Ids += Entry.getKey().str() + "\n";
  llvm::json::Array Inputs, Roots;
  for (const std::string &Path : PCH.Inputs) {
    InputStamp S;
    if (!stampOf(Path, S))
      return;
    Inputs.push_back(llvm::json::Array{S.Path, int64_t(S.Size), S.MTime});
  }
  for (const std::string &R : PCH.Roots)
    Roots.push_back(R);
  std::string PCHHash = hashText((*Bytes)->getBuffer());
  Bytes->reset();
  std::string Target = file(Dir, Key, ".pch");
  if (fs::rename(PCH.Path, Target)) {
    // Another file system: copy.
    if (fs::copy_file(PCH.Path, Target))
      return;
  } else {
    PCH.Path = Target;
  }
  std::string Manifest;
  llvm::raw_string_ostream(Manifest)
      << llvm::json::Value(llvm::json::Object{{"roots", std::move(Roots)},
                                              {"inputs", std::move(Inputs)},
                                              {"pch", PCHHash},
                                              {"ids", hashText(Ids)}});
  if (writeFileAtomically(file(Dir, Key, ".ids"), Ids))
    writeFileAtomically(file(Dir, Key, ".json"), Manifest);
}

void remove(const std::string &Dir, const std::string &Key) {
  for (llvm::StringRef Ext : {".json", ".pch", ".ids", ".h"})
    fs::remove(file(Dir, Key, Ext));
}

} // namespace pchcache

PCHPruneCounts pruneSharedHeaders(const std::string &Dir, unsigned Keep,
                                  bool CheckInputs) {
  PCHPruneCounts Counts;
  // Each kept PCH by its last use (its manifest's time), newest first.
  std::vector<std::pair<int64_t, std::string>> Used;
  std::set<std::string> Keys;
  std::vector<std::string> Others;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    fs::file_status St;
    if (fs::status(It->path(), St))
      continue;
    if (Name.ends_with(".json") && !Name.contains(".tmp-")) {
      std::string Key = Name.drop_back(5).str();
      Keys.insert(Key);
      Used.emplace_back(St.getLastModificationTime().time_since_epoch().count(),
                        Key);
    } else if (Now - St.getLastModificationTime() > std::chrono::hours(1)) {
      Others.push_back(It->path());
    }
  }
  llvm::sort(Used, [](const auto &A, const auto &B) { return A > B; });
  for (const auto &[Time, Key] : Used) {
    if (CheckInputs) {
      std::string Why;
      if (!pchcache::load(Dir, Key, nullptr, Why, /*Use=*/false)) {
        pchcache::remove(Dir, Key);
        ++(llvm::StringRef(Why).contains("changed") ? Counts.Stale
                                                    : Counts.Damaged);
        Keys.erase(Key);
        continue;
      }
    }
    if (Counts.Kept >= Keep) {
      pchcache::remove(Dir, Key);
      ++Counts.OverBound;
      Keys.erase(Key);
      continue;
    }
    ++Counts.Kept;
    uint64_t Size = 0;
    if (!fs::file_size(pchcache::file(Dir, Key, ".pch"), Size))
      Counts.KeptBytes += Size;
  }
  // Files of no kept entry: an interrupted build's, or an entry's whose
  // manifest is gone.
  for (const std::string &Other : Others) {
    llvm::StringRef Name = path::filename(Other);
    llvm::StringRef Key =
        Name.take_until([](char C) { return C == '.' || C == '-'; });
    if (!Keys.count(Key.str()))
      fs::remove(Other);
  }
  return Counts;
}

struct SharedHeaderStore::Group {
  std::mutex Lock;
  std::condition_variable Ready;
  enum { Unbuilt, Building, Built, Failed } State = Unbuilt;
  std::shared_ptr<const SharedPCH> PCH;
  std::vector<std::string> Roots;
  std::string Key;
  std::string Why;
  unsigned Remaining = 0;
};

SharedHeaderStore::SharedHeaderStore(
    std::vector<unsigned> Members, std::vector<std::string> Keys,
    std::vector<std::vector<std::string>> Roots, std::string TempDir,
    std::string CacheDir)
    : TempDir(std::move(TempDir)), CacheDir(std::move(CacheDir)) {
  for (size_t G = 0; G < Members.size(); ++G) {
    Groups.push_back(std::make_unique<Group>());
    Groups.back()->Remaining = Members[G];
    Groups.back()->Key = Keys[G];
    Groups.back()->Roots = std::move(Roots[G]);
  }
}

SharedHeaderStore::~SharedHeaderStore() = default;

std::shared_ptr<const SharedPCH>
SharedHeaderStore::get(unsigned G, const CompilerInvocation &Invocation,
                       IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                       std::string &Why, std::string &How) {
  Group &Grp = *Groups[G];
  How.clear();
  {
    std::unique_lock<std::mutex> Guard(Grp.Lock);
    Grp.Ready.wait(Guard, [&] { return Grp.State != Group::Building; });
    if (Grp.State != Group::Unbuilt) {
      Why = Grp.Why;
      return Grp.PCH;
    }
    Grp.State = Group::Building;
  }
  auto Finish = [&](std::shared_ptr<const SharedPCH> PCH, std::string Error) {
    std::lock_guard<std::mutex> Guard(Grp.Lock);
    Grp.PCH = std::move(PCH);
    Grp.State = Grp.PCH ? Group::Built : Group::Failed;
    Grp.Why = std::move(Error);
    Grp.Ready.notify_all();
    Why = Grp.Why;
    return Grp.PCH;
  };

  std::string CacheWhy;
  if (!CacheDir.empty())
    if (std::shared_ptr<SharedPCH> Cached =
            pchcache::load(CacheDir, Grp.Key, &Grp.Roots, CacheWhy,
                           /*Use=*/true)) {
      How = llvm::formatv("shared headers from the cache ({0} MB)",
                          Cached->Bytes >> 20);
      return Finish(std::move(Cached), "");
    }

  auto Start = std::chrono::steady_clock::now();
  auto PCH = std::make_shared<SharedPCH>();
  PCH->Roots = Grp.Roots;
  std::string Error;
  // The PCH names the header it was built from, which must stay where it
  // is: beside it, in the cache or in the scan's folder.
  const std::string &Home = CacheDir.empty() ? TempDir : CacheDir;
  std::string Header = pchcache::file(Home, Grp.Key, ".h");
  // The roots are system headers, found through the TU's system folders;
  // named here by their absolute paths they would be user headers (a path
  // takes its kind from the line that includes it), so that their warnings,
  // their skipped bodies and the check's rules for system code would differ
  // from the TU's own parse. A line marker with flag 3 makes the lines that
  // include them a system header's. Its warning is for -pedantic builds
  // (which would otherwise not build the PCH); like a header's pragma, the
  // ignore stays in force in the TU after the PCH, where it could silence
  // only the TU's own GNU line markers.
  // The marker's file name is a string literal (an #include's is not).
  std::string Includes;
  llvm::raw_string_ostream OS(Includes);
  OS << "#pragma clang diagnostic ignored \"-Wgnu-line-marker\"\n# 3 \"";
  OS.write_escaped(Header) << "\" 3\n";
  for (const std::string &Root : Grp.Roots)
    OS << "#include \"" << Root << "\"\n";
  OS.flush();
  llvm::SmallString<256> Output;
  if (fs::create_directories(Home) || !writeFileAtomically(Header, Includes) ||
      fs::createUniqueFile(Home + "/" + Grp.Key + "-%%%%%%.pch", Output))
    return Finish(nullptr, "no shared headers: cannot write to '" + Home + "'");
  PCH->Path = std::string(Output);
  PCH->Header = Header;

  auto Copy = std::make_shared<CompilerInvocation>(Invocation);
  FrontendOptions &FO = Copy->getFrontendOpts();
  FO.Inputs.clear();
  FO.Inputs.emplace_back(Header, InputKind(Language::CXX).getHeader());
  FO.OutputFile = PCH->Path;
  FO.ProgramAction = frontend::GeneratePCH;
  FO.SkipFunctionBodies = true;
  PreprocessorOptions &PPO = Copy->getPreprocessorOpts();
  // The TU's forced includes come before the shared headers in its parse;
  // the guard sees them there, as it sees the TU's own lines.
  PPO.Includes.clear();
  PPO.MacroIncludes.clear();
  PPO.ImplicitPCHInclude.clear();
  // Comments are not read from the PCH; writing them costs time.
  PPO.WriteCommentListToPCH = false;
  Copy->getDependencyOutputOpts() = DependencyOutputOptions();

  IgnoringDiagConsumer Ignore;
  auto Inputs = std::make_shared<InputsRead>();
  bool Compiled = false, Errors = false;
  llvm::CrashRecoveryContext CRC;
  bool Finished = CRC.RunSafely([&] {
    CompilerInstance CI(std::make_shared<PCHContainerOperations>());
    CI.setInvocation(Copy);
    CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
    CI.createFileManager(VFS);
    CI.addDependencyCollector(Inputs);
    BuildSharedPCH Act(*PCH, Error);
    Compiled = CI.ExecuteAction(Act);
    Errors = CI.getDiagnostics().hasErrorOccurred();
  });
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  {
    std::lock_guard<std::mutex> Guard(StatsLock);
    BuildSeconds += Seconds;
  }
  if (!Finished)
    Error = "building it crashed";
  else if (Error.empty() && (!Compiled || Errors))
    Error = "the shared headers do not compile alone with these flags";
  if (!Error.empty()) {
    fs::remove(PCH->Path);
    fs::remove(Header);
    return Finish(nullptr, "no shared headers: " + Error);
  }
  for (const std::string &Dep : Inputs->getDependencies()) {
    if (Dep == Header)
      continue;
    llvm::SmallString<256> P(Dep);
    fs::make_absolute(P);
    fs::UniqueID ID;
    if (!fs::getUniqueID(P, ID))
      PCH->InputIDs.insert(ID);
    PCH->Inputs.push_back(std::string(P));
  }
  uint64_t Size = 0;
  fs::file_size(PCH->Path, Size);
  PCH->Bytes = Size;
  if (!CacheDir.empty()) {
    pchcache::store(CacheDir, Grp.Key, *PCH);
    pruneSharedHeaders(CacheDir, MaxCachedPCHs, /*CheckInputs=*/false);
  }
  How = llvm::formatv("shared headers built here in {0:f2} s ({1} MB)", Seconds,
                      PCH->Bytes >> 20);
  if (!CacheDir.empty() && CacheWhy != "not in the cache")
    How += "; the cached one was not used: " + CacheWhy;
  return Finish(std::move(PCH), "");
}

void SharedHeaderStore::distrust(unsigned G) {
  Group &Grp = *Groups[G];
  std::lock_guard<std::mutex> Guard(Grp.Lock);
  if (Grp.State != Group::Built)
    return;
  Grp.State = Group::Failed;
  Grp.Why = "no shared headers: a TU of the group did not parse with them";
  if (!CacheDir.empty())
    pchcache::remove(CacheDir, Grp.Key);
}

void SharedHeaderStore::done(unsigned G) {
  Group &Grp = *Groups[G];
  std::lock_guard<std::mutex> Guard(Grp.Lock);
  if (Grp.Remaining && --Grp.Remaining == 0) {
    // A temporary PCH goes now; a cached one stays for the next scan.
    if (Grp.PCH && CacheDir.empty())
      fs::remove(Grp.PCH->Path);
    Grp.PCH.reset();
  }
}

double SharedHeaderStore::buildSeconds() const {
  std::lock_guard<std::mutex> Guard(StatsLock);
  return BuildSeconds;
}

//===----------------------------------------------------------------------===//
// The guard
//===----------------------------------------------------------------------===//

SharedHeaderGuard::SharedHeaderGuard(const SharedPCH &PCH, Preprocessor &PP,
                                     std::string &Why)
    : PCH(PCH), PP(PP), SM(PP.getSourceManager()), Why(Why),
      RootsLeft(PCH.RootIDs.begin(), PCH.RootIDs.end()) {}

void SharedHeaderGuard::stop(const std::string &Reason) {
  if (Why.empty())
    Why = Reason;
}

bool SharedHeaderGuard::inTUFile(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  if (SM.isLoadedSourceLocation(Loc))
    return false; // The PCH's.
  return SM.getFileEntryRefForID(SM.getFileID(Loc)).has_value();
}

void SharedHeaderGuard::FileSkipped(const FileEntryRef &File,
                                    const Token &FilenameTok,
                                    SrcMgr::CharacteristicKind) {
  if (!beforeRoots())
    return;
  Reached.insert(File.getUniqueID());
  if (RootsLeft.erase(File.getUniqueID()) && RootsLeft.empty())
    LastRoot = FilenameTok.getLocation();
}

bool SharedHeaderGuard::inPCHHeader(SourceLocation Loc) const {
  OptionalFileEntryRef In =
      SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
  return In && PCH.InputIDs.count(In->getUniqueID());
}

bool SharedHeaderGuard::readAlready(SourceLocation Loc) const {
  // Up the PCH's include tree from the file that defines it: the TU has
  // read that file when it included it or a header that includes it.
  FileID F = SM.getFileID(SM.getExpansionLoc(Loc));
  for (unsigned Depth = 0; F.isValid() && Depth < 256; ++Depth) {
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(F))
      if (Reached.count(FE->getUniqueID()))
        return true;
    SourceLocation Up = SM.getIncludeLoc(F);
    if (Up.isInvalid())
      break;
    F = SM.getFileID(Up);
  }
  return false;
}

void SharedHeaderGuard::macroDefinedHere(const Token &Name) {
  if (!beforeRoots() || !inTUFile(Name.getLocation()))
    return;
  if (inPCHHeader(Name.getLocation()))
    return;
  llvm::StringRef Id = Name.getIdentifierInfo()->getName();
  if (PCH.Identifiers.count(Id))
    stop("it defines or undefines macro '" + Id.str() +
         "' before it includes the shared headers, which read that name");
}

void SharedHeaderGuard::MacroDefined(const Token &Name,
                                     const MacroDirective *MD) {
  // The same definition the shared headers make (<version> and
  // <bits/allocator.h> both define __cpp_lib_incomplete_container_elements):
  // the order of two equal definitions changes nothing.
  const MacroDirective *Prev = MD ? MD->getPrevious() : nullptr;
  const MacroInfo *Now = MD ? MD->getMacroInfo() : nullptr;
  const MacroInfo *Before = Prev ? Prev->getMacroInfo() : nullptr;
  if (Now && Before && SM.isLoadedSourceLocation(Before->getDefinitionLoc()) &&
      Now->isIdenticalTo(*Before, PP, /*Syntactically=*/true))
    return;
  macroDefinedHere(Name);
}

void SharedHeaderGuard::MacroUndefined(const Token &Name,
                                       const MacroDefinition &,
                                       const MacroDirective *) {
  macroDefinedHere(Name);
}

void SharedHeaderGuard::macroRead(const Token &Name,
                                  const MacroDefinition &MD) {
  // A system header includes what it uses: a macro of the shared headers
  // it reads, its own includes defined before, with or without the PCH
  // (<filesystem>'s __try, from <bits/exception_defines.h>).
  if (!beforeRoots() || !inTUFile(Name.getLocation()) ||
      SM.isInSystemHeader(Name.getLocation()))
    return;
  const MacroInfo *MI = MD.getMacroInfo();
  if (!MI)
    return;
  SourceLocation Def = MI->getDefinitionLoc();
  // The PCH's own headers' (not its predefined and command-line macros,
  // which the TU has alike).
  if (SM.isLoadedSourceLocation(Def) &&
      SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Def))) &&
      !readAlready(Def))
    stop("it reads macro '" + Name.getIdentifierInfo()->getName().str() +
         "' before it includes the shared headers, which define it");
}

void SharedHeaderGuard::MacroExpands(const Token &Name,
                                     const MacroDefinition &MD, SourceRange,
                                     const MacroArgs *) {
  macroRead(Name, MD);
}
void SharedHeaderGuard::Defined(const Token &Name, const MacroDefinition &MD,
                                SourceRange) {
  macroRead(Name, MD);
}
void SharedHeaderGuard::Ifdef(SourceLocation, const Token &Name,
                              const MacroDefinition &MD) {
  macroRead(Name, MD);
}
void SharedHeaderGuard::Ifndef(SourceLocation, const Token &Name,
                               const MacroDefinition &MD) {
  macroRead(Name, MD);
}
void SharedHeaderGuard::Elifdef(SourceLocation, const Token &Name,
                                const MacroDefinition &MD) {
  macroRead(Name, MD);
}
void SharedHeaderGuard::Elifndef(SourceLocation, const Token &Name,
                                 const MacroDefinition &MD) {
  macroRead(Name, MD);
}

void SharedHeaderGuard::PragmaDirective(SourceLocation Loc,
                                        PragmaIntroducerKind) {
  // A system header's pragmas are its own business (libstdc++ opens each
  // with `#pragma GCC system_header`, and pushes what it pops).
  if (!beforeRoots() || !inTUFile(Loc) || SM.isInSystemHeader(Loc))
    return;
  // The pragma's first words, read from the text: the callbacks for the
  // harmless ones do not cover every spelling.
  Loc = SM.getExpansionLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Text = SM.getCharacterData(Loc, &Invalid);
  if (Invalid)
    return stop("it has a #pragma before it includes the shared headers");
  Text = Text.take_until([](char C) { return C == '\n'; });
  Text.consume_front("#");
  Text = Text.ltrim();
  Text.consume_front("pragma");
  Text.consume_front("_Pragma");
  Text = Text.ltrim(" \t(\"");
  auto Word = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  llvm::StringRef First = Text.take_while(Word);
  llvm::StringRef Second =
      Text.drop_front(First.size()).ltrim().take_while(Word);
  bool Harmless = First == "once" || First == "message" ||
                  ((First == "GCC" || First == "clang") &&
                   (Second == "diagnostic" || Second == "warning"));
  if (!Harmless)
    stop("it has '#pragma " +
         (Second.empty() ? First.str() : (First + " " + Second).str()) +
         "' before it includes the shared headers");
}

void SharedHeaderGuard::EndOfMainFile() {
  if (beforeRoots())
    stop("it does not include every shared header (a conditional include?)");
}

void SharedHeaderGuard::checkDeclarations(ASTContext &Context) {
  if (!Why.empty() || LastRoot.isInvalid())
    return;
  // Only the TU's own declarations: noload_decls does not read the PCH.
  for (const Decl *D : Context.getTranslationUnitDecl()->noload_decls()) {
    std::vector<const Decl *> Stack{D};
    while (!Stack.empty()) {
      const Decl *Cur = Stack.back();
      Stack.pop_back();
      if (!inTUFile(Cur->getLocation()) ||
          !SM.isBeforeInTranslationUnit(Cur->getLocation(), LastRoot))
        continue;
      if (isa<UsingDirectiveDecl>(Cur)) {
        stop("it has a using-directive before it includes the shared headers");
        return;
      }
      if (const auto *NS = dyn_cast<NamespaceDecl>(Cur))
        for (const Decl *Inner : NS->noload_decls())
          Stack.push_back(Inner);
      if (const auto *LS = dyn_cast<LinkageSpecDecl>(Cur))
        for (const Decl *Inner : LS->noload_decls())
          Stack.push_back(Inner);
    }
  }
}

} // namespace wrapguard
