//===- Scan.cpp - Runs clang-tidy's machinery over many TUs ---------------===//

#include "Scan.h"
#include "Cache.h"
#include "CrashGuard.h"
#include "Paths.h"
#include "Preambles.h"
#include "ScanHost.h"
#include "SharedHeaders.h"
#include "TraversalScope.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;

namespace wrapguard {

namespace {

/// The configuration of a file as clang-tidy would have it, except that a
/// file whose configuration names no HeaderFilterRegex gets \p Default:
/// clang-tidy's own default (no header) unless --source-root asks for the
/// project's headers.
class HeaderDefaultProvider : public ClangTidyOptionsProvider {
public:
  HeaderDefaultProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner,
                        std::string Default)
      : Inner(std::move(Inner)), Default(std::move(Default)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef File) override {
    std::vector<OptionsSource> Raw = Inner->getRawOptions(File);
    if (!configuresHeaders(Raw)) {
      ClangTidyOptions Headers;
      Headers.HeaderFilterRegex = Default;
      // Lowest priority: any source that sets the filter wins.
      Raw.insert(Raw.begin(), {std::move(Headers), "wrapguard's default"});
    }
    return Raw;
  }
  /// Whether File's own configuration (files, --config, the command line)
  /// sets a header filter.
  bool configuresHeaders(llvm::StringRef File) {
    return configuresHeaders(Inner->getRawOptions(File));
  }

private:
  static bool configuresHeaders(const std::vector<OptionsSource> &Raw) {
    return llvm::any_of(Raw, [](const OptionsSource &S) {
      return S.first.HeaderFilterRegex.has_value();
    });
  }
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
  std::string Default;
};

/// Sits in front of ClangTidyDiagnosticConsumer and remembers where
/// diagnostics were reported, so FunctionLocator can name their enclosing
/// functions before the AST goes away.
class RecordingConsumer : public DiagnosticConsumer {
public:
  RecordingConsumer(
      DiagnosticConsumer &Target,
      std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending)
      : Target(Target), Pending(Pending) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Target.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Target.EndSourceFile(); }
  void finish() override { Target.finish(); }
  bool IncludeInDiagnosticCounts() const override {
    return Target.IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level == DiagnosticsEngine::Warning && Info.hasSourceManager() &&
        Info.getLocation().isValid())
      Pending.emplace_back(&Info.getSourceManager(), Info.getLocation());
    Target.HandleDiagnostic(Level, Info);
  }

private:
  DiagnosticConsumer &Target;
  std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending;
};

/// After the checks have run on a TU, finds the innermost named function
/// (lambdas excluded: they report as their enclosing function) around each
/// recorded diagnostic. Declarations that contain none are skipped whole,
/// so a clean TU costs nothing and a dirty one a fraction of a traversal.
class FunctionLocator : public ASTConsumer,
                        public RecursiveASTVisitor<FunctionLocator> {
public:
  FunctionLocator(
      std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending,
      std::map<std::pair<std::string, unsigned>, std::string> &Out)
      : Pending(Pending), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    SM = &Ctx.getSourceManager();
    for (auto &[PendingSM, Loc] : Pending)
      if (PendingSM == SM)
        Targets.push_back({SM->getFileLoc(Loc), nullptr, 0});
    Pending.clear();
    if (Targets.empty())
      return;
    // A finding is in a function the checks walked, usually in the
    // traversal scope. Not always: the instantiation of a template member
    // defined out of line is walked with the template's first declaration,
    // while the definition that names it may be a unit another TU claimed.
    // The rest of the TU is walked for those alone, so the name does not
    // depend on who claimed what.
    for (Decl *D : Ctx.getTraversalScope())
      TraverseDecl(D);
    llvm::erase_if(Targets, [&](const Target &T) {
      if (T.Best)
        record(T);
      return T.Best != nullptr;
    });
    // Not TraverseDecl(TU): RecursiveASTVisitor walks the scope there.
    if (!Targets.empty())
      for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
        TraverseDecl(D);
    for (const Target &T : Targets)
      if (T.Best)
        record(T);
    Targets.clear();
  }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D)) {
      SourceRange R = expansionRange(D->getSourceRange());
      if (R.isValid() && !containsAny(R))
        return true;
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody())
      return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (MD->getParent()->isLambda())
        return true;
    SourceRange R = expansionRange(FD->getSourceRange());
    if (R.isInvalid())
      return true;
    unsigned Length =
        SM->getFileOffset(R.getEnd()) - SM->getFileOffset(R.getBegin());
    for (Target &T : Targets)
      if (contains(R, T.Loc) && (!T.Best || Length <= T.BestLength)) {
        T.Best = FD;
        T.BestLength = Length;
      }
    return true;
  }

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }

private:
  struct Target {
    SourceLocation Loc;
    const FunctionDecl *Best;
    unsigned BestLength;
  };

  void record(const Target &T) {
    Out[{SM->getFilename(T.Loc).str(), SM->getFileOffset(T.Loc)}] =
        T.Best->getQualifiedNameAsString();
  }
  SourceRange expansionRange(SourceRange R) const {
    if (R.isInvalid())
      return R;
    SourceLocation B = SM->getExpansionLoc(R.getBegin());
    SourceLocation E = SM->getExpansionRange(R.getEnd()).getEnd();
    if (SM->getFileID(B) != SM->getFileID(E))
      return SourceRange();
    return SourceRange(B, E);
  }
  bool contains(SourceRange R, SourceLocation L) const {
    return !SM->isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM->isBeforeInTranslationUnit(R.getEnd(), L);
  }
  bool containsAny(SourceRange R) const {
    for (const Target &T : Targets)
      if (contains(R, T.Loc))
        return true;
    return false;
  }

  std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending;
  std::map<std::pair<std::string, unsigned>, std::string> &Out;
  const SourceManager *SM = nullptr;
  std::vector<Target> Targets;
};

