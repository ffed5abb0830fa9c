#include "TestAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace wrapguard::test {

std::map<unsigned, Expect> parseExpectations(llvm::StringRef Code) {
  std::map<unsigned, Expect> Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  Code.split(Lines, '\n');
  for (unsigned I = 0; I < Lines.size(); ++I) {
    if (Lines[I].contains("// [[unsafe]]"))
      Out[I + 1] = Expect::Unsafe;
    else if (Lines[I].contains("// [[always]]"))
      Out[I + 1] = Expect::Always;
  }
  return Out;
}

std::unique_ptr<ASTUnit> parse(llvm::StringRef Code) {
  std::vector<std::string> Args = {
      "-std=c++17", "-fsyntax-only",
      "-resource-dir=" WRAPGUARD_CLANG_RESOURCE_DIR};
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, Args, "input.cpp");
  if (!AST) {
    ADD_FAILURE() << "could not build an AST";
    return nullptr;
  }
  if (AST->getDiagnostics().hasErrorOccurred()) {
    ADD_FAILURE() << "the test's code does not compile:\n" << Code.str();
    return nullptr;
  }
  return AST;
}

std::vector<FunctionResult> analyzeAll(ASTUnit &AST,
                                       const AnalysisOptions &Options) {
  ASTContext &Ctx = AST.getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Functions;
  auto Matches =
      match(functionDecl(isDefinition(), unless(isImplicit())).bind("f"), Ctx);
  for (const BoundNodes &N : Matches)
    if (const auto *FD = N.getNodeAs<FunctionDecl>("f"))
      Functions.push_back(FD);
  for (const BoundNodes &N : match(lambdaExpr().bind("l"), Ctx))
    if (const auto *L = N.getNodeAs<LambdaExpr>("l"))
      Functions.push_back(L->getCallOperator());

  std::vector<FunctionResult> Results;
  std::set<const FunctionDecl *> Seen;
  PolicyCallAnalyzer Analyzer(Ctx, Options);
  for (const FunctionDecl *FD : Functions) {
    if (!Seen.insert(FD).second ||
        !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      continue;
    if (!FD->hasBody() || FD->isDependentContext())
      continue;
    FunctionResult R;
    R.Name = FD->getNameAsString();
    R.Findings = Analyzer.analyze(*FD, &R.Status, &R.Why);
    Results.push_back(std::move(R));
  }
  return Results;
}

std::map<unsigned, Expect>
findingsByLine(ASTUnit &AST, const std::vector<FunctionResult> &R) {
  const SourceManager &SM = AST.getSourceManager();
  std::map<unsigned, Expect> Out;
  for (const FunctionResult &F : R)
    for (const Finding &Fi : F.Findings) {
      unsigned Line = SM.getSpellingLineNumber(Fi.Loc);
      Expect E = Fi.AlwaysEmpty ? Expect::Always : Expect::Unsafe;
      auto [It, New] = Out.emplace(Line, E);
      // A template instantiated twice may find the same spelling twice; two
      // different verdicts on one line are a bug.
      EXPECT_TRUE(New || It->second == E) << "two verdicts on line " << Line;
    }
  return Out;
}

const FunctionResult *find(const std::vector<FunctionResult> &R,
                           llvm::StringRef Name) {
  for (const FunctionResult &F : R)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

std::string describe(const std::map<unsigned, Expect> &M) {
  std::string S;
  for (const auto &[Line, E] : M)
    S += "  line " + std::to_string(Line) +
         (E == Expect::Always ? ": always\n" : ": unsafe\n");
  return S.empty() ? "  (none)\n" : S;
}

} // namespace wrapguard::test
