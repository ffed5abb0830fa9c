// PassedValues: the state the flow analysis proves for a variable where a
// call reads it to pass it on, checked for each kind of answer.

#include "PassedValues.h"
#include "PolicySummaries.h"
#include "StripNoise.h"
#include "TestAST.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"
#include <map>
#include <string>

namespace wrapguard {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

constexpr const char *Code = R"cc(
#include <functional>
#include <utility>
using Fn = std::function<int(int)>;
using Ptr = int (*)(int);
int dflt(int x) { return x; }
void fatal(const char *what) { throw what; }
int sink(Fn f);
int sink_ptr(Ptr f);

int normalised(Ptr f) { if (!f) f = &dflt; return sink_ptr(f); }
int as_passed(Ptr f) { return sink_ptr(f); }
int emptied(Fn f) { f = nullptr; return sink(f); }
int one_path(Fn f, bool c) { if (c) f = dflt; return sink(f); }
int ended(Fn f) { if (!f) fatal("no f"); return sink(std::move(f)); }
int in_loop(Fn f, int n) {
  int r = 0;
  for (int i = 0; i < n; ++i) { if (!f) f = dflt; r += sink(f); }
  return r;
}
)cc";

/// Function name -> what PassedValues says of the argument of its one call
/// of sink or sink_ptr.
std::map<std::string, Emptiness> passed(const AnalysisOptions &Opts) {
  std::map<std::string, Emptiness> Out;
  auto AST = test::parse(Code);
  if (!AST)
    return Out;
  ASTContext &Ctx = AST->getASTContext();
  CallableTypes Types(Opts.NullableCallableTypes, Opts.InvokeMethods);
  PolicySummaries Summaries(Ctx, Opts, Types);
  PassedValues Passed(Ctx, Types, Summaries, Opts);
  auto Calls =
      match(callExpr(callee(functionDecl(hasAnyName("sink", "sink_ptr"))),
                     forFunction(functionDecl().bind("fn")))
                .bind("call"),
            Ctx);
  for (const BoundNodes &N : Calls) {
    const auto *Call = N.getNodeAs<CallExpr>("call");
    const auto *Fn = N.getNodeAs<FunctionDecl>("fn");
    const Expr *Arg = stripNoise(Call->getArg(0));
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Arg))
      Arg = stripNoise(CE->getArg(0));
    if (const auto *Move = dyn_cast<CallExpr>(Arg))
      Arg = stripNoise(Move->getArg(0));
    const auto *Read = dyn_cast<DeclRefExpr>(Arg);
    EXPECT_NE(Read, nullptr) << Fn->getNameAsString();
    if (Read)
      Out[Fn->getNameAsString()] = Passed.at(*Fn, *Read);
  }
  return Out;
}

TEST(PassedValuesTest, ProvesWhatEveryPathGives) {
  std::map<std::string, Emptiness> Expected = {
      {"normalised", Emptiness::NonEmpty},
      {"as_passed", Emptiness::Unknown},
      {"emptied", Emptiness::AlwaysEmpty},
      {"one_path", Emptiness::Unknown},
      // The read inside std::move sees the value before the move.
      {"ended", Emptiness::NonEmpty},
      {"in_loop", Emptiness::NonEmpty},
  };
  EXPECT_EQ(passed(AnalysisOptions()), Expected);
}

TEST(PassedValuesTest, OverBudgetProvesNothing) {
  AnalysisOptions Opts;
  Opts.MaxBlockVisits = 2;
  std::map<std::string, Emptiness> Got = passed(Opts);
  EXPECT_EQ(Got.at("normalised"), Emptiness::Unknown);
  EXPECT_EQ(Got.at("in_loop"), Emptiness::Unknown);
}

/// For each call that CallMatcher binds as "call" in a function it binds as
/// "caller", the object it passes being what ObjectMatcher binds as "obj"
/// (of node type Obj), what Ask says of the object's field Field (the field
/// named so in Code, and Via, the one named so if any), by the calling
/// function's name.
template <typename Obj>
std::map<std::string, Emptiness>
fieldsPassed(const char *Code, const char *Field, const char *Via,
             StatementMatcher CallMatcher,
             llvm::function_ref<Emptiness(PassedValues &, const FunctionDecl &,
                                          const Obj &, const FieldDecl *,
                                          const FieldDecl &)>
                 Ask) {
  std::map<std::string, Emptiness> Out;
  auto AST = test::parse(Code);
  if (!AST)
    return Out;
  ASTContext &Ctx = AST->getASTContext();
  AnalysisOptions Opts;
  CallableTypes Types(Opts.NullableCallableTypes, Opts.InvokeMethods);
  PolicySummaries Summaries(Ctx, Opts, Types);
  PassedValues Passed(Ctx, Types, Summaries, Opts);
  auto Named = [&](const char *Name) {
    return selectFirst<FieldDecl>(
        "f", match(fieldDecl(hasName(Name)).bind("f"), Ctx));
  };
  const FieldDecl *F = Named(Field);
  const FieldDecl *V = Via ? Named(Via) : nullptr;
  EXPECT_NE(F, nullptr) << Field;
  if (!F || (Via && !V))
    return Out;
  for (const BoundNodes &N : match(CallMatcher, Ctx)) {
    const auto *Caller = N.getNodeAs<FunctionDecl>("caller");
    Out[Caller->getNameAsString()] =
        Ask(Passed, *Caller, *N.getNodeAs<Obj>("obj"), V, *F);
  }
  return Out;
}

