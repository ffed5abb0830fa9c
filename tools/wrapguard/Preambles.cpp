//===- Preambles.cpp - One parse of the headers a group of TUs shares -----===//

#include "Preambles.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include <chrono>

using namespace clang;

namespace wrapguard {

namespace {

/// C++ as far as finding the preamble goes: which directives lead the file.
LangOptions cxxLangOptions() {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.LineComment = true;
  return LO;
}

/// A directive at the start of a line: its `#` and its name's token.
struct Directive {
  Token Hash, Name;
};

/// Calls \p F for each directive in the raw lexer's range.
template <class Fn> void forEachDirective(Lexer &L, Fn F) {
  Token Tok;
  L.LexFromRawLexer(Tok);
  while (Tok.isNot(tok::eof)) {
    if (Tok.is(tok::hash) && Tok.isAtStartOfLine()) {
      Token Name;
      L.LexFromRawLexer(Name);
      if (Name.is(tok::raw_identifier))
        F(Directive{Tok, Name});
      Tok = Name;
      if (Tok.is(tok::eof))
        break;
      continue;
    }
    L.LexFromRawLexer(Tok);
  }
}

} // namespace

PreambleRegion inspectPreamble(llvm::StringRef Text) {
  LangOptions LO = cxxLangOptions();
  PreambleBounds B = Lexer::ComputePreamble(Text, LO, 0);
  PreambleRegion R;
  R.Size = B.Size;
  R.EndsAtStartOfLine = B.PreambleEndsAtStartOfLine;
  if (!R.Size) {
    R.Unshareable = "it starts with no directive";
    return R;
  }
  bool Includes = false;
  // The raw lexer wants a NUL at the end of what it lexes.
  std::string Region = Text.take_front(R.Size).str();
  Lexer L(SourceLocation(), LO, Region.c_str(), Region.c_str(),
          Region.c_str() + Region.size());
  forEachDirective(L, [&](const Directive &D) {
    llvm::StringRef Name = D.Name.getRawIdentifier();
    if (Name == "define" || Name == "undef")
      R.Unshareable = "its first lines define macros";
    Includes |= Name == "include" || Name == "import";
  });
  if (R.Unshareable.empty() && !Includes)
    R.Unshareable = "its first lines include nothing";
  if (!R.Unshareable.empty())
    return R;

  // The directives alone: each from its '#' to its last token, one a line.
  // Token locations here are offsets (no source manager).
  Lexer C(SourceLocation(), LO, Region.c_str(), Region.c_str(),
          Region.c_str() + Region.size());
  C.SetCommentRetentionState(true);
  std::optional<unsigned> Begin;
  unsigned End = 0;
  auto Flush = [&] {
    if (Begin)
      R.Directives += Region.substr(*Begin, End - *Begin) + "\n";
    Begin.reset();
  };
  Token Tok;
  for (C.LexFromRawLexer(Tok); Tok.isNot(tok::eof); C.LexFromRawLexer(Tok)) {
    unsigned Offset = Tok.getLocation().getRawEncoding();
    if (Tok.isAtStartOfLine())
      Flush();
    if (Tok.is(tok::comment)) {
      // The copy the TU is parsed from drops comments; a NOLINTBEGIN here
      // must stay where clang-tidy reads it.
      if (llvm::StringRef(Region)
              .substr(Offset, Tok.getLength())
              .contains("NOLINT"))
        R.Unshareable = "its first comments hold a NOLINT";
      continue;
    }
    if (Tok.isAtStartOfLine())
      Begin = Offset;
    End = Offset + Tok.getLength();
  }
  Flush();
  if (R.Directives.size() > R.Size ||
      llvm::StringRef(R.Directives).count('\n') >
          llvm::StringRef(Region).count('\n'))
    R.Directives = Region; // No room to pad: only identical files share.
  return R;
}

std::unique_ptr<llvm::MemoryBuffer> withDirectivesOnly(llvm::StringRef Text,
                                                       const PreambleRegion &R,
                                                       llvm::StringRef Name) {
  size_t Lines = Text.take_front(R.Size).count('\n') -
                 llvm::StringRef(R.Directives).count('\n');
  size_t Blanks = R.Size - R.Directives.size() - Lines;
  std::string Copy = R.Directives;
  Copy.append(Blanks, ' ');
  Copy.append(Lines, '\n');
  Copy += Text.drop_front(R.Size);
  return llvm::MemoryBuffer::getMemBufferCopy(Copy, Name);
}

void replayPreambleIncludes(Preprocessor &PP, unsigned Size) {
  PPCallbacks *Callbacks = PP.getPPCallbacks();
  if (!Callbacks || !Size)
    return;
  SourceManager &SM = PP.getSourceManager();
  FileID Main = SM.getMainFileID();
  llvm::MemoryBufferRef Buffer = SM.getBufferOrFake(Main);
  // The raw lexer wants a NUL at the end of what it lexes; token locations
  // are the copy's offsets from the main file's start.
  std::string Copy = Buffer.getBuffer().take_front(Size).str();
  llvm::StringRef Text = Copy;
  SourceLocation Start = SM.getLocForStartOfFile(Main);
  Lexer L(Start, PP.getLangOpts(), Copy.c_str(), Copy.c_str(),
          Copy.c_str() + Copy.size());
  forEachDirective(L, [&](const Directive &D) {
    llvm::StringRef Name = D.Name.getRawIdentifier();
    if (Name != "include" && Name != "import" && Name != "include_next")
      return;
    // The file name as written: <...> or "..." on the directive's line.
    unsigned After = SM.getFileOffset(D.Name.getEndLoc());
    size_t Open = Text.find_first_not_of(" \t", After);
    if (Open == llvm::StringRef::npos ||
        (Text[Open] != '<' && Text[Open] != '"'))
      return;
    size_t Close =
        Text.find_first_of(Text[Open] == '<' ? ">\n" : "\"\n", Open + 1);
    if (Close == llvm::StringRef::npos || Text[Close] == '\n')
      return;
    llvm::StringRef FileName = Text.slice(Open + 1, Close);
    CharSourceRange Range = CharSourceRange::getCharRange(
        Start.getLocWithOffset(Open), Start.getLocWithOffset(Close + 1));
    Callbacks->InclusionDirective(
        D.Hash.getLocation(), D.Name, FileName, Text[Open] == '<', Range,
        /*File=*/std::nullopt, /*SearchPath=*/"", /*RelativePath=*/"",
        /*SuggestedModule=*/nullptr, /*ModuleImported=*/false, SrcMgr::C_User);
  });
}

namespace {

/// Skips the bodies of functions in system headers while the preamble is
/// built: the check reads none of them, and they are most of LibTorch.
class SkipSystemBodies : public PreambleCallbacks {
public:
  void BeforeExecute(CompilerInstance &CI) override {
    SM = &CI.getSourceManager();
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    return SM && SM->isInSystemHeader(D->getLocation());
  }

private:
  const SourceManager *SM = nullptr;
};

} // namespace

struct PreambleStore::Group {
  std::mutex Lock;
  std::condition_variable Ready;
  enum { Unbuilt, Building, Built, Failed } State = Unbuilt;
  std::shared_ptr<const PrecompiledPreamble> Preamble;
  std::string Why;
  unsigned Remaining = 0;
};

PreambleStore::PreambleStore(std::vector<unsigned> Members, std::string Dir)
    : Dir(std::move(Dir)) {
  for (unsigned N : Members) {
    Groups.push_back(std::make_unique<Group>());
    Groups.back()->Remaining = N;
  }
}

PreambleStore::~PreambleStore() = default;

std::shared_ptr<const PrecompiledPreamble>
PreambleStore::get(unsigned G, const CompilerInvocation &Invocation,
                   const llvm::MemoryBuffer &Main, PreambleBounds Bounds,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                   std::string &Why, bool &Built) {
  Group &Grp = *Groups[G];
  Built = false;
  {
    std::unique_lock<std::mutex> Guard(Grp.Lock);
    Grp.Ready.wait(Guard, [&] { return Grp.State != Group::Building; });
    if (Grp.State != Group::Unbuilt) {
      Why = Grp.Why;
      return Grp.Preamble;
    }
    Grp.State = Group::Building;
  }

  auto Start = std::chrono::steady_clock::now();
  auto Copy = std::make_shared<CompilerInvocation>(Invocation);
  Copy->getFrontendOpts().SkipFunctionBodies = true;
  // Comments are not read from the preamble; writing them costs time.
  Copy->getPreprocessorOpts().WriteCommentListToPCH = false;
  DiagnosticOptions *DiagOpts = new DiagnosticOptions();
  IgnoringDiagConsumer Ignore;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(DiagOpts, &Ignore,
                                          /*ShouldOwnClient=*/false);
  SkipSystemBodies Callbacks;
  std::optional<PrecompiledPreamble> Result;
  std::string Error;
  // A crash while building falls back to parsing each TU whole, where the
  // crash, if it is one, is that TU's.
  llvm::CrashRecoveryContext CRC;
  bool Finished = CRC.RunSafely([&] {
    llvm::ErrorOr<PrecompiledPreamble> P =
        PrecompiledPreamble::Build(*Copy, &Main, Bounds, *Diags, VFS,
                                   std::make_shared<PCHContainerOperations>(),
                                   /*StoreInMemory=*/false, Dir, Callbacks);
    if (!P)
      Error = P.getError().message();
    else if (Diags->hasErrorOccurred())
      // The TUs would not see the errors again; they parse whole and say.
      Error = "the include block does not compile";
    else
      Result.emplace(std::move(*P));
  });
  if (!Finished)
    Error = "building it crashed";
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  {
    std::lock_guard<std::mutex> Guard(StatsLock);
    BuildSeconds += Seconds;
  }

  std::lock_guard<std::mutex> Guard(Grp.Lock);
  if (Result) {
    Grp.State = Group::Built;
    Grp.Preamble =
        std::make_shared<const PrecompiledPreamble>(std::move(*Result));
  } else {
    Grp.State = Group::Failed;
    Grp.Why = "no preamble: " + Error;
  }
  Grp.Ready.notify_all();
  Built = Grp.State == Group::Built;
  Why = Grp.Why;
  return Grp.Preamble;
}

void PreambleStore::done(unsigned G) {
  Group &Grp = *Groups[G];
  std::lock_guard<std::mutex> Guard(Grp.Lock);
  if (Grp.Remaining && --Grp.Remaining == 0)
    Grp.Preamble.reset(); // Its file goes with it.
}

double PreambleStore::buildSeconds() const {
  std::lock_guard<std::mutex> Guard(StatsLock);
  return BuildSeconds;
}

} // namespace wrapguard
