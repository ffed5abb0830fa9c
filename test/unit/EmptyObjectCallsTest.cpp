// callingEmptyIsHarmless and emptinessWitnesses: which callable classes can
// be called empty without failing, read from their definitions.

#include "EmptyObjectCalls.h"
#include "CallableTypes.h"
#include "HandleWitnesses.h"
#include "TestAST.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"
#include <string>

namespace wrapguard {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

constexpr const char *Code = R"cc(
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
using Fn = std::function<int(int)>;

// A list of callbacks: empty when it holds none, and calling it then calls
// none. Its operator() reaches the head through two of its own methods.
template <typename T> struct List {
  struct Node { std::function<void(T)> cb; std::shared_ptr<Node> next; };
  std::shared_ptr<Node> head;
  bool empty() const { return !head; }
  explicit operator bool() const { return !empty(); }
  template <typename F> void each(F f) const { walk(f); }
  template <typename F> void walk(F f) const {
    std::shared_ptr<Node> node;
    node = head;
    while (node) { f(node->cb); node = node->next; }
  }
  void operator()(T v) const { each([&v](const std::function<void(T)> &c) { c(v); }); }
};
void use_list(List<int> &l) { l(1); }

// oneDNN's item: its operator() tests its own slot.
struct Item {
  int (*create)(int) = nullptr;
  explicit operator bool() const { return create != nullptr; }
  int operator()(int x) const { return create ? create(x) : -1; }
};

// Slots created on first use, tested element by element.
struct Lazy {
  mutable std::shared_ptr<Fn> slots[2];
  explicit operator bool() const { return slots[0] != nullptr; }
  int operator()(int x) const {
    if (!slots[0]) slots[0] = std::make_shared<Fn>([](int y) { return y; });
    return (*slots[0])(x);
  }
};

// Handles that fail when called empty.
struct Wrapper {
  Fn fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
  int operator()(int x) const { return fn(x); }
};
struct Throwing {
  Fn fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
  int operator()(int x) const {
    if (!fn) throw std::runtime_error("empty");
    return fn(x);
  }
};
struct Impl { int run(int x) { return x; } };
struct ViaGetter {
  Impl *impl = nullptr;
  explicit operator bool() const { return impl != nullptr; }
  Impl *get() const { return impl; }
  int operator()(int x) const { return get()->run(x); }
};
struct OtherPointer {
  bool valid = false;
  Impl *impl = nullptr;
  explicit operator bool() const { return valid; }
  int operator()(int x) const { return impl->run(x); }
};
struct DeclaredOnly {
  Fn fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
  int operator()(int x) const;
};
int invoke_handle(const struct Escaping &, int);
struct Escaping {
  Fn fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
  int operator()(int x) const { return invoke_handle(*this, x); }
};
struct Virtual {
  Fn fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
  virtual int call(int x) const { return fn(x); }
  int operator()(int x) const { return call(x); }
};
struct PureVirtual {
  Fn fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
  virtual int call(int x) const = 0;
  int operator()(int x) const { return call(x); }
};

// libdatachannel's synchronized callbacks: operator() calls a virtual
// method that tests the function first; the final derived class's override
// calls the base's by name and keeps the argument in a std::optional, which
// emplace does not dereference; the mutex its test locks is no witness.
struct Sync {
  Fn fn;
  mutable std::mutex m;
  explicit operator bool() const {
    std::lock_guard<std::mutex> lock(m);
    return static_cast<bool>(fn);
  }
  virtual bool call(int x) const {
    if (!fn)
      return false;
    fn(x);
    return true;
  }
  bool operator()(int x) const { return call(x); }
  virtual ~Sync() = default;
};
struct SyncStored final : Sync {
  bool call(int x) const override {
    if (!Sync::call(x))
      stored.emplace(x);
    return true;
  }
  mutable std::optional<int> stored;
};
// The same with an override that calls without a test.
struct SyncUnchecked final : Sync {
  bool call(int x) const override {
    fn(x);
    return true;
  }
};
)cc";

const CXXRecordDecl *record(ASTContext &Ctx, const std::string &Name) {
  auto M = match(cxxRecordDecl(hasName(Name), isDefinition(),
                               unless(classTemplateSpecializationDecl()))
                     .bind("r"),
                 Ctx);
  auto S = match(classTemplateSpecializationDecl(hasName(Name)).bind("r"), Ctx);
  if (!S.empty())
    return S.front().getNodeAs<CXXRecordDecl>("r");
  return M.empty() ? nullptr : M.front().getNodeAs<CXXRecordDecl>("r");
}

TEST(EmptyObjectCallsTest, ClassesWhoseEmptyCallsCannotFail) {
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  for (const char *Name : {"List", "Item", "Lazy", "Sync", "SyncStored"}) {
    const CXXRecordDecl *RD = record(Ctx, Name);
    ASSERT_TRUE(RD) << Name;
    EXPECT_TRUE(callingEmptyIsHarmless(*RD)) << Name;
    EXPECT_FALSE(CallableTypes::isNullableCallableClass(*RD)) << Name;
  }
}

TEST(EmptyObjectCallsTest, HandlesThatFailOrAreNotSeenStayNullable) {
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  for (const char *Name :
       {"Wrapper", "Throwing", "ViaGetter", "OtherPointer", "DeclaredOnly",
        "Escaping", "Virtual", "PureVirtual", "SyncUnchecked"}) {
    const CXXRecordDecl *RD = record(Ctx, Name);
    ASSERT_TRUE(RD) << Name;
    EXPECT_FALSE(callingEmptyIsHarmless(*RD)) << Name;
    EXPECT_TRUE(CallableTypes::isNullableCallableClass(*RD)) << Name;
  }
}

TEST(EmptyObjectCallsTest, WitnessesOfASpecializationComeFromItsPattern) {
  auto AST = test::parse(Code);
  ASSERT_TRUE(AST);
  const CXXRecordDecl *RD = record(AST->getASTContext(), "List");
  ASSERT_TRUE(RD);
  // `operator bool` of List<int> was never called, so it has no body of its
  // own: only its pattern says it reads `head`.
  EXPECT_TRUE(emptinessWitnesses(*RD, /*ReadPatterns=*/false).empty());
  auto W = emptinessWitnesses(*RD, /*ReadPatterns=*/true);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W.front()->getName(), "head");
  EXPECT_EQ(W.front()->getParent(), RD);
}

} // namespace
} // namespace wrapguard