/// For each call of Method on an object that ObjectMatcher binds as "obj"
/// (of node type Obj), what PassedValues says of the object's field Field,
/// by the calling function's name.
template <typename Obj, typename Matcher>
std::map<std::string, Emptiness>
objectFields(const char *Code, const char *Method, const char *Field,
             Matcher ObjectMatcher) {
  return fieldsPassed<Obj>(
      Code, Field, nullptr,
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName(Method))),
                        on(ObjectMatcher),
                        forFunction(functionDecl().bind("caller"))),
      [](PassedValues &Passed, const FunctionDecl &Caller, const Obj &O,
         const FieldDecl *,
         const FieldDecl &F) { return Passed.fieldAt(Caller, O, F); });
}

/// The object of a method call on `this`: the caller's proof of its
/// callable fields where the call is (callers' guards for a helper).
TEST(PassedValuesTest, ProvesTheFieldsOfThisAtAMethodCall) {
  std::map<std::string, Emptiness> Expected = {
      {"guarded", Emptiness::NonEmpty},
      {"unguarded", Emptiness::Unknown},
      {"emptied", Emptiness::AlwaysEmpty},
  };
  EXPECT_EQ(objectFields<CXXThisExpr>(R"cc(
    using Fn = void (*)(int);
    class Exporter {
    public:
      void guarded() { if (cb) helper(); }
      void unguarded() { helper(); }
      void emptied() { cb = nullptr; helper(); }
    private:
      void helper() { cb(1); }
      Fn cb;
    };
  )cc",
                                      "helper", "cb",
                                      cxxThisExpr().bind("obj")),
            Expected);
}

/// A method that hands its own object on as it came: its callers' proof
/// holds at its call (AssumedEffect::CallersSet).
TEST(PassedValuesTest, HandsOnItsObjectOnlyAsItCame) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    using Fn = int (*)(int);
    void sink(const struct Stream &);
    struct Stream {
      int as_came(int x) { int n = helper(x); pos = n; return n + peek(); }
      int names_it(int x) { if (!cb) return 0; return helper(x); }
      int resets_first(int x) { reset(); return helper(x); }
      int hands_this(int x) { sink(*this); return helper(x); }
      int in_loop(int x) { int n = 0; while (n < x) n += helper(n); return n; }
      int in_lambda(int x) { auto l = [this] { reset(); }; l(); return helper(x); }
      static int by_static(Stream &s, int x) { return s.helper(x); }
      int helper(int x) { return cb(x); }
      int peek() const { return pos; }
      void reset() { pos = 0; }
      Fn cb = nullptr;
      int pos = 0;
    };
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Calls =
      match(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("helper"))),
                              hasAncestor(cxxMethodDecl().bind("owner")))
                .bind("call"),
            Ctx);
  std::map<std::string, bool> Handed;
  const FieldDecl *Cb = nullptr;
  for (const auto &N : Calls) {
    const auto *M = N.getNodeAs<CXXMethodDecl>("owner");
    Cb = *M->getParent()->field_begin();
    ParentMap PM(M->getBody());
    std::optional<NamedFields> Named =
        handsOnItsObject(*M, *N.getNodeAs<CXXMemberCallExpr>("call"), PM);
    Handed[M->getNameAsString()] = Named && !Named->count(Cb);
  }
  ASSERT_TRUE(Cb);
  EXPECT_EQ(Cb->getName(), "cb");
  ASSERT_EQ(Handed.size(), 7u); // every owner was asked
  EXPECT_TRUE(Handed["as_came"]);
  EXPECT_FALSE(Handed["names_it"]);     // its own test is the flow's to read
  EXPECT_FALSE(Handed["resets_first"]); // another non-const method
  EXPECT_FALSE(Handed["hands_this"]);
  EXPECT_FALSE(Handed["in_loop"]);
  EXPECT_FALSE(Handed["in_lambda"]);
  EXPECT_FALSE(Handed["by_static"]); // no object of its own
}