/// The configuration of each file, as clang-tidy finds it, with the header
/// default of --source-root.
std::unique_ptr<HeaderDefaultProvider>
makeProvider(const ScanOptions &Options,
             IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  std::unique_ptr<ClangTidyOptionsProvider> Files;
  if (Options.Config)
    Files = std::make_unique<ConfigOptionsProvider>(
        Options.Global, Options.Defaults, *Options.Config, Options.Overrides,
        FS);
  else
    Files = std::make_unique<FileOptionsProvider>(
        Options.Global, Options.Defaults, Options.Overrides, FS);
  return std::make_unique<HeaderDefaultProvider>(
      std::move(Files), Options.SourceRootHeaders ? ".*" : "");
}

/// The compile command as the TU runs it: ClangTool's own adjustments
/// (syntax only, no output or dependency file), then the configuration's
/// ExtraArgs and ExtraArgsBefore, as in clang-tidy, without plugins. The
/// same function plans the TUs and runs them, so a preamble is built with
/// the very flags its TUs are parsed with.
ArgumentsAdjuster commandAdjuster(ClangTidyContext &Context) {
  ArgumentsAdjuster ExtraArgs = [&Context](const CommandLineArguments &Args,
                                           StringRef Filename) {
    ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
    CommandLineArguments Adjusted = Args;
    if (Opts.ExtraArgsBefore) {
      auto I = Adjusted.begin();
      if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
        ++I; // The compiler's name.
      Adjusted.insert(I, Opts.ExtraArgsBefore->begin(),
                      Opts.ExtraArgsBefore->end());
    }
    if (Opts.ExtraArgs)
      Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                      Opts.ExtraArgs->end());
    return Adjusted;
  };
  ArgumentsAdjuster Adjuster = getClangStripOutputAdjuster();
  for (ArgumentsAdjuster Next :
       {getClangSyntaxOnlyAdjuster(), getClangStripDependencyFileAdjuster(),
        ExtraArgs, getStripPluginsAdjuster()})
    Adjuster = combineAdjusters(std::move(Adjuster), std::move(Next));
  return Adjuster;
}

/// What the scan knows of a TU before it runs.
struct TUPlan {
  /// The compile flags but the file's own name, with the directory: TUs
  /// with equal keys parse headers alike.
  std::string FlagsKey;
  /// The result cache's key: the flags of each of its compile commands and
  /// the file's configuration.
  std::string CacheKey;
  PreambleRegion Region;
  /// What TUs that may share a preamble have in common; empty when it may
  /// share none.
  std::string StartKey;
  /// The preamble group, when the TU shares its preamble.
  std::optional<unsigned> Group;
  /// The heavy system headers it reaches (SharedHeaders.h), and the group
  /// of TUs that share a PCH of them, when it does. TUs whose flags differ
  /// only in -I and -iquote share one when those headers resolve alike
  /// for both (equal SharedKey).
  std::vector<std::string> SharedRoots;
  std::string SharedKey;
  /// The command as it runs, when the TU may share heavy headers: what
  /// planSharedHeaders reads its include paths from.
  std::vector<std::string> SharedArgs;
  std::string SharedDirectory, SharedFilename;
  std::optional<unsigned> SharedGroup;
  /// Why it is parsed whole (for --verbose).
  std::string Whole;
};

/// Records every file the TU reads, headers of its preamble included (the
/// result cache keys on their contents).
class FilesRead : public DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(StringRef Filename, bool FromModule, bool IsSystem,
                     bool IsModuleFile, bool IsMissing) override {
    return !IsModuleFile && !IsMissing && !Filename.starts_with("<");
  }
};

/// What the workers share.
struct ScanShared {
  const CompilationDatabase &DB;
  const ScanOptions &Options;
  ClaimSet &Claims;
  PreambleStore &Store;
  SharedHeaderStore &Headers;
};

/// How one TU went: for --verbose, and what a crash leaves to report. It
/// lives outside the TU's own thread, whose stack a crash abandons.
struct TULog {
  std::string How;
  /// The front end was done (the checks had started) when it crashed.
  bool Parsed = false;
  /// The units it met and claimed; a crash gives its claims back.
  ScopeRecord Scope;
  /// It loaded its group's shared headers, and why the parse made with
  /// them is not the one a scan without them makes (empty when it is).
  bool UsedSharedHeaders = false;
  std::string SharedUnsound;
};

/// One TU's work in the scan: what is known of it before it runs, what the
/// cache said of it, and what it left. The scan keeps one per file, in the
/// order of the files; each step reads and writes its own job, so no two
/// lists are kept in step by index.
struct TUJob {
  std::string File;
  TUPlan Plan;
  /// What the cache said of it, for --verbose ("cache: x.h changed; ").
  std::string CacheLog;
  TUResult Result;
};

/// What a scan's rounds share: the database, the options, the claims, and
/// the progress (TUs done so far, for every round).
struct ScanRun {
  const CompilationDatabase &DB;
  const ScanOptions &Options;
  ClaimSet &Claims;
  const ProgressFn &Progress;
  unsigned Done = 0;
};

/// How many rounds a scan rescans cached TUs for header code left to a TU
/// that no longer has it (scanFiles). A round's rescans claim that code, so
/// a second round is needed only when a rescan in turn leaves some.
constexpr unsigned MaxRescanRounds = 3;

