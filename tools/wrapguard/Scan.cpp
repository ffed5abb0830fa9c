//===- Scan.cpp - Runs clang-tidy's machinery over many TUs ---------------===//

#include "Scan.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <mutex>
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
    TraverseDecl(Ctx.getTranslationUnitDecl());
    for (const Target &T : Targets)
      if (T.Best)
        Out[{SM->getFilename(T.Loc).str(), SM->getFileOffset(T.Loc)}] =
            T.Best->getQualifiedNameAsString();
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

/// clang-tidy's own action (see runClangTidy), plus the FunctionLocator.
class TidyActionFactory : public FrontendActionFactory {
public:
  TidyActionFactory(
      ClangTidyContext &Context,
      IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
      std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending,
      std::map<std::pair<std::string, unsigned>, std::string> &Functions)
      : ConsumerFactory(Context, std::move(BaseFS)), Pending(Pending),
        Functions(Functions) {}

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
    return FrontendActionFactory::runInvocation(Invocation, Files,
                                                PCHContainerOps, DiagConsumer);
  }

private:
  class Action : public ASTFrontendAction {
  public:
    explicit Action(TidyActionFactory &Parent) : Parent(Parent) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                   StringRef File) override {
      std::vector<std::unique_ptr<ASTConsumer>> Consumers;
      Consumers.push_back(
          Parent.ConsumerFactory.createASTConsumer(Compiler, File));
      // After the checks, so every diagnostic has been recorded.
      Consumers.push_back(
          std::make_unique<FunctionLocator>(Parent.Pending, Parent.Functions));
      return std::make_unique<MultiplexConsumer>(std::move(Consumers));
    }

  private:
    TidyActionFactory &Parent;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
  std::vector<std::pair<const SourceManager *, SourceLocation>> &Pending;
  std::map<std::pair<std::string, unsigned>, std::string> &Functions;
};

TUResult scanOne(const CompilationDatabase &DB, const std::string &File,
                 const ScanOptions &Options) {
  TUResult Out;
  Out.File = File;

  // A physical file system whose working directory is its own: the shared
  // real file system follows the process's directory, and ClangTool changes
  // it to each command's directory, which would race between threads.
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  auto BaseFS =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);

  std::unique_ptr<ClangTidyOptionsProvider> Files;
  if (Options.Config)
    Files = std::make_unique<ConfigOptionsProvider>(
        Options.Global, Options.Defaults, *Options.Config, Options.Overrides,
        Physical);
  else
    Files = std::make_unique<FileOptionsProvider>(
        Options.Global, Options.Defaults, Options.Overrides, Physical);
  auto Provider = std::make_unique<HeaderDefaultProvider>(
      std::move(Files), Options.SourceRootHeaders ? ".*" : "");
  Out.HeadersUnderSourceRoot =
      Options.SourceRootHeaders && !Provider->configuresHeaders(File);
  ClangTidyContext Context(std::move(Provider));

  ClangTool Tool(DB, {File}, std::make_shared<PCHContainerOperations>(),
                 BaseFS);
  Tool.appendArgumentsAdjuster(
      [&Context](const CommandLineArguments &Args, StringRef Filename) {
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
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());

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

  TidyActionFactory Factory(Context, BaseFS, Pending, Out.Functions);
  // The check hands this TU's facts and candidates over here; the TU runs
  // entirely on this thread.
  scannerEvidence() = &Out.Evidence;
  int Status = Tool.run(&Factory);
  scannerEvidence() = nullptr;
  Out.Errors = TidyConsumer.take();
  Out.Parsed = Status == 0 && llvm::none_of(Out.Errors, isCompilerError);
  return Out;
}

} // namespace

std::vector<TUResult> scanFiles(const CompilationDatabase &DB,
                                const std::vector<std::string> &Files,
                                const ScanOptions &Options,
                                const ProgressFn &Progress) {
  std::vector<TUResult> Results(Files.size());
  std::mutex ProgressMutex;
  unsigned Done = 0, Findings = 0;

  // Each TU writes only its own slot, so the results come back in the order
  // of Files whatever the scheduling.
  auto ScanTU = [&](size_t I) {
    Results[I] = scanOne(DB, Files[I], Options);
#if defined(__GLIBC__)
    // A TU's AST is freed here, but glibc keeps the pages of its
    // per-thread arenas; without this the process holds on to its peak
    // across TUs, where run-clang-tidy's processes give theirs back at exit.
    malloc_trim(0);
#endif
    std::lock_guard<std::mutex> Lock(ProgressMutex);
    ++Done;
    for (const ClangTidyError &E : Results[I].Errors)
      if (!isCompilerError(E))
        ++Findings;
    if (Progress)
      Progress(Done, Files.size(), Findings);
  };

  unsigned Jobs = std::max(1u, std::min<unsigned>(Options.Jobs, Files.size()));
  if (Jobs == 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      ScanTU(I);
    return Results;
  }
  // Deeply nested code recurses deeply in the parser; the pool's threads
  // get the platform's default stack, the main thread's 8 MiB here
  // (test/scanner/deep-nesting.test keeps that honest).
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Files.size(); ++I)
    Pool.async(ScanTU, I);
  Pool.wait();
  return Results;
}

} // namespace wrapguard
