// ExitsElsewhere: which functions a TU sees without a definition may never
// return elsewhere, and which definitions never return provided they do.

#include "ExitsElsewhere.h"
#include "TestAST.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"
#include <map>
#include <string>

namespace wrapguard {
namespace {

using namespace clang;

TEST(ExitsElsewhere, ReadsWhatDefinitionsNeed) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    void fatal(const char *);            // defined elsewhere
    int value(const char *);             // returns a value: not an exit
    [[noreturn]] void declared(const char *);
    static void local_only(const char *); // cannot be defined elsewhere
    struct Log { virtual void fail(); void stop(); };
    void die(int code) { if (code) fatal("a"); fatal("b"); }
    void maybe(int code) { if (code) fatal("a"); }
    void through(int code) { die(code); }
    void both(Log &l) { l.stop(); }
    void virt(Log &l) { l.fail(); }
    void own() { throw 1; }
    void uses_value() { value("x"); }
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  std::map<std::string, std::string> If, Elsewhere;
  struct Walker : RecursiveASTVisitor<Walker> {
    ASTContext &Ctx;
    std::map<std::string, std::string> &If, &Elsewhere;
    Walker(ASTContext &Ctx, std::map<std::string, std::string> &If,
           std::map<std::string, std::string> &Elsewhere)
        : Ctx(Ctx), If(If), Elsewhere(Elsewhere) {}
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (!Ctx.getSourceManager().isInMainFile(FD->getLocation()))
        return true;
      std::string Name = FD->getNameAsString();
      if (FD->doesThisDeclarationHaveABody()) {
        std::string Keys;
        for (const std::string &K : neverReturnsIf(*FD, Ctx))
          Keys += K.substr(K.rfind('@') + 1) + ";";
        If[Name] = Keys;
      } else if (!FD->hasBody()) {
        Elsewhere[Name] =
            mayBeDefinedElsewhere(*FD, Ctx.getSourceManager()) ? "yes" : "no";
      }
      return true;
    }
  } W(Ctx, If, Elsewhere);
  W.TraverseAST(Ctx);
  EXPECT_EQ(Elsewhere["fatal"], "yes");
  EXPECT_EQ(Elsewhere["value"], "no");
  EXPECT_EQ(Elsewhere["declared"], "no");
  EXPECT_EQ(Elsewhere["local_only"], "no");
  EXPECT_EQ(Elsewhere["fail"], "no");
  EXPECT_EQ(Elsewhere["stop"], "yes");
  EXPECT_EQ(If["die"], "fatal#*1C#;");
  EXPECT_EQ(If["maybe"], "");
  EXPECT_EQ(If["through"], "fatal#*1C#;");
  EXPECT_EQ(If["both"], "stop#;");
  EXPECT_EQ(If["virt"], "");
  EXPECT_EQ(If["own"], ""); // never returns by itself
  EXPECT_EQ(If["uses_value"], "");
}

TEST(ExitsElsewhere, TruthParametersAreTheFirstBoolElseTheFirstInteger) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    enum Level { Low, High };
    void Assert(const char *what, bool ok);
    void check(int ok, const char *what);
    void mixed(long n, bool ok);
    void text(char c, const char *what);
    void level(Level l, unsigned n);
    void none(const char *what, double x);
  )cc");
  ASSERT_TRUE(AST);
  std::map<std::string, int> Param;
  struct Walker : RecursiveASTVisitor<Walker> {
    std::map<std::string, int> &Param;
    explicit Walker(std::map<std::string, int> &Param) : Param(Param) {}
    bool VisitFunctionDecl(FunctionDecl *FD) {
      std::optional<unsigned> P = truthParameter(*FD);
      Param[FD->getNameAsString()] = P ? static_cast<int>(*P) : -1;
      return true;
    }
  } W(Param);
  W.TraverseAST(AST->getASTContext());
  EXPECT_EQ(Param["Assert"], 1);
  EXPECT_EQ(Param["check"], 0);
  EXPECT_EQ(Param["mixed"], 1); // a bool comes first
  EXPECT_EQ(Param["text"], -1); // a character is no truth value
  EXPECT_EQ(Param["level"], 1); // nor an enumerator
  EXPECT_EQ(Param["none"], -1);
}

TEST(ExitsElsewhere, MayNeverReturnIsACheapNecessaryTest) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    void fatal(const char *);
    int g;
    void calls() { fatal("x"); }
    void throws() { throw 1; }
    void branches(int c) { if (c) fatal("a"); else fatal("b"); }
    void returns(int c) { if (c) return; fatal("x"); }
    void assigns() { fatal("x"); g = 1; }
    void declares() { fatal("x"); int x = 0; (void)x; }
    void lambda_returns() { auto l = [] { return 1; }; (void)l; fatal("x"); }
    void empty() {}
  )cc");
  ASSERT_TRUE(AST);
  std::map<std::string, bool> May;
  struct Walker : RecursiveASTVisitor<Walker> {
    std::map<std::string, bool> &May;
    ASTContext &Ctx;
    Walker(std::map<std::string, bool> &May, ASTContext &Ctx)
        : May(May), Ctx(Ctx) {}
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (FD->doesThisDeclarationHaveABody() &&
          Ctx.getSourceManager().isInMainFile(FD->getLocation()) &&
          !isa<CXXMethodDecl>(FD))
        May[FD->getNameAsString()] = mayNeverReturn(*FD);
      return true;
    }
  } W(May, AST->getASTContext());
  W.TraverseAST(AST->getASTContext());
  EXPECT_TRUE(May["calls"]);
  EXPECT_TRUE(May["throws"]);
  EXPECT_TRUE(May["branches"]);
  EXPECT_TRUE(May["lambda_returns"]);
  EXPECT_FALSE(May["returns"]);
  EXPECT_FALSE(May["assigns"]);
  EXPECT_FALSE(May["declares"]);
  EXPECT_FALSE(May["empty"]);
}

} // namespace
} // namespace wrapguard
