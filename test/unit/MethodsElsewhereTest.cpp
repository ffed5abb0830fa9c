// MethodsElsewhere: which methods a TU sees without a definition may be
// assumed to set or test a callable field, and which of those assumptions a
// caller's proof needs (PassedValues::fieldAssuming). AccessorTests: which
// bodies are accessors of a field.

#include "MethodsElsewhere.h"
#include "AccessorTests.h"
#include "PassedValues.h"
#include "PolicySummaries.h"
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
#include <memory>
#include <mutex>
using Cb = std::function<void(int)>;
struct Sync { explicit Sync(const void *) {} };
class Socket {
public:
  void set(const Cb &cb);                 // a setter, defined elsewhere
  void setWith(int n, Cb cb);             // parameter 1
  void setOther(const Cb &cb);            // may set it too, by its type
  void setFlag(bool on);                  // no parameter of the type
  Cb get() const;                         // not void
  bool registered() const;                // may test it
  bool ready(int) const;                  // has a parameter
  virtual bool hooked() const;            // virtual
  void run();
  bool locked() const { std::lock_guard<std::mutex> l(mu); return cb_ != nullptr; }
  bool synced() const { Sync s(this); return cb_ != nullptr; }
  bool both() const { return cb_ && other_; }
  bool empty() const { return !cb_; }
  Cb cb_, other_;
  mutable std::mutex mu;
  bool flag_ = false;
};
void serve(std::shared_ptr<Socket> ws, bool hook) {
  if (hook) {
    if (!ws->registered())
      return;
  } else {
    ws->setFlag(true);
    ws->setOther([](int) {});
    ws->set([](int) {});
  }
  ws->run();
}
void unset(Socket &s) {
  s.setFlag(true);
  s.setOther(nullptr);
  s.run();
}
)cc";

TEST(MethodsElsewhere, SignaturesSayWhatMayBeAssumed) {
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const auto *Field = selectFirst<FieldDecl>(
      "f", match(fieldDecl(hasName("cb_")).bind("f"), Ctx));
  ASSERT_TRUE(Field);
  std::map<std::string, std::string> Got;
  for (const BoundNodes &N :
       match(cxxMethodDecl(ofClass(hasName("Socket")), unless(isImplicit()))
                 .bind("m"),
             Ctx)) {
    const auto *M = N.getNodeAs<CXXMethodDecl>("m");
    std::string What;
    if (std::optional<unsigned> P = setterParameter(*M, *Field))
      What = "sets<-" + std::to_string(*P);
    else if (mayTestField(*M, *Field))
      What = "tests";
    Got[M->getNameAsString()] = What;
  }
  std::map<std::string, std::string> Expected = {
      {"set", "sets<-0"},
      {"setWith", "sets<-1"},
      {"setOther", "sets<-0"},
      {"setFlag", ""},
      {"get", ""},
      {"registered", "tests"},
      {"ready", ""},
      {"hooked", ""},
      {"run", ""},
      {"locked", "tests"},
      {"synced", "tests"},
      {"both", "tests"},
      {"empty", "tests"},
  };
  EXPECT_EQ(Got, Expected);

  // What the bodies say: a lock before the return is no obstacle; a local
  // handed `this` is; a conjunction tests both; `!cb_` is negated.
  AnalysisOptions Opts;
  CallableTypes Types(Opts.NullableCallableTypes, Opts.InvokeMethods);
  std::map<std::string, std::string> Tests;
  for (const BoundNodes &N :
       match(cxxMethodDecl(ofClass(hasName("Socket")), isDefinition(),
                           unless(isImplicit()))
                 .bind("m"),
             Ctx)) {
    const auto *M = N.getNodeAs<CXXMethodDecl>("m");
    std::string What = "-";
    if (std::optional<AccessorTest> T = accessorTestOf(*M, Types, Ctx)) {
      What = T->Negated ? "!" : "";
      for (const FieldDecl *F : T->Fields)
        What += F->getNameAsString() + " ";
    }
    Tests[M->getNameAsString()] = What;
  }
  std::map<std::string, std::string> ExpectedTests = {{"locked", "cb_ "},
                                                      {"synced", "-"},
                                                      {"both", "cb_ other_ "},
                                                      {"empty", "!cb_ "}};
  EXPECT_EQ(Tests, ExpectedTests);
}

TEST(MethodsElsewhere, ACallerRecordsTheAssumptionsItsProofNeeds) {
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  AnalysisOptions Opts;
  CallableTypes Types(Opts.NullableCallableTypes, Opts.InvokeMethods);
  PolicySummaries Summaries(Ctx, Opts, Types);
  PassedValues Passed(Ctx, Types, Summaries, Opts);
  const auto *Field = selectFirst<FieldDecl>(
      "f", match(fieldDecl(hasName("cb_")).bind("f"), Ctx));
  ASSERT_TRUE(Field);
  std::map<std::string, std::string> Got;
  for (const BoundNodes &N :
       match(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("run"))),
                               forFunction(functionDecl().bind("fn")))
                 .bind("call"),
             Ctx)) {
    const auto *Call = N.getNodeAs<CXXMemberCallExpr>("call");
    const auto *Fn = N.getNodeAs<FunctionDecl>("fn");
    // Without assumptions, nothing is proved.
    EXPECT_NE(Passed.fieldAt(*Fn, *Call, *Field), Emptiness::NonEmpty);
    const Expr *Read = Call;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(
            Call->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      Read = DRE;
    std::string What = "none";
    if (auto Needed = Passed.fieldAssuming(*Fn, *Read, *Field)) {
      What.clear();
      for (const AssumedMethodEffect &A : *Needed)
        What +=
            A.Method->getNameAsString() + ":" + std::to_string(A.From) + " ";
    }
    Got[Fn->getNameAsString()] = What;
  }
  // `setFlag` is no setter of the field; `setOther` may be, but the proof
  // does not need it once `set` is assumed: it needs the test and `set`.
  std::map<std::string, std::string> Expected = {
      {"serve", "registered:-1 set:0 "}, {"unset", "none"}};
  EXPECT_EQ(Got, Expected);
}

} // namespace
} // namespace wrapguard