/// Notes that the front end is done, before the checks run.
class ParseDone : public ASTConsumer {
public:
  explicit ParseDone(bool &Done) : Done(Done) {}
  void HandleTranslationUnit(ASTContext &) override { Done = true; }

private:
  bool &Done;
};

/// After the parse, before the checks: the guard's look at the TU's own
/// declarations.
class GuardDeclarations : public ASTConsumer {
public:
  explicit GuardDeclarations(SharedHeaderGuard &Guard) : Guard(Guard) {}
  void HandleTranslationUnit(ASTContext &Context) override {
    Guard.checkDeclarations(Context);
  }

private:
  SharedHeaderGuard &Guard;
};

/// clang-tidy's own action (see runClangTidy), after the traversal scope is
/// set, and with the FunctionLocator after it.
class TidyActionFactory : public FrontendActionFactory {
public:
  TidyActionFactory(
      ClangTidyContext &Context,
      IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
      std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending,
      TUResult &Out, const TUPlan &Plan, ScanShared &Shared, TULog &Log)
      : ConsumerFactory(Context, std::move(BaseFS)), Pending(Pending), Out(Out),
        Plan(Plan), Shared(Shared), Log(Log) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(*this);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy does: checks may test for __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // No "N warnings generated." per TU: the driver prints one summary.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    // Alive until the TU is done: the AST reads from its file lazily.
    std::shared_ptr<const PrecompiledPreamble> Preamble =
        usePreamble(*Invocation, *Files);
    UsedPCH = useSharedHeaders(*Invocation, *Files);

    // FrontendActionFactory::runInvocation, with the dependency collector.
    CompilerInstance Compiler(std::move(PCHContainerOps));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    std::unique_ptr<FrontendAction> Act = create();
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager(*Files);
    auto Read = std::make_shared<FilesRead>();
    Compiler.addDependencyCollector(Read);
    bool Success = Compiler.ExecuteAction(*Act);
    Files->clearStatCache();
    llvm::ErrorOr<std::string> Cwd =
        Files->getVirtualFileSystem().getCurrentWorkingDirectory();
    // Made absolute, but not normalised: `..` after a symlink (GCC's
    // "/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include") means what the
    // file system says.
    for (const std::string &Dep : Read->getDependencies()) {
      // The group header is the scan's, rebuilt under another name when the
      // groups change; the headers it includes are the TU's dependencies.
      if (UsedPCH && Dep == UsedPCH->Header)
        continue;
      SmallString<256> Path(Dep);
      if (!llvm::sys::path::is_absolute(Path) && Cwd) {
        Path = *Cwd;
        llvm::sys::path::append(Path, Dep);
      }
      Out.Dependencies.push_back(std::string(Path));
    }
    return Success;
  }

