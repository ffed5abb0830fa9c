// CompiledOutAssertions: which statements are assertion macros compiled out
// of the build, and which of their arguments state that a value is set.

#include "CompiledOutAssertions.h"
#include "TestAST.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"
#include <map>
#include <string>

namespace wrapguard {
namespace {

using namespace clang;

TEST(CompiledOutAssertions, StatesSet) {
  EXPECT_TRUE(statesSet("f", "f"));
  EXPECT_TRUE(statesSet("cb.f != nullptr", "cb.f"));
  EXPECT_TRUE(statesSet("NULL != p->fn", "p->fn"));
  EXPECT_TRUE(statesSet("(n > 0) && (f)", "f"));
  EXPECT_TRUE(statesSet("!!f", "f"));
  EXPECT_TRUE(statesSet("static_cast<bool>( f )", "f"));
  EXPECT_FALSE(statesSet("!f", "f"));
  EXPECT_FALSE(statesSet("f == nullptr", "f"));
  EXPECT_FALSE(statesSet("f || g", "f"));
  EXPECT_FALSE(statesSet("ff", "f"));
  EXPECT_FALSE(statesSet("g(f)", "f"));
  EXPECT_FALSE(statesSet("f", ""));
}

/// Function name -> the compiled-out argument of its first statement.
std::map<std::string, std::string> firstStatements(llvm::StringRef Code) {
  std::map<std::string, std::string> Out;
  std::unique_ptr<ASTUnit> AST = test::parse(Code);
  if (!AST)
    return Out;
  struct Walker : RecursiveASTVisitor<Walker> {
    ASTContext &Ctx;
    std::map<std::string, std::string> &Out;
    Walker(ASTContext &Ctx, std::map<std::string, std::string> &Out)
        : Ctx(Ctx), Out(Out) {}
    bool VisitFunctionDecl(FunctionDecl *FD) {
      const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
      if (!Body || Body->body_empty() ||
          !Ctx.getSourceManager().isInMainFile(FD->getLocation()))
        return true;
      auto Arg = compiledOutMacroArgument(**Body->body_begin(), Ctx);
      Out[FD->getNameAsString()] = Arg ? *Arg : "<none>";
      return true;
    }
  } W(AST->getASTContext(), Out);
  W.TraverseAST(AST->getASTContext());
  return Out;
}

TEST(CompiledOutAssertions, ReadsWhatTheBuildLeftOut) {
  auto S = firstStatements(R"cc(
    #define GONE(c)
    #define VOID(c) ((void)0)
    #define LOOP(c, msg) do { } while (0)
    #define KEPT(c) ((c) ? (void)0 : abort_now())
    #define NOARGS
    #define DEAD(c) while (false) abort_if(c)
    #define SHORT(c) (!(0 && !(c)) ? (void)0 : abort_now())
    #define TAKEN(c) if (1) abort_if(c)
    void abort_if(bool);
    void abort_now();
    int g;
    void gone() { GONE(g != 0); }
    void void_cast() { VOID(  g  ); }
    void loop() { LOOP(g && 1, "message, with a comma"); }
    void kept() { KEPT(g); }
    void no_args() { NOARGS; }
    void dead() { DEAD(g > 1); }
    void short_circuit() { SHORT(g); }
    void taken() { TAKEN(g); }
    void plain() { ; }
    void code() { (void)0; }
  )cc");
  EXPECT_EQ(S["gone"], "g != 0");
  EXPECT_EQ(S["void_cast"], "g");
  EXPECT_EQ(S["loop"], "g && 1");
  EXPECT_EQ(S["kept"], "<none>");
  EXPECT_EQ(S["no_args"], "<none>");
  EXPECT_EQ(S["dead"], "g > 1");
  EXPECT_EQ(S["short_circuit"], "g");
  EXPECT_EQ(S["taken"], "<none>");
  EXPECT_EQ(S["plain"], "<none>");
  EXPECT_EQ(S["code"], "<none>");
}

} // namespace
} // namespace wrapguard
