// The engine driven directly, with inline expectations:
//   `f(m); // [[unsafe]]`  a possibly-empty finding on this line
//   `f(m); // [[always]]`  an always-empty finding on this line
// Every other line must have no finding.

#include "TestAST.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

namespace wrapguard {
namespace {

using test::Expect;

constexpr const char *Prelude = R"cc(
#include <functional>
#include <memory>
#include <utility>
using IntFn = std::function<int(int)>;
using FnPtr = int (*)(int);
int identity(int x) { return x; }
IntFn get_policy();
IntFn make_wrapper();
IntFn no_wrap_policy() { return nullptr; }
[[noreturn]] void fail();
)cc";

void expectFindings(llvm::StringRef Body,
                    const AnalysisOptions &Options = AnalysisOptions()) {
  std::string Code = std::string(Prelude) + Body.str();
  auto AST = test::parse(Code);
  if (!AST)
    return;
  auto Results = test::analyzeAll(*AST, Options);
  auto Actual = test::findingsByLine(*AST, Results);
  auto Expected = test::parseExpectations(Code);
  EXPECT_EQ(Actual, Expected) << "expected:\n"
                              << test::describe(Expected) << "actual:\n"
                              << test::describe(Actual) << "code:\n"
                              << Code;
}

TEST(PolicyCallAnalyzerTest, PolicyResults) {
  expectFindings(R"cc(
    int unchecked(int x) {
      IntFn f = get_policy();
      return f(x); // [[unsafe]]
    }
    int checked(int x) {
      IntFn f = get_policy();
      if (!f)
        return x;
      return f(x);
    }
    int always(int x) {
      IntFn f = no_wrap_policy();
      return f(x); // [[always]]
    }
    int unknown(int x) {
      IntFn f = make_wrapper();
      return f(x);
    }
  )cc");
}

TEST(PolicyCallAnalyzerTest, LocalEmpties) {
  expectFindings(R"cc(
    int default_constructed(int x) {
      IntFn f;
      return f(x); // [[always]]
    }
    int null_pointer(int x) {
      FnPtr p = nullptr;
      return p(x); // [[always]]
    }
    int moved_from(int x) {
      IntFn f = identity;
      IntFn g = std::move(f);
      return g(x) + f(x); // [[unsafe]]
    }
    int filled(int x) {
      IntFn f;
      f = identity;
      return f(x);
    }
  )cc");
}

TEST(PolicyCallAnalyzerTest, Guards) {
  expectFindings(R"cc(
    int conditional(int x) {
      IntFn f = get_policy();
      return f ? f(x) : x;
    }
    bool conjunction(int x) {
      IntFn f = get_policy();
      return f && f(x) > 0;
    }
    int noreturn_branch(int x) {
      IntFn f = get_policy();
      if (f == nullptr)
        fail();
      return f(x);
    }
    int bool_variable(int x) {
      IntFn f = get_policy();
      const bool ok = static_cast<bool>(f);
      if (ok)
        return f(x);
      return x;
    }
    int else_branch(int x) {
      if (IntFn f = get_policy())
        return f(x);
      else
        return f(x); // [[always]]
    }
  )cc");
}

TEST(PolicyCallAnalyzerTest, LoopsAndReassignment) {
  expectFindings(R"cc(
    int reset_in_loop(int n) {
      IntFn f = identity;
      int s = 0;
      for (int i = 0; i < n; ++i) {
        s += f(i); // [[unsafe]]
        f = get_policy();
      }
      return s;
    }
    int continue_guard(int n) {
      int s = 0;
      for (int i = 0; i < n; ++i) {
        IntFn f = get_policy();
        if (!f)
          continue;
        s += f(i);
      }
      return s;
    }
    int checked_then_reassigned(int x) {
      IntFn f = get_policy();
      if (!f)
        return x;
      f = get_policy();
      return f(x); // [[unsafe]]
    }
  )cc");
}

TEST(PolicyCallAnalyzerTest, StrictModeReportsUnknownOrigins) {
  AnalysisOptions Strict;
  Strict.StrictMode = true;
  expectFindings(R"cc(
    int parameter(const IntFn &f, int x) {
      return f(x); // [[unsafe]]
    }
    int checked_parameter(const IntFn &f, int x) {
      return f ? f(x) : x;
    }
  )cc",
                 Strict);
  // Without StrictMode, the parameter is not reported.
  expectFindings(R"cc(
    int parameter(const IntFn &f, int x) {
      return f(x);
    }
  )cc");
}