private:
  /// Sets \p Invocation up to load the group's shared headers before its
  /// first line, when the TU has them; returns them.
  std::shared_ptr<const SharedPCH>
  useSharedHeaders(CompilerInvocation &Invocation, FileManager &Files) {
    if (!Plan.SharedGroup)
      return nullptr;
    std::string Why, How;
    std::shared_ptr<const SharedPCH> PCH =
        Shared.Headers.get(*Plan.SharedGroup, Invocation,
                           Files.getVirtualFileSystemPtr(), Why, How);
    if (!PCH) {
      Log.How = "parsed whole: " + Why;
      return nullptr;
    }
    Log.How =
        "shared headers of group " + std::to_string(*Plan.SharedGroup + 1);
    if (!How.empty()) {
      Log.How += " (" + How + "; of";
      for (const std::string &Root : PCH->Roots)
        Log.How += " " + Root;
      Log.How += ")";
    }
    Invocation.getPreprocessorOpts().ImplicitPCHInclude = PCH->Path;
    Log.UsedSharedHeaders = true;
    return PCH;
  }

  /// Sets \p Invocation up to start from the group's preamble, when the TU
  /// has one; returns it.
  std::shared_ptr<const PrecompiledPreamble>
  usePreamble(CompilerInvocation &Invocation, FileManager &Files) {
    if (!Plan.Group)
      return nullptr;
    StringRef Main = Invocation.getFrontendOpts().Inputs[0].getFile();
    auto Buffer = Files.getVirtualFileSystem().getBufferForFile(Main);
    if (!Buffer) {
      Log.How = "parsed whole: cannot read it";
      return nullptr;
    }
    PreambleBounds Bounds = ComputePreambleBounds(
        Invocation.getLangOpts(), (*Buffer)->getMemBufferRef(), 0);
    if (Bounds.Size != Plan.Region.Size ||
        Bounds.PreambleEndsAtStartOfLine != Plan.Region.EndsAtStartOfLine ||
        inspectPreamble((*Buffer)->getBuffer()).Directives !=
            Plan.Region.Directives) {
      Log.How = "parsed whole: its first lines read otherwise now";
      return nullptr;
    }
    // The copy every TU of the group starts alike: the directives alone.
    const std::string &Directives = Plan.Region.Directives;
    std::unique_ptr<llvm::MemoryBuffer> Copy =
        withDirectivesOnly((*Buffer)->getBuffer(), Plan.Region, Main);
    PreambleBounds Start(Directives.size(),
                         StringRef(Directives).ends_with("\n") ||
                             Plan.Region.EndsAtStartOfLine);
    std::string Why;
    bool Built = false;
    auto Began = std::chrono::steady_clock::now();
    std::shared_ptr<const PrecompiledPreamble> Preamble =
        Shared.Store.get(*Plan.Group, Invocation, *Copy, Start,
                         Files.getVirtualFileSystemPtr(), Why, Built);
    if (!Preamble) {
      Log.How = "parsed whole: " + Why;
      return nullptr;
    }
    Log.How = "preamble of group " + std::to_string(*Plan.Group + 1);
    if (Built)
      Log.How += llvm::formatv(" (built here in {0:f2} s, {1} MB)",
                               std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - Began)
                                   .count(),
                               Preamble->getSize() >> 20);
    IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS =
        Files.getVirtualFileSystemPtr();
    // The compiler takes the buffer (RetainRemappedFileBuffers is off).
    Preamble->OverridePreamble(Invocation, VFS, Copy.release());
    PreambleSize = Start.Size;
    return Preamble;
  }

  class Action : public ASTFrontendAction {
  public:
    explicit Action(TidyActionFactory &Parent) : Parent(Parent) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                   StringRef File) override {
      std::vector<std::unique_ptr<ASTConsumer>> Consumers;
      Consumers.push_back(std::make_unique<ParseDone>(Parent.Log.Parsed));
      if (Parent.UsedPCH) {
        auto Guard = std::make_unique<SharedHeaderGuard>(
            *Parent.UsedPCH, Compiler.getPreprocessor(),
            Parent.Log.SharedUnsound);
        Consumers.push_back(std::make_unique<GuardDeclarations>(*Guard));
        Compiler.getPreprocessor().addPPCallbacks(std::move(Guard));
      }
      // Before the checks, so they walk the scope it sets.
      Consumers.push_back(std::make_unique<ScopeConsumer>(
          Parent.Shared.Claims, Parent.Plan.FlagsKey,
          Parent.Shared.Options.TraversalScope, Parent.Log.Scope));
      Consumers.push_back(
          Parent.ConsumerFactory.createASTConsumer(Compiler, File));
      // After the checks, so every diagnostic has been recorded.
      Consumers.push_back(std::make_unique<FunctionLocator>(
          Parent.Pending, Parent.Out.Functions));
      // The checks registered their callbacks just now; the preamble kept
      // the main file's first #includes from them.
      if (Parent.PreambleSize)
        replayPreambleIncludes(Compiler.getPreprocessor(), Parent.PreambleSize);
      return std::make_unique<MultiplexConsumer>(std::move(Consumers));
    }

  private:
    TidyActionFactory &Parent;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
  std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending;
  TUResult &Out;
  const TUPlan &Plan;
  ScanShared &Shared;
  TULog &Log;
  unsigned PreambleSize = 0;
  /// Alive until the TU is done: the guard reads it.
  std::shared_ptr<const SharedPCH> UsedPCH;
};

TUResult scanOne(const std::string &File, const TUPlan &Plan,
                 ScanShared &Shared, ScanHost &Host, TULog &Log) {
  TUResult Out;
  Out.File = File;
  const ScanOptions &Options = Shared.Options;

  // A physical file system whose working directory is its own: the shared
  // real file system follows the process's directory, and ClangTool changes
  // it to each command's directory, which would race between threads.
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  auto BaseFS =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);

  std::unique_ptr<HeaderDefaultProvider> Provider =
      makeProvider(Options, Physical);
  Out.HeadersUnderSourceRoot =
      Options.SourceRootHeaders && !Provider->configuresHeaders(File);
  ClangTidyContext Context(std::move(Provider));
  // The check hands this TU's facts and candidates over to Host.
  ScopedCheckHost Installed(Context, Host);

  ClangTool Tool(Shared.DB, {File}, std::make_shared<PCHContainerOperations>(),
                 BaseFS);
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(commandAdjuster(Context));

  ClangTidyDiagnosticConsumer TidyConsumer(Context, nullptr,
                                           /*RemoveIncompatibleErrors=*/true,
                                           /*GetFixesFromNotes=*/false);
  std::vector<std::pair<const SourceManager *, SourceLocation>> Pending;
  RecordingConsumer Recorder(TidyConsumer, Pending);
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(), &Recorder,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);
  Tool.setDiagnosticConsumer(&Recorder);
  // clang-tidy prints "Error while processing" itself; the driver reports
  // failures in its own words, once.
  Tool.setPrintErrorMessage(false);

  Log.How = Plan.Whole.empty() ? "parsed whole" : "parsed whole: " + Plan.Whole;
  TidyActionFactory Factory(Context, BaseFS, Pending, Out, Plan, Shared, Log);
  int Status = Tool.run(&Factory);
  Out.Evidence = Host.takeEvidence();
  Out.Errors = TidyConsumer.take();
  Out.Parsed = Status == 0 && llvm::none_of(Out.Errors, isCompilerError);
  Out.UnitsContained = Log.Scope.Contained;
  Out.UnitsOwned = Log.Scope.Owned;
  llvm::sort(Out.Dependencies);
  Out.Dependencies.erase(
      std::unique(Out.Dependencies.begin(), Out.Dependencies.end()),
      Out.Dependencies.end());
  return Out;
}

