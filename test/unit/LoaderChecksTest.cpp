// CheckedLoads: which run-time loads the code tests through `dlerror()`, or
// by testing the stored pointer, right after storing them, and which it does
// not.

#include "LoaderChecks.h"
#include "TestAST.h"
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
extern "C" void *dlsym(void *, const char *);
extern "C" char *dlerror();
using Fn = int (*)(int);
void *h;
Fn g;
void via_local() {
  Fn f = (Fn)dlsym(h, "f");
  char *e = dlerror();
  if (e != nullptr)
    return;
}
void direct() {
  g = (Fn)dlsym(h, "g");
  if (dlerror()) { h = nullptr; return; }
}
bool in_macro_block() {
  { g = (Fn)dlsym(h, "g"); const char *err = dlerror(); if (nullptr != err) return false; }
  return true;
}
void logged() {
  g = (Fn)dlsym(h, "g");
  if (dlerror()) h = nullptr;
}
void used_first() {
  g = (Fn)dlsym(h, "g");
  g(1);
  if (dlerror()) return;
}
void other_test() {
  g = (Fn)dlsym(h, "g");
  if (!h) return;
}
struct Table { Fn a; Fn b; } t;
struct Missing {};
void stored_tested() {
  t.a = (Fn)dlsym(h, "a");
  if (!t.a) throw Missing();
}
int local_tested() {
  Fn f = (Fn)dlsym(h, "f");
  if (f == nullptr) { return -1; }
  return f(1);
}
void stored_logged() {
  t.a = (Fn)dlsym(h, "a");
  if (!t.a) h = nullptr;
}
void other_field() {
  t.a = (Fn)dlsym(h, "a");
  if (!t.b) return;
}
void tested_set() {
  t.a = (Fn)dlsym(h, "a");
  if (t.a) return;
}
)cc";

TEST(LoaderChecksTest, ADlerrorTestThatLeavesTestsTheLoad) {
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  CheckedLoads Loads;
  auto IsLoader = [](const FunctionDecl &FD) {
    return FD.getIdentifier() && FD.getName() == "dlsym";
  };
  std::map<std::string, bool> Got;
  for (const BoundNodes &N :
       match(callExpr(callee(functionDecl(hasName("dlsym"))),
                      forFunction(functionDecl().bind("fn")))
                 .bind("load"),
             Ctx)) {
    const auto *Fn = N.getNodeAs<FunctionDecl>("fn");
    Got[Fn->getNameAsString()] =
        Loads.tested(*N.getNodeAs<CallExpr>("load"), *Fn, IsLoader);
  }
  std::map<std::string, bool> Expected = {
      {"via_local", true},
      {"direct", true},
      {"in_macro_block", true},
      {"logged", false},
      {"used_first", false},
      {"other_test", false},
      // The stored pointer tested itself, the function left on null.
      {"stored_tested", true},
      {"local_tested", true},
      {"stored_logged", false},
      {"other_field", false},
      {"tested_set", false},
  };
  EXPECT_EQ(Got, Expected);
}

} // namespace
} // namespace wrapguard