/// The same for a parameter a function hands on.
TEST(PassedValuesTest, HandsOnAParameterOnlyAsItCame) {
  std::unique_ptr<ASTUnit> AST = test::parse(R"cc(
    using Fn = int (*)(int);
    struct Ctx {
      Fn cb;
      int pos;
      void reset() { pos = 0; }
      int peek() const { return pos; }
    };
    int inner(Ctx *c, int x);
    int inner_ref(Ctx &c, int x);
    int inner_copy(Ctx c, int x);
    void keep(Ctx *c);
    int as_came(Ctx *c, int x) { c->pos = x; return inner(c, c->peek()); }
    int by_ref(Ctx &c, int x) { return inner_ref(c, x); }
    int by_copy(Ctx c, int x) { return inner_copy(c, x); }
    int names_it(Ctx *c, int x) { if (!c->cb) return 0; return inner(c, x); }
    int repoints(Ctx *c, Ctx *o, int x) { c = o; return inner(c, x); }
    int resets(Ctx *c, int x) { c->reset(); return inner(c, x); }
    int hands_off(Ctx *c, int x) { keep(c); return inner(c, x); }
    int in_loop(Ctx *c, int x) { int n = 0; for (int i = 0; i < x; ++i) n += inner(c, i); return n; }
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Reads = match(
      callExpr(
          callee(functionDecl(hasAnyName("inner", "inner_ref", "inner_copy"))),
          hasArgument(
              0, expr(anyOf(ignoringParenImpCasts(declRefExpr().bind("read")),
                            hasDescendant(declRefExpr().bind("read"))))),
          hasAncestor(functionDecl().bind("owner"))),
      Ctx);
  const FieldDecl *Cb = nullptr;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D);
        RD && RD->getName() == "Ctx")
      Cb = *RD->field_begin();
  ASSERT_TRUE(Cb);
  std::map<std::string, bool> Handed;
  for (const auto &N : Reads) {
    const auto *Owner = N.getNodeAs<FunctionDecl>("owner");
    ParentMap PM(Owner->getBody());
    std::optional<NamedFields> Named =
        handsOnParameter(*Owner, *N.getNodeAs<DeclRefExpr>("read"), PM);
    Handed[Owner->getNameAsString()] = Named && !Named->count(Cb);
  }
  ASSERT_EQ(Handed.size(), 8u);   // every owner was asked
  EXPECT_TRUE(Handed["as_came"]); // another field written, a const method
  EXPECT_TRUE(Handed["by_ref"]);
  EXPECT_FALSE(Handed["by_copy"]); // the callee's copy is its own
  EXPECT_FALSE(Handed["names_it"]);
  EXPECT_FALSE(Handed["repoints"]);
  EXPECT_FALSE(Handed["resets"]);
  EXPECT_FALSE(Handed["hands_off"]);
  EXPECT_FALSE(Handed["in_loop"]);
}

/// The object a method is called on, read from a member of a parameter.
TEST(PassedValuesTest, ProvesTheFieldsOfAMemberObject) {
  std::map<std::string, Emptiness> Expected = {
      {"guarded", Emptiness::NonEmpty},
      {"other", Emptiness::Unknown},
  };
  EXPECT_EQ(objectFields<MemberExpr>(R"cc(
    using Fn = int (*)(int);
    struct Info {
      int init(int x) const { return fn(x); }
      Fn fn;
    };
    struct Data { Info key, value; };
    int guarded(const Data &d) { return d.key.fn ? d.key.init(1) : 0; }
    int other(const Data &d) { return d.key.fn ? d.value.init(1) : 0; }
  )cc",
                                     "init", "fn", memberExpr().bind("obj")),
            Expected);
}

/// A callable field one pointer member away from the object a call passes
/// (`if (p.task && p.task->step) helper(p);`), by the calling function's
/// name.
TEST(PassedValuesTest, ProvesTheFieldsOnePointerMemberAway) {
  std::map<std::string, Emptiness> Expected = {
      {"guarded", Emptiness::NonEmpty},
      {"unguarded", Emptiness::Unknown},
      {"emptied", Emptiness::AlwaysEmpty},
      {"repointed", Emptiness::Unknown},
  };
  EXPECT_EQ(fieldsPassed<DeclRefExpr>(
                R"cc(
    using Fn = void (*)(int);
    struct Task { Fn step; };
    struct Priv { Task *task; int t; };
    void helper(Priv &p);
    void guarded(Priv &p) { if (p.task && p.task->step) helper(p); }
    void unguarded(Priv &p) { helper(p); }
    void emptied(Priv &p) { p.task->step = nullptr; helper(p); }
    void repointed(Priv &p, Task *o) {
      if (p.task && p.task->step) { p.task = o; helper(p); }
    }
  )cc",
                "step", "task",
                callExpr(callee(functionDecl(hasName("helper"))),
                         hasArgument(0, declRefExpr().bind("obj")),
                         forFunction(functionDecl().bind("caller"))),
                [](PassedValues &Passed, const FunctionDecl &Caller,
                   const DeclRefExpr &Read, const FieldDecl *Via,
                   const FieldDecl &Step) {
                  return Passed.fieldThroughAt(Caller, Read, *Via, Step);
                }),
            Expected);
}

} // namespace
} // namespace wrapguard