/// What the scan knows of \p File before it runs, into \p P: the keys of
/// the TUs it parses like and of its cache entry, and the directives it
/// starts with, or why it is parsed whole.
void planTU(const CompilationDatabase &DB, const std::string &File,
            const ScanOptions &Options, ClangTidyContext &Context,
            const ArgumentsAdjuster &Adjust, TUPlan &P) {
  std::vector<CompileCommand> Commands = DB.getCompileCommands(File);
  if (Commands.empty()) {
    // The driver reports it; nothing to key a result on.
    P.Whole = "it has no compile command";
    return;
  }
  // The flags of each command, the file's own name aside, in the order the
  // scan runs them. Args keeps the last command's adjusted arguments: with
  // one command, what planSharedHeaders reads (SharedArgs, below).
  std::string CommandsKey;
  std::vector<std::string> Args;
  for (const CompileCommand &Cmd : Commands) {
    llvm::MD5 Hash;
    Hash.update(Cmd.Directory);
    Args = Adjust(Cmd.CommandLine, Cmd.Filename);
    for (const std::string &Arg : Args) {
      bool IsFile =
          Arg == Cmd.Filename || absolutePath(Arg, Cmd.Directory) == File;
      Hash.update(llvm::ArrayRef<uint8_t>{0});
      Hash.update(IsFile ? StringRef("<main file>") : StringRef(Arg));
    }
    llvm::MD5::MD5Result Digest;
    Hash.final(Digest);
    if (!CommandsKey.empty())
      CommandsKey += "+";
    CommandsKey += Digest.digest().str();
  }
  ClangTidyOptions Opts = Context.getOptionsForFile(File);
  // Everything that decides what the TU's result holds: its commands (a
  // file with several is one result of them all), its configuration as
  // clang-tidy writes it, and the header default.
  P.CacheKey = CommandsKey + " " +
               llvm::toHex(llvm::MD5::hash(llvm::arrayRefFromStringRef(
                               configurationAsText(Opts))),
                           /*LowerCase=*/true) +
               (Options.SourceRootHeaders ? " source-root-headers" : "");
  if (Commands.size() != 1) {
    P.Whole = "it has several compile commands";
    return;
  }
  const CompileCommand &Cmd = Commands.front();
  P.FlagsKey = CommandsKey;
  if (!Options.Preambles) {
    P.Whole = "--no-preamble";
    return;
  }
  // The shim's fix-its add an #include to the file of the call, placed
  // after the includes the check saw there; a header's were parsed into
  // the preamble, out of the check's sight.
  auto FixMode =
      Opts.CheckOptions.find("wrapguard-unchecked-policy-call.FixMode");
  if (FixMode != Opts.CheckOptions.end() &&
      StringRef(FixMode->getValue().Value).trim() == "shim") {
    P.Whole = "FixMode shim places #includes by what a preamble hides";
    return;
  }
  // A TU that loads a PCH of its own (CMake's target_precompile_headers
  // writes `-Xclang -include-pch -Xclang FILE`) has its heavy headers
  // parsed already, and clang loads one PCH per parse: neither a preamble
  // nor the shared headers could go in front of it.
  if (llvm::is_contained(Args, "-include-pch")) {
    P.Whole = "it loads a precompiled header of its own (-include-pch)";
    return;
  }
  // What its heavy headers are is read only if it is parsed
  // (planSharedHeaders): a rescan that reuses it needs none of that.
  P.SharedArgs = std::move(Args);
  P.SharedDirectory = Cmd.Directory;
  P.SharedFilename = Cmd.Filename;
  auto Text = llvm::MemoryBuffer::getFile(File);
  if (!Text)
    return;
  P.Region = inspectPreamble((*Text)->getBuffer());
  if (!P.Region.Unshareable.empty()) {
    P.Whole = P.Region.Unshareable;
    return;
  }
  // Quoted includes are looked up next to the file first.
  P.StartKey = P.FlagsKey + '\0' + llvm::sys::path::parent_path(File).str() +
               '\0' + P.Region.Directives;
}

/// The directives each TU starts with, and the keys of the TUs it parses
/// like and of its cache entry: one job per file, in the order of Files.
std::vector<TUJob> planTUs(const CompilationDatabase &DB,
                           const std::vector<std::string> &Files,
                           const ScanOptions &Options) {
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  ClangTidyContext Context(makeProvider(Options, Physical));
  ArgumentsAdjuster Adjust = commandAdjuster(Context);

  std::vector<TUJob> Jobs(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    Jobs[I].File = Files[I];
    planTU(DB, Files[I], Options, Context, Adjust, Jobs[I].Plan);
  }
  return Jobs;
}

/// The heavy headers each job of \p Which (those to parse) reaches, and
/// the key of the TUs that may share a PCH of them (TUPlan::SharedKey).
void planSharedHeaders(llvm::ArrayRef<TUJob *> Which,
                       const ScanOptions &Options) {
  IncludeGraph Graph(Options.SharedHeaderBytes);
  std::map<std::string, IncludePaths> PathsByFlags;
  for (TUJob *Job : Which) {
    TUPlan &P = Job->Plan;
    if (P.SharedArgs.empty() || !P.SharedKey.empty())
      continue;
    const std::string &File = Job->File;
    const std::vector<std::string> &Args = P.SharedArgs;
    // The flags but the file and the project's include folders (-I,
    // -iquote), which the driver reads once for all TUs that have them;
    // each TU's own folders go in front, where clang searches them.
    std::string Key = "wrapguard-pch-2 " LLVM_VERSION_STRING;
    Key += '\0' + P.SharedDirectory;
    std::vector<std::string> Common;
    IncludePaths Own;
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef Arg = Args[I];
      StringRef Dir;
      bool Quoted = Arg.starts_with("-iquote");
      if ((Arg == "-I" || Arg == "-iquote") && I + 1 < Args.size())
        Dir = Args[++I];
      else if (Arg.starts_with("-I") || Quoted)
        Dir = Arg.drop_front(Quoted ? 7 : 2);
      if (!Dir.empty()) {
        std::string Abs = absolutePath(Dir, P.SharedDirectory);
        if (Quoted)
          Own.Quoted.push_back(Abs);
        else
          Own.Angled.emplace_back(Abs, false);
        continue;
      }
      Common.push_back(Arg.str());
      if (Arg == P.SharedFilename ||
          absolutePath(Arg, P.SharedDirectory) == File)
        continue;
      Key += '\0' + Arg.str();
    }
    auto [System, New] = PathsByFlags.try_emplace(Key);
    if (New)
      System->second = includePathsOf(Common, P.SharedDirectory);
    IncludePaths Paths = Own;
    Paths.Quoted.insert(Paths.Quoted.end(), System->second.Quoted.begin(),
                        System->second.Quoted.end());
    Paths.Angled.insert(Paths.Angled.end(), System->second.Angled.begin(),
                        System->second.Angled.end());
    P.SharedRoots = Graph.sharedRoots(File, Paths);
    if (P.SharedRoots.empty())
      continue;
    // What the roots reach through this TU's folders.
    for (const std::string &Root : P.SharedRoots)
      Key += '\0' + Root + '\0' + Graph.reachDigest(Root, Paths);
    P.SharedKey = llvm::toHex(llvm::MD5::hash(llvm::arrayRefFromStringRef(Key)),
                              /*LowerCase=*/true);
  }
}