// A smart pointer set on one path only (`if (found) { t = found;
// --t->n; }`): after the join, a test of the pointee's member guards the
// call under it, and the object the branch reached is the same one when
// the block is analysed again for the diagnosis.
TEST(PolicyCallAnalyzerTest, SmartPointeeReachedOnOnePathKeepsItsGuard) {
  AnalysisOptions Strict;
  Strict.StrictMode = true;
  expectFindings(R"cc(
    struct Timer { IntFn cb; unsigned n = 0; };
    int on_timer(std::shared_ptr<Timer> found) {
      std::shared_ptr<Timer> t = nullptr;
      if (found) {
        t = found;
        --t->n;
      }
      if (!t)
        return 0;
      int r = t->cb ? t->cb(1) : 0;
      return r + t->cb(2); // [[unsafe]]
    }
  )cc",
                 Strict);
}

TEST(PolicyCallAnalyzerTest, PolicyNamesOption) {
  AnalysisOptions Names;
  Names.PolicyNames = "^make_";
  expectFindings(R"cc(
    int by_option(int x) {
      IntFn f = make_wrapper();
      return f(x); // [[unsafe]]
    }
    int by_default_name(int x) {
      IntFn f = get_policy();
      return f(x);
    }
  )cc",
                 Names);
}

TEST(PolicyCallAnalyzerTest, HandlersStartWhereTheirTryBlockMayThrow) {
  // The CFG gives handlers no predecessor; each is analysed from the join
  // of the states before the calls in its try block (CatchHandlers.h).
  expectFindings(R"cc(
    void work();
    int empty_all_along(int x) {
      IntFn f;
      try { work(); } catch (...) { return f(x); } // [[always]]
      return x;
    }
    int set_on_one_path(bool c, int x) {
      IntFn f;
      if (c) f = identity;
      try { work(); } catch (...) { return f(x); } // [[unsafe]]
      return x;
    }
    int set_before_anything_throws(int x) {
      IntFn f;
      try { f = identity; work(); } catch (...) { return f(x); }
      return x;
    }
    int reset_between_calls(int x) {
      IntFn f = identity;
      try { work(); f = nullptr; work(); } catch (...) { return f(x); } // [[unsafe]]
      return x;
    }
    int tested_around(int x) {
      IntFn f = get_policy();
      if (!f) return x;
      try { work(); } catch (...) { return f(x); }
      return x;
    }
    int nested(int x) {
      IntFn f;
      try { work(); } catch (...) {
        try { work(); } catch (...) { return f(x); } // [[always]]
      }
      return x;
    }
    int inside_a_try_block(int x) {
      IntFn f;
      try {
        try { work(); } catch (...) { return f(x); } // [[always]]
        work();
      } catch (...) { return f(x); } // [[always]]
      return x;
    }
  )cc");
}

TEST(PolicyCallAnalyzerTest, AHandlerThatCompletesMakesItsFunctionReturn) {
  // fail() ends the try block's only path; the handler catches it and the
  // function returns, so the code after a call of it runs.
  expectFindings(R"cc(
    void swallow() { try { fail(); } catch (...) {} }
    void rethrow_all() { try { fail(); } catch (...) { throw; } }
    int after_swallow(int x) {
      IntFn f;
      swallow();
      return f(x); // [[always]]
    }
    int after_rethrow(int x) {
      IntFn f;
      rethrow_all();
      return f(x);
    }
  )cc");
}

TEST(PolicyCallAnalyzerTest, FindingCarriesLocationNotesAndFix) {
  std::string Code = std::string(Prelude) + R"cc(
    int value_call(int m) {
      IntFn wrap = get_policy();
      return wrap(m);
    }
  )cc";
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  auto Results = test::analyzeAll(*AST, AnalysisOptions());
  const test::FunctionResult *R = test::find(Results, "value_call");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Status, AnalysisStatus::Analyzed);
  ASSERT_EQ(R->Findings.size(), 1u);
  const Finding &F = R->Findings.front();
  EXPECT_FALSE(F.AlwaysEmpty);
  EXPECT_EQ(F.Message, "call through possibly empty callable 'wrap'");
  const clang::SourceManager &SM = AST->getSourceManager();
  // `      return wrap(m);`: the callable's name starts at column 14.
  EXPECT_EQ(SM.getSpellingColumnNumber(F.Loc), 14u);
  ASSERT_FALSE(F.Notes.empty());
  EXPECT_EQ(
      F.Notes.front().Message,
      "'wrap' comes from 'get_policy', which may return an empty callable");
  ASSERT_FALSE(F.Fixes.empty());
  EXPECT_FALSE(F.NeedsShimInclude);
}

