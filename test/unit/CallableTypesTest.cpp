//===- CallableTypesTest.cpp - Which types are callables ------------------===//

#include "CallableTypes.h"
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

TEST(CallableTypesTest, OnlyACallOperatorItsUsersCanCallMakesAClassCallable) {
  // A call operator declared public, or inherited through a public base,
  // makes a class (and a pointer to it) a callable; one that is private, or
  // inherited through a protected or private base, does not. The second is
  // a ref-counted object whose deleter is a protected base (openal-soft's
  // `intrusive_ref<T, D> : protected D`): every pointer to it was a
  // callable, and a smart pointer to it was no smart pointer to the engine.
  auto AST = test::parse(R"cc(
    struct Deleter { void operator()(void *) const; };
    template <class T, class D> struct RefCounted : protected D { int refs; };
    struct Context : RefCounted<Context, Deleter> { int x; };
    struct PrivateBase : private Deleter {};
    struct PublicBase : Deleter {};
    class PrivateCall { void operator()() const; };
    class PublicCall { public: void operator()() const; };
    struct Fields {
      Deleter deleter;
      Context *context;
      PrivateBase *private_base;
      PublicBase *public_base;
      PrivateCall *private_call;
      PublicCall *public_call;
    };
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  CallableTypes Types({}, {});
  std::map<std::string, bool> Got;
  for (const BoundNodes &N :
       match(fieldDecl(hasParent(cxxRecordDecl(hasName("Fields")))).bind("f"),
             Ctx)) {
    const auto *F = N.getNodeAs<FieldDecl>("f");
    Got[F->getNameAsString()] =
        Types.classify(F->getType()) != CallableKind::None;
  }
  std::map<std::string, bool> Expected = {
      {"deleter", false},    {"context", false},      {"private_base", false},
      {"public_base", true}, {"private_call", false}, {"public_call", true},
  };
  EXPECT_EQ(Got, Expected);
}

} // namespace
} // namespace wrapguard