/// The shared-header groups of a scan: how many TUs each has, its key
/// (flags and roots) and its roots.
struct SharedGroups {
  std::vector<unsigned> Members;
  std::vector<std::string> Keys;
  std::vector<std::vector<std::string>> Roots;
};

/// Groups the jobs of \p Which (those to parse) that reach the same heavy
/// headers with the same flags. A group of one is worth a PCH only when
/// the PCH is kept for the next scan (\p Kept).
SharedGroups groupSharedHeaders(llvm::ArrayRef<TUJob *> Which, bool Kept) {
  std::map<std::string, std::vector<TUJob *>> ByRoots;
  for (TUJob *Job : Which)
    if (!Job->Plan.SharedKey.empty())
      ByRoots[Job->Plan.SharedKey].push_back(Job);
  SharedGroups Out;
  for (auto &[Key, Group] : ByRoots) {
    if (Group.size() < 2 && !Kept)
      continue;
    for (TUJob *Job : Group)
      Job->Plan.SharedGroup = Out.Members.size();
    Out.Members.push_back(Group.size());
    Out.Keys.push_back(Key);
    Out.Roots.push_back(Group.front()->Plan.SharedRoots);
  }
  return Out;
}

/// Groups the jobs of \p Which (those to parse) that start alike and share
/// no heavy headers; returns the number of TUs of each group.
std::vector<unsigned> groupTUs(llvm::ArrayRef<TUJob *> Which) {
  std::map<std::string, std::vector<TUJob *>> ByStart;
  for (TUJob *Job : Which)
    if (!Job->Plan.StartKey.empty() && !Job->Plan.SharedGroup)
      ByStart[Job->Plan.StartKey].push_back(Job);
  std::vector<unsigned> Members;
  for (auto &[Start, Group] : ByStart) {
    if (Group.size() < 2) {
      Group.front()->Plan.Whole =
          "no other TU starts with the same directives and flags";
      continue;
    }
    for (TUJob *Job : Group)
      Job->Plan.Group = Members.size();
    Members.push_back(Group.size());
  }
  return Members;
}

/// The order the jobs of \p Which start in: the first TU of each
/// shared-header group, then each group's TUs one after the other, where
/// its first TU is in file order, so few preambles are alive at once.
std::vector<TUJob *> scheduleTUs(llvm::ArrayRef<TUJob *> Which) {
  // A group by kind (0: shared headers, 1: preamble) and number.
  auto GroupOf =
      [](const TUJob *Job) -> std::optional<std::pair<int, unsigned>> {
    if (Job->Plan.SharedGroup)
      return std::make_pair(0, *Job->Plan.SharedGroup);
    if (Job->Plan.Group)
      return std::make_pair(1, *Job->Plan.Group);
    return std::nullopt;
  };
  std::vector<TUJob *> Order;
  std::set<std::pair<int, unsigned>> Queued;
  // The first TU of each shared-header group first: their PCHs, each some
  // ten seconds of one thread, are built side by side.
  std::set<unsigned> Leaders;
  for (TUJob *Job : Which)
    if (Job->Plan.SharedGroup && Leaders.insert(*Job->Plan.SharedGroup).second)
      Order.push_back(Job);
  for (TUJob *Job : Which) {
    if (llvm::is_contained(Order, Job))
      continue;
    std::optional<std::pair<int, unsigned>> G = GroupOf(Job);
    if (!G) {
      Order.push_back(Job);
      continue;
    }
    if (!Queued.insert(*G).second)
      continue;
    for (TUJob *Member : Which)
      if (GroupOf(Member) == G && !llvm::is_contained(Order, Member))
        Order.push_back(Member);
  }
  return Order;
}

