// ComparisonHelpers: which functions return null exactly when two of their
// parameters compare, which hand back their argument, and which classes
// wrap such a result's truth.

#include "ComparisonHelpers.h"
#include "TestAST.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"
#include <map>
#include <string>

namespace wrapguard {
namespace {

using namespace clang;

/// Function name -> its summary as "LHS op RHS null|nonnull", or "<none>".
std::map<std::string, std::string> summaries(ASTUnit &AST) {
  std::map<std::string, std::string> Out;
  struct Walker : RecursiveASTVisitor<Walker> {
    std::map<std::string, std::string> &Out;
    explicit Walker(std::map<std::string, std::string> &Out) : Out(Out) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
        return true;
      std::optional<ComparisonResult> S = comparisonHelper(*FD);
      Out[FD->getNameAsString()] =
          S ? std::to_string(S->LHS) + " " +
                  BinaryOperator::getOpcodeStr(S->Op).str() + " " +
                  std::to_string(S->RHS) +
                  (S->NullWhenTrue ? " null" : " nonnull")
            : "<none>";
      return true;
    }
  } W(Out);
  W.TraverseAST(AST.getASTContext());
  return Out;
}

TEST(ComparisonHelpers, ReadsTheComparisonFromTheBody) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    #include <string>
    std::string *message(const char *);
    template <class A, class B>
    std::string *eq_impl(const A &a, const B &b, const char *t) {
      if (__builtin_expect(!!(a == b), 1)) return nullptr;
      else return message(t);
    }
    std::string *eq_int(int a, int b, const char *t) {
      return eq_impl<int, int>(a, b, t);
    }
    std::string *swapped(const char *t, long x, long y) {
      return eq_impl(y, x, t);
    }
    const char *lt(int a, int b) {
      if (a < b) { return "less"; }
      return 0;
    }
    const char *negated(int a, int b) {
      if (!(a != b)) return nullptr;
      return "differ";
    }
    const char *both_null(int a, int b) {
      if (a == b) return nullptr;
      return nullptr;
    }
    const char *same_parameter(int a, int b) {
      if (a == a) return nullptr;
      return "x";
    }
    const char *not_parameters(int a, int b) {
      if (a == b + 1) return nullptr;
      return "x";
    }
    bool returns_bool(int a, int b) {
      if (a == b) return false;
      return true;
    }
    const char *more(int a, int b) {
      int c = a;
      if (c == b) return nullptr;
      return "x";
    }
    void use() { eq_impl(1L, 2, "t"); }
  )cc");
  ASSERT_TRUE(AST);
  auto S = summaries(*AST);
  EXPECT_EQ(S["eq_impl"], "0 == 1 null");
  EXPECT_EQ(S["eq_int"], "0 == 1 null");
  EXPECT_EQ(S["swapped"], "2 == 1 null");
  EXPECT_EQ(S["lt"], "0 < 1 nonnull");
  EXPECT_EQ(S["negated"], "0 != 1 nonnull");
  EXPECT_EQ(S["both_null"], "<none>");
  EXPECT_EQ(S["same_parameter"], "<none>");
  EXPECT_EQ(S["not_parameters"], "<none>");
  EXPECT_EQ(S["returns_bool"], "<none>");
  EXPECT_EQ(S["more"], "<none>");
}

TEST(ComparisonHelpers, ALambdaComparingItsEnclosingParametersIsNone) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    const char *outer(int a, int b) {
      auto own = [](int x, int y) -> const char * {
        if (x == y) return nullptr;
        return "differ";
      };
      auto captured = [&](int x, int y) -> const char * {
        if (a == b) return nullptr;
        return "differ";
      };
      own(1, 2);
      return captured(a, b);
    }
  )cc");
  ASSERT_TRUE(AST);
  std::vector<std::string> Out;
  struct Walker : RecursiveASTVisitor<Walker> {
    std::vector<std::string> &Out;
    explicit Walker(std::vector<std::string> &Out) : Out(Out) {}
    bool VisitLambdaExpr(LambdaExpr *L) {
      Out.push_back(comparisonHelper(*L->getCallOperator()) ? "helper"
                                                            : "<none>");
      return true;
    }
  } W(Out);
  W.TraverseAST(AST->getASTContext());
  EXPECT_EQ(Out, (std::vector<std::string>{"helper", "<none>"}));
}

/// Variable name -> what its initialiser's first argument is after
/// forwarders ("forwarded" tests), or whether it wraps a pointer's truth.
TEST(ComparisonHelpers, ForwardersAndTruthWrappers) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    #include <string>
    template <class T> const T &ref(const T &t) { return t; }
    int twice(int t) { return t + t; }
    std::string *make();
    struct Wrap {
      Wrap(std::string *s) : str_(s) {}
      operator bool() const { return __builtin_expect(str_ != nullptr, 0); }
      std::string *str_;
    };
    struct Plain {
      Plain(std::string *s) : str_(s) {}
      explicit operator bool() const { return str_; }
      std::string *str_;
    };
    struct Other {
      Other(std::string *s) : str_(s), other_(nullptr) {}
      operator bool() const { return other_ != nullptr; }
      std::string *str_;
      std::string *other_;
    };
    struct Inverted {
      Inverted(std::string *s) : str_(s) {}
      operator bool() const { return str_ == nullptr; }
      std::string *str_;
    };
    int k = 3;
    int a = ref(ref(k));
    int b = twice(k);
    Wrap w = make();
    Plain p = make();
    Other o = make();
    Inverted i = make();
  )cc");
  ASSERT_TRUE(AST);
  std::map<std::string, std::string> Out;
  struct Walker : RecursiveASTVisitor<Walker> {
    std::map<std::string, std::string> &Out;
    explicit Walker(std::map<std::string, std::string> &Out) : Out(Out) {}
    bool VisitVarDecl(VarDecl *V) {
      if (!V->getInit() || isa<ParmVarDecl>(V))
        return true;
      if (const auto *RD = V->getType()->getAsCXXRecordDecl()) {
        for (const Decl *D : RD->decls())
          if (const auto *Conv = dyn_cast<CXXConversionDecl>(D))
            Out[V->getNameAsString()] =
                wrappedPointer(*V, *Conv) ? "wraps" : "<none>";
        return true;
      }
      const Expr &F = forwardedValue(*V->getInit());
      const auto *DRE = dyn_cast<DeclRefExpr>(&F);
      Out[V->getNameAsString()] =
          DRE ? DRE->getDecl()->getNameAsString() : "<call>";
      return true;
    }
  } W(Out);
  W.TraverseAST(AST->getASTContext());
  EXPECT_EQ(Out["a"], "k");
  EXPECT_EQ(Out["b"], "<call>");
  EXPECT_EQ(Out["w"], "wraps");
  EXPECT_EQ(Out["p"], "wraps");
  EXPECT_EQ(Out["o"], "<none>");
  EXPECT_EQ(Out["i"], "<none>");
}

} // namespace
} // namespace wrapguard
