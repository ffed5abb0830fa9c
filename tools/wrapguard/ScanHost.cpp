//===- ScanHost.cpp - The check's host in the scanner ---------------------===//

#include "ScanHost.h"
#include "SourceKeys.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Compiler.h"

using namespace clang;

namespace wrapguard {

DiagnosticKey DiagnosticKey::of(const Finding &F, const SourceManager &SM) {
  // As clang-tidy's diagnostic consumer records the location: at the file
  // location, the outermost expansion of a macro.
  SourceLocation L = SM.getFileLoc(F.Loc);
  return {SM.getFilename(L).str(), SM.getFileOffset(L), F.Message};
}

DiagnosticKey DiagnosticKey::of(const tidy::ClangTidyError &E) {
  return {E.Message.FilePath, E.Message.FileOffset, E.Message.Message};
}

std::vector<const HandedCandidate *>
TUEvidence::candidatesOf(const tidy::ClangTidyError &E) const {
  std::vector<const HandedCandidate *> Out;
  if (E.DiagnosticName != "wrapguard-unchecked-policy-call")
    return Out;
  DiagnosticKey Key = DiagnosticKey::of(E);
  for (const HandedCandidate &C : Candidates)
    if (C.Diagnostic == Key)
      Out.push_back(&C);
  return Out;
}

void ScanHost::beginFunction(const FunctionDecl &FD) {
  Analysing = &FD;
  if (!CrashIn.empty() && FD.getQualifiedNameAsString() == CrashIn)
    LLVM_BUILTIN_TRAP;
}

void ScanHost::endFunction(const FunctionDecl &FD, AnalysisStatus Status) {
  Analysing = nullptr;
  if (Status == AnalysisStatus::Analyzed)
    ++Evidence.Analysed;
}

void ScanHost::skippedFunction(const FactLoc &Where, const SkipReason &Why) {
  Evidence.Skipped.push_back({Where, Why});
}

void ScanHost::reported(const Finding &F, const SourceManager &SM) {
  Decided.insert(DiagnosticKey::of(F, SM));
}

void ScanHost::endTranslationUnit(ProjectFacts &&TUFacts,
                                  llvm::ArrayRef<Finding> Candidates,
                                  const SourceManager &SM, EmitFinding Emit) {
  Evidence.Facts.merge(std::move(TUFacts));
  for (const Finding &F : Candidates) {
    DiagnosticKey Key = DiagnosticKey::of(F, SM);
    // A finding the TU decided, reported as the same diagnostic (two calls
    // in one macro expansion), stands for the candidate: clang-tidy keeps
    // one of the two, and the scanner kept the decided one.
    if (Decided.count(Key) || !Emit(F, {}))
      continue;
    Evidence.Candidates.push_back(
        {*F.Deferred, factLoc(F.OriginLoc, SM, nullptr), std::move(Key)});
  }
}

} // namespace wrapguard