/// A TU run on a guarded thread: a crash in it becomes a crashed result.
TUResult scanGuarded(const std::string &File, const TUPlan &Plan,
                     ScanShared &Shared, TULog &Log) {
  std::optional<ScanHost> Host(Shared.Options.CrashIn);
  TUResult Attempt;
  int Signal =
      runGuarded([&] { Attempt = scanOne(File, Plan, Shared, *Host, Log); });
  if (!Signal && Log.UsedSharedHeaders &&
      (!Log.SharedUnsound.empty() || !Attempt.Parsed)) {
    // The parse with the shared headers is not the scan's answer: the TU
    // is parsed again whole, and that parse alone counts.
    std::string Why = Log.SharedUnsound;
    if (Why.empty()) {
      Why = "it does not parse with them";
      for (const ClangTidyError &E : Attempt.Errors)
        if (isCompilerError(E)) {
          Why += " (" + E.Message.Message + ")";
          break;
        }
    }
    bool WasParsed = Attempt.Parsed;
    Shared.Claims.release(Log.Scope.Owned);
    TUPlan Whole = Plan;
    Whole.SharedGroup.reset();
    Whole.Group.reset();
    Whole.Whole = "not with the shared headers: " + Why;
    Log = TULog();
    Host.emplace(Shared.Options.CrashIn);
    Signal =
        runGuarded([&] { Attempt = scanOne(File, Whole, Shared, *Host, Log); });
    // Errors only with the PCH: it is not used again.
    if (!Signal && !WasParsed && Attempt.Parsed)
      Shared.Headers.distrust(*Plan.SharedGroup);
  }
  if (!Signal)
    return Attempt;
  TUResult Crashed;
  Crashed.File = File;
  Crashed.Parsed = false;
  Crashed.CrashSignal = Signal;
  Crashed.CrashAfterParse = Log.Parsed;
  // What it claimed is analysed by no one now; a TU that starts later can
  // take it (those done already cannot).
  Shared.Claims.release(Log.Scope.Owned);
  // The AST the check was in is leaked, not freed: its name can be read,
  // unless the crash broke it too.
  if (const FunctionDecl *FD = Host->analysing()) {
    llvm::CrashRecoveryContext CRC;
    std::string Name;
    if (CRC.RunSafely([&] { Name = FD->getQualifiedNameAsString(); }))
      Crashed.CrashFunction = Name;
  }
  Log.How = "crashed (" + signalName(Signal) + ")";
  return Crashed;
}

} // namespace