TEST(PolicyCallAnalyzerTest, FixModeNoneHasNoEdits) {
  AnalysisOptions None;
  None.Fix = FixMode::None;
  std::string Code = std::string(Prelude) + R"cc(
    int value_call(int m) {
      IntFn wrap = get_policy();
      return wrap(m);
    }
  )cc";
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  auto Results = test::analyzeAll(*AST, None);
  const test::FunctionResult *R = test::find(Results, "value_call");
  ASSERT_NE(R, nullptr);
  ASSERT_EQ(R->Findings.size(), 1u);
  EXPECT_TRUE(R->Findings.front().Fixes.empty());
  for (const FindingNote &N : R->Findings.front().Notes)
    EXPECT_EQ(N.Message.find("check that"), std::string::npos) << N.Message;
}

TEST(PolicyCallAnalyzerTest, FixModeShimNeedsTheInclude) {
  AnalysisOptions Shim;
  Shim.Fix = FixMode::Shim;
  std::string Code = std::string(Prelude) + R"cc(
    void statement_call(int m) {
      IntFn wrap = get_policy();
      wrap(m);
    }
  )cc";
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  auto Results = test::analyzeAll(*AST, Shim);
  const test::FunctionResult *R = test::find(Results, "statement_call");
  ASSERT_NE(R, nullptr);
  ASSERT_EQ(R->Findings.size(), 1u);
  EXPECT_TRUE(R->Findings.front().NeedsShimInclude);
  ASSERT_FALSE(R->Findings.front().Fixes.empty());
}

TEST(PolicyCallAnalyzerTest, ConstructorInitializers) {
  expectFindings(R"cc(
    struct Trainer {
      int loss_;
      explicit Trainer(int x)
          : loss_(get_policy()(x)) {} // [[unsafe]]
    };
    struct Hooked {
      IntFn hook_;
      int v_;
      Hooked()
          : hook_(nullptr),
            v_(hook_(1)) {} // [[always]]
      explicit Hooked(int)
          : hook_(identity), v_(hook_(2)) {}
      explicit Hooked(long)
          : hook_(get_policy()),
            v_(hook_(3)) {} // [[unsafe]]
    };
    struct Guarded {
      int v_;
      explicit Guarded(IntFn f) : v_(f ? f(1) : 0) {}
    };
    struct Defaulted {
      IntFn fn_ = no_wrap_policy();
      int v_ = fn_(4); // [[always]]
      Defaulted() {}
    };
    struct Base {
      explicit Base(int);
    };
    struct Derived : Base {
      Derived() : Base(no_wrap_policy()(5)) {} // [[always]]
    };
    struct Delegating {
      int v_;
      explicit Delegating(int v) : v_(v) {}
      Delegating() : Delegating(get_policy()(6)) {} // [[unsafe]]
    };
  )cc");
  AnalysisOptions Strict;
  Strict.StrictMode = true;
  expectFindings(R"cc(
    struct W {
      int v_;
      explicit W(IntFn f) : v_(f(1)) {} // [[unsafe]]
      W(IntFn f, int) : v_(f ? f(1) : 0) {}
    };
  )cc",
                 Strict);
}

TEST(PolicyCallAnalyzerTest, InitializerFixIsAnExpression) {
  AnalysisOptions Strict;
  Strict.StrictMode = true;
  std::string Code = std::string(Prelude) + R"cc(
    struct W {
      int v_;
      explicit W(IntFn f) : v_(f(1)) {}
    };
  )cc";
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  auto Results = test::analyzeAll(*AST, Strict);
  const test::FunctionResult *R = test::find(Results, "W");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Status, AnalysisStatus::Analyzed);
  ASSERT_EQ(R->Findings.size(), 1u);
  const Finding &F = R->Findings.front();
  ASSERT_EQ(F.Fixes.size(), 1u);
  EXPECT_EQ(F.Fixes.front().CodeToInsert, "(f ? f(1) : 1)");
}

} // namespace
} // namespace wrapguard