namespace {

/// Parses and checks the jobs of \p Which, each into its own result.
/// \p Total is the count the progress line counts up to.
void scanSome(ScanRun &Run, llvm::ArrayRef<TUJob *> Which, unsigned Total) {
  const ScanOptions &Options = Run.Options;
  for (TUJob *Job : Which) {
    Job->Plan.Group.reset();
    Job->Plan.SharedGroup.reset();
  }
  // Without a cache, TUs that start alike keep their preamble, which
  // costs no reading of the include structure (a generated trainer whose
  // TUs all open alike scans 10% faster so); with one, the PCH of the
  // heavy headers is what the next scan reuses, so it comes first.
  bool Kept = !Options.SharedHeaderCacheDir.empty();
  std::vector<unsigned> Members;
  if (!Kept)
    Members = groupTUs(Which);
  std::vector<TUJob *> ToPlan;
  for (TUJob *Job : Which)
    if (!Job->Plan.Group)
      ToPlan.push_back(Job);
  auto Planning = std::chrono::steady_clock::now();
  planSharedHeaders(ToPlan, Options);
  if (Options.Verbose && !ToPlan.empty())
    llvm::errs() << llvm::formatv(
        "wrapguard: read the include structure of {0} TUs in {1:f2} s\n",
        ToPlan.size(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                      Planning)
            .count());
  SharedGroups Heavy = groupSharedHeaders(ToPlan, Kept);
  if (Kept)
    Members = groupTUs(Which);
  // The preambles' files live in a folder of this scan's own.
  SmallString<128> PreambleDir;
  if ((!Members.empty() || !Heavy.Members.empty()) &&
      llvm::sys::fs::createUniqueDirectory("wrapguard-preambles", PreambleDir))
    PreambleDir.clear();
  PreambleStore Store(std::move(Members), std::string(PreambleDir));
  SharedHeaderStore Headers(std::move(Heavy.Members), std::move(Heavy.Keys),
                            std::move(Heavy.Roots), std::string(PreambleDir),
                            Options.SharedHeaderCacheDir);
  ScanShared Shared{Run.DB, Options, Run.Claims, Store, Headers};

  std::mutex ProgressMutex;
  unsigned Findings = 0;
  // Each TU writes only its own job, so the results stay in the order of
  // the files whatever the scheduling.
  auto ScanTU = [&](TUJob *Job) {
    TULog Log;
    std::string Note = std::move(Job->Result.CacheNote);
    Job->Result = scanGuarded(Job->File, Job->Plan, Shared, Log);
    Job->Result.CacheNote = std::move(Note);
    Job->Result.Parsing = Log.How;
    if (Job->Plan.Group)
      Store.done(*Job->Plan.Group);
    if (Job->Plan.SharedGroup)
      Headers.done(*Job->Plan.SharedGroup);
    if (Options.Cache && !Job->Plan.CacheKey.empty())
      Options.Cache->store(Job->File, Job->Plan.CacheKey, Job->Result);
#if defined(__GLIBC__)
    // A TU's AST is freed here, but glibc keeps the pages of its
    // per-thread arenas; without this the process holds on to its peak
    // across TUs, where run-clang-tidy's processes give theirs back at exit.
    malloc_trim(0);
#endif
    std::lock_guard<std::mutex> Lock(ProgressMutex);
    ++Run.Done;
    for (const ClangTidyError &E : Job->Result.Errors)
      if (!isCompilerError(E))
        ++Findings;
    if (Options.Verbose)
      llvm::errs() << "wrapguard: " << Job->File << ": " << Job->CacheLog
                   << Log.How << "; claimed " << Job->Result.UnitsOwned.size()
                   << " of " << Job->Result.UnitsContained.size()
                   << " header units\n";
    if (Run.Progress)
      Run.Progress(Run.Done, Total, Findings);
  };

  std::vector<TUJob *> Order = scheduleTUs(Which);
  unsigned Jobs = std::max(1u, std::min<unsigned>(Options.Jobs, Which.size()));
  if (Jobs == 1) {
    for (TUJob *Job : Order)
      ScanTU(Job);
  } else {
    // Each TU runs on a thread of its own with clang's front-end stack
    // (runGuarded); the pool only bounds how many run at once.
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (TUJob *Job : Order)
      Pool.async(ScanTU, Job);
    Pool.wait();
  }
  if (Options.Verbose && Store.buildSeconds() > 0)
    llvm::errs() << llvm::formatv(
        "wrapguard: preambles built in {0:f2} s of CPU\n",
        Store.buildSeconds());
  if (Options.Verbose && Headers.buildSeconds() > 0)
    llvm::errs() << llvm::formatv(
        "wrapguard: shared headers built in {0:f2} s of CPU\n",
        Headers.buildSeconds());
  if (!PreambleDir.empty())
    llvm::sys::fs::remove_directories(PreambleDir);
}

/// Reuses \p Job's result from the cache when the cache holds it, claiming
/// its header units for it; true when it did. One whose claims another
/// cached TU already holds (two scans of different files wrote them) is
/// rescanned.
bool reuseCached(TUJob &Job, ResultCache &Cache, ClaimSet &Claims) {
  if (Job.Plan.CacheKey.empty())
    return false;
  std::string Why;
  bool Corrupt = false;
  std::optional<TUResult> R =
      Cache.lookup(Job.File, Job.Plan.CacheKey, Why, Corrupt);
  if (!R) {
    Job.CacheLog = "cache: " + Why + "; ";
    if (Corrupt)
      Job.Result.CacheNote = "the cache entry of '" + Job.File +
                             "' was ignored: " + Why + "; scanned again";
    return false;
  }
  std::vector<std::string> Taken;
  for (const std::string &Key : R->UnitsOwned) {
    if (!Claims.claim(Key))
      break;
    Taken.push_back(Key);
  }
  if (Taken.size() != R->UnitsOwned.size()) {
    Claims.release(Taken);
    Job.CacheLog = "cache: another cached TU claims its header code; ";
    return false;
  }
  Job.Result = std::move(*R);
  Job.Result.File = Job.File;
  return true;
}

/// The cached jobs of \p Cached that must be scanned again: those that met
/// header code (a unit) which no result claims any longer, because the TU
/// that claimed it last time changed and no longer has it. Each takes what
/// it met, so a later one in file order leaves it to it.
std::vector<TUJob *> orphanedCached(llvm::ArrayRef<TUJob> Jobs,
                                    llvm::ArrayRef<TUJob *> Cached) {
  llvm::StringSet<> Owned;
  for (const TUJob &Job : Jobs)
    for (const std::string &Key : Job.Result.UnitsOwned)
      Owned.insert(Key);
  std::vector<TUJob *> Rescan;
  for (TUJob *Job : Cached) {
    bool Orphans =
        llvm::any_of(Job->Result.UnitsContained, [&](const std::string &Key) {
          return !Owned.contains(Key);
        });
    if (!Orphans)
      continue;
    Rescan.push_back(Job);
    // Claimed by this rescan first, so the others leave them to it.
    for (const std::string &Key : Job->Result.UnitsContained)
      Owned.insert(Key);
    Job->CacheLog = "cache: header code it had left to another TU is now "
                    "its to analyse; ";
  }
  return Rescan;
}

} // namespace

std::vector<TUResult> scanFiles(const CompilationDatabase &DB,
                                const std::vector<std::string> &Files,
                                const ScanOptions &Options, ClaimSet &Claims,
                                const ProgressFn &Progress) {
  std::vector<TUJob> Jobs = planTUs(DB, Files, Options);
  enableCrashRecovery();

  // The cache's results, in file order; their header units are claimed
  // for them before any TU is parsed.
  std::vector<TUJob *> Cached, Fresh;
  for (TUJob &Job : Jobs) {
    bool Reused = Options.Cache && reuseCached(Job, *Options.Cache, Claims);
    (Reused ? Cached : Fresh).push_back(&Job);
  }
  if (Options.Verbose)
    for (const TUJob *Job : Cached)
      llvm::errs() << "wrapguard: " << Job->File << ": reused from the cache\n";
  ScanRun Run{DB, Options, Claims, Progress};
  scanSome(Run, Fresh, Fresh.size());

  // Header code a cached TU met, that the TU which claimed it last time no
  // longer has (it changed), is analysed by no one: rescan a cached TU that
  // has it, first in file order. Each round claims what it finds.
  for (unsigned Round = 0; Round < MaxRescanRounds && !Cached.empty();
       ++Round) {
    std::vector<TUJob *> Rescan = orphanedCached(Jobs, Cached);
    if (Rescan.empty())
      break;
    llvm::erase_if(Cached,
                   [&](TUJob *Job) { return llvm::is_contained(Rescan, Job); });
    for (TUJob *Job : Rescan)
      Claims.release(Job->Result.UnitsOwned);
    scanSome(Run, Rescan, Fresh.size() + Rescan.size());
  }

  std::vector<TUResult> Results;
  Results.reserve(Jobs.size());
  for (TUJob &Job : Jobs)
    Results.push_back(std::move(Job.Result));
  return Results;
}

} // namespace wrapguard
