// PolicySummaries: summaries computed from a definition's body, checked for
// each kind of answer (the lit files check what they change).

#include "PolicySummaries.h"
#include "ExitEffects.h"
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

/// The summaries of a parsed snippet, with the default options.
struct DefaultSummaries {
  explicit DefaultSummaries(ASTContext &Ctx)
      : Types(Opts.NullableCallableTypes, Opts.InvokeMethods),
        Summaries(Ctx, Opts, Types) {}
  AnalysisOptions Opts;
  CallableTypes Types;
  PolicySummaries Summaries;
};

TEST(PolicySummariesTest, PointerAccessorsReturnOneMemberAndWriteNothing) {
  auto AST = test::parse(R"cc(
    struct T { int x; };
    struct Ptr {
      void check() const;
      void touch();
      T *arrow() { check(); return p; }
      T &star() const { return *p; }
      T *other(bool b) { return b ? p : q; }
      T *either(bool b) { if (b) return p; return q; }
      T *counting() { ++n; return p; }
      T *touching() { touch(); return p; }
      T *resetting() { T *r = p; p = nullptr; return r; }
      virtual T *virtual_get() { return p; }
      // Through another accessor of this object (gsl's not_null): a const
      // one; not a non-const one, another object's, or itself.
      T *get() const { return p; }
      T *via_get() const { return get(); }
      T &via_star() const { return *get(); }
      T *via_via() const { return via_get(); }
      T *via_arrow() const { return const_cast<Ptr *>(this)->arrow(); }
      T *via_peer() const { return peer->get(); }
      T *via_either() const { return n ? get() : q; }
      T *self() const { return self(); }
      T *p, *q;
      Ptr *peer;
      int n;
    };
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  DefaultSummaries D(Ctx);
  PolicySummaries &Summaries = D.Summaries;
  std::map<std::string, bool> Got;
  for (const BoundNodes &N :
       match(cxxMethodDecl(isDefinition(), unless(isImplicit()),
                           unless(hasAnyName("check", "touch")))
                 .bind("m"),
             Ctx)) {
    const auto *M = N.getNodeAs<CXXMethodDecl>("m");
    Got[M->getNameAsString()] = Summaries.isPointerAccessor(*M);
  }
  std::map<std::string, bool> Expected = {
      {"arrow", true},      {"star", true},         {"other", false},
      {"either", false},    {"counting", false},    {"touching", false},
      {"resetting", false}, {"virtual_get", false},  {"get", true},
      {"via_get", true},    {"via_star", true},     {"via_via", true},
      {"via_arrow", false}, {"via_peer", false},    {"via_either", false},
      {"self", false},
  };
  EXPECT_EQ(Got, Expected);
}

/// Per method of Code that Matcher binds as "m", under the key Name gives
/// it, what Describe says of it.
std::map<std::string, std::string> perMatchedMethod(
    llvm::StringRef Code, DeclarationMatcher Matcher,
    llvm::function_ref<std::string(const CXXMethodDecl &)> Name,
    llvm::function_ref<std::string(PolicySummaries &, const CXXMethodDecl &)>
        Describe) {
  std::map<std::string, std::string> Got;
  auto AST = test::parse(Code);
  if (!AST)
    return Got;
  ASTContext &Ctx = AST->getASTContext();
  DefaultSummaries D(Ctx);
  PolicySummaries &Summaries = D.Summaries;
  for (const BoundNodes &N : match(Matcher, Ctx)) {
    const auto *M = N.getNodeAs<CXXMethodDecl>("m");
    Got[Name(*M)] = Describe(Summaries, *M);
  }
  return Got;
}

/// Per method of class Class defined in Code, what Describe says of it.
std::map<std::string, std::string> perMethod(
    llvm::StringRef Code, llvm::StringRef Class,
    llvm::function_ref<std::string(PolicySummaries &, const CXXMethodDecl &)>
        Describe) {
  return perMatchedMethod(
      Code,
      cxxMethodDecl(isDefinition(), unless(isImplicit()),
                    ofClass(hasName(Class)))
          .bind("m"),
      [](const CXXMethodDecl &M) { return M.getNameAsString(); }, Describe);
}

/// A method's or constructor's effect: the fields it sets, then the fields
/// it copies from a parameter (`field<-index`), empties (`field=0`) or
/// changes otherwise (`field?`); nothing for one that changes none, and
/// "unknown" where the effect is not known.
std::string describe(const MethodEffect *E) {
  std::string Text;
  if (!E)
    return "unknown";
  for (const FieldDecl *F : E->Set)
    Text += F->getNameAsString() + " ";
  for (const auto &[F, Index] : E->FromParameter)
    Text += F->getNameAsString() + "<-" + std::to_string(Index) + " ";
  for (const FieldDecl *F : E->Emptied)
    Text += F->getNameAsString() + "=0 ";
  for (const FieldDecl *F : E->Changed)
    Text += F->getNameAsString() + "? ";
  return Text;
}

TEST(PolicySummariesTest, MethodEffectsComeFromTheExitState) {
  // Per method: the fields it sets, then the fields it copies from a
  // parameter (`field<-index`), empties (`field=0`) or changes otherwise
  // (`field?`); a field it leaves as it was is not named, and a method it
  // cannot see into (a virtual one) is "unknown", not "changes nothing".
  auto Got = perMethod(
      R"cc(
    #include <functional>
    using Cb = std::function<void(int)>;
    struct Lock { explicit Lock(int &) {} };
    struct S {
      void set(const Cb &c) { Lock l(n); cb = c; }
      void normalise(const Cb &c) { cb = c; if (!cb) cb = [](int) {}; }
      void reset_to_default() { cb = [](int) {}; }
      void set_if(const Cb &c, bool on) { if (on) cb = c; }
      void clear() { cb = nullptr; }
      void keep(const Cb &) {}
      virtual void set_virtual(const Cb &c) { cb = c; }
      Cb cb, other;
      int n;
    };
  )cc",
      "S", [](PolicySummaries &Summaries, const CXXMethodDecl &M) {
        return describe(Summaries.methodEffect(M));
      });
  std::map<std::string, std::string> Expected = {
      {"set", "cb<-0 "},           {"normalise", "cb "},
      {"reset_to_default", "cb "}, {"set_if", "cb? "},
      {"clear", "cb=0 "},          {"keep", ""},
      {"set_virtual", "unknown"},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, PointerParametersAreCopiedAsTheyWereRead) {
  // A pointer parameter has its state from its first read, not from the
  // entry; one the body never writes is the same at the exit, so a field
  // stored from it is a copy. One the body replaces or whose address it
  // takes is no copy.
  auto Got = perMethod(
      R"cc(
    struct W { void go(); };
    using Fn = void (*)(int);
    using M = void (W::*)();
    void dflt(int);
    void touch(Fn *);
    struct S {
      void set(Fn f) { fn = f; }
      void set_method(M m) { method = m; }
      void replace(Fn f) { if (!f) f = &dflt; fn = f; }
      void escape(Fn f) { touch(&f); fn = f; }
      void unread(Fn f) {}
      Fn fn;
      M method;
    };
  )cc",
      "S", [](PolicySummaries &Summaries, const CXXMethodDecl &Method) {
        std::string Text;
        if (const MethodEffect *E = Summaries.methodEffect(Method))
          for (const auto &[F, Index] : E->FromParameter)
            Text += F->getNameAsString() + "<-" + std::to_string(Index) + " ";
        return Text;
      });
  std::map<std::string, std::string> Expected = {
      {"set", "fn<-0 "}, {"set_method", "method<-0 "},
      {"replace", ""},   {"escape", ""},
      {"unread", ""},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, ConstructorEffectsComeFromTheExitState) {
  // Per class, its written constructors' effects (by their parameter
  // counts), as for methods; copies, moves and delegating constructors have
  // none (the framework copies, and a target's arguments are not this
  // constructor's).
  auto Got = perMatchedMethod(
      R"cc(
    #include <functional>
    using Cb = std::function<void(int)>;
    using Fn = void (*)(int);
    void dflt(int);
    struct Copies { Copies(Cb c) : cb(c) {} Cb cb; };
    struct Normalises {
      Normalises(Fn f) : fn(f) { if (!fn) fn = &dflt; }
      Fn fn;
    };
    struct Clears { Clears(int) : cb(nullptr) {} Cb cb; };
    struct Delegates {
      Delegates(Cb c, int) : cb(c) {}
      Delegates(Cb c) : Delegates(c, 0) {}
      Cb cb;
    };
    struct Copy { Copy(const Copy &o) : cb(o.cb) {} Cb cb; };
  )cc",
      cxxConstructorDecl(isDefinition(), unless(isImplicit()),
                         isExpansionInMainFile())
          .bind("m"),
      [](const CXXMethodDecl &C) {
        return C.getParent()->getNameAsString() + "/" +
               std::to_string(C.getNumParams());
      },
      [](PolicySummaries &Summaries, const CXXMethodDecl &C) {
        return describe(
            Summaries.constructorEffect(cast<CXXConstructorDecl>(C)));
      });
  std::map<std::string, std::string> Expected = {
      {"Copies/1", "cb<-0 "},     {"Normalises/1", "fn "},
      {"Clears/1", "cb=0 "},      {"Delegates/2", "cb<-0 "},
      {"Delegates/1", "unknown"}, {"Copy/1", "unknown"},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, MemberGettersDenoteTheirMember) {
  // A method whose one statement returns a member by reference denotes it,
  // one of a member subobject too (`data.m`), and so does a copy of the
  // member's own type (a callable object, a function pointer); a
  // conversion (a pointer returned as a Cb), a getter that fills
  // the member in first, another object's member, a member reached through
  // a pointer and a virtual method do not.
  auto Got = perMethod(
      R"cc(
    #include <functional>
    using Cb = std::function<void()>;
    struct C {
      const Cb &get() const { return m; }
      Cb &mut() { return (m); }
      Cb copy() const { return m; }
      void (*fnp() const)() { return fn; }
      Cb conv() const { return fn; }
      Cb &lazy() { if (!m) m = [] {}; return m; }
      Cb &other() { return peer->m; }
      virtual Cb &virt() { return m; }
      const Cb &nested() const { return data.m; }
      const Cb &through() const { return ptr->m; }
      const Cb &deeper() const { return box.data.m; }
      struct Data { Cb m; };
      struct Box { Data data; };
      Cb m;
      void (*fn)() = nullptr;
      C *peer;
      Data data;
      Data *ptr;
      Box box;
    };
  )cc",
      "C", [](PolicySummaries &Summaries, const CXXMethodDecl &M) {
        std::string Path;
        for (const FieldDecl *F : Summaries.fieldReturned(M))
          Path += (Path.empty() ? "" : ".") + F->getNameAsString();
        return Path;
      });
  std::map<std::string, std::string> Expected = {
      {"get", "m"},         {"mut", "m"},    {"copy", "m"},
      {"fnp", "fn"},        {"conv", ""},    {"lazy", ""},
      {"other", ""},        {"virt", ""},
      {"nested", "data.m"}, {"through", ""}, {"deeper", "box.data.m"},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, ReferenceGettersOfStaticsDenoteThem) {
  // A static method returning a reference to one static, a callable or an
  // object with callable fields, denotes it; a copy, an object without
  // callable fields and a choice between two statics do not.
  auto Got = perMethod(
      R"cc(
    #include <functional>
    using Cb = std::function<void()>;
    struct Events { Cb on_stop; };
    struct Plain { int n; };
    struct S {
      static Cb &hook() { static Cb h; return h; }
      static Events &instance() { static Events e; return e; }
      static Events copy() { static Events e; return e; }
      static Plain &plain() { static Plain p; return p; }
      static Events &either(bool b) {
        static Events a, c;
        if (b) return a;
        return c;
      }
    };
  )cc",
      "S", [](PolicySummaries &Summaries, const CXXMethodDecl &M) {
        const VarDecl *V = Summaries.storageReturned(M);
        return V ? V->getNameAsString() : std::string();
      });
  std::map<std::string, std::string> Expected = {
      {"hook", "h"}, {"instance", "e"}, {"copy", ""},
      {"plain", ""}, {"either", ""},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, PredicatesOfEarlyExitsTestTheirMembersPartly) {
  // A one-statement accessor is the test of its member; a predicate whose
  // early exit is taken when the member is empty, or a conjunction that
  // tests it among other state, is true only where it is set (Partial); a
  // conjunction that calls a method, tests the member empty or tests no
  // member is none. One whose exits test no member, that calls a method after
  // its test, or whose exit is taken when the member is set, is neither.
  auto Got = perMethod(
      R"cc(
    #include <vector>
    typedef void (*cb_fn)(int);
    struct C {
      bool has() const { return cb != nullptr; }
      bool active(int t) {
        if (!cb) return false;
        const bool ok = t >= 0;
        if (!ok) return false;
        if (!flags[t]) return false;
        return true;
      }
      bool both(int t) {
        if (cb == nullptr) return false;
        if (!other) return false;
        return t > 0;
      }
      bool flagsOnly(int t) {
        if (!flags[t]) return false;
        return true;
      }
      bool callsAfter(int t) {
        if (!cb) return false;
        stop();
        return t > 0;
      }
      bool inverted(int t) {
        if (cb) return false;
        return t > 0;
      }
      bool initialized() const { return id != 0 && cb != nullptr && id > 1; }
      bool pair() const { return cb && other; }
      bool withCall() { return cb != nullptr && ready(); }
      bool negatedAmong() const { return id != 0 && !cb; }
      bool noField() const { return id != 0 && id > 1; }
      bool ready();
      void stop();
      int id = 0;
      cb_fn cb;
      cb_fn other;
      std::vector<bool> flags;
    };
  )cc",
      "C", [](PolicySummaries &Summaries, const CXXMethodDecl &M) {
        std::optional<AccessorTest> T = Summaries.accessorTest(M);
        if (!T)
          return std::string();
        std::string Out = T->Partial ? "partial:" : "exact:";
        for (const FieldDecl *F : T->Fields)
          Out += F->getNameAsString() + ",";
        return Out;
      });
  std::map<std::string, std::string> Expected = {
      {"has", "exact:cb,"},
      {"active", "partial:cb,"},
      {"both", "partial:cb,other,"},
      {"flagsOnly", ""},
      {"callsAfter", ""},
      {"inverted", ""},
      {"initialized", "partial:cb,"},
      {"pair", "exact:cb,other,"},
      {"withCall", ""},
      {"negatedAmong", ""},
      {"noField", ""},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, DisjunctionsOfEmptyTestsAreNegatedConjunctions) {
  // `return a == nullptr || b == nullptr;` is false only where both are
  // set: the negation of the conjunction of their tests (Negated). Another
  // disjunct makes it partial; a disjunct that tests a member set, calls a
  // method, or a mix of `&&` below `||` is none.
  auto Got = perMethod(
      R"cc(
    typedef void (*cb_fn)(int);
    struct C {
      bool isAbstract() const { return create == nullptr || destruct == nullptr; }
      bool missing() const { return !create || !destruct; }
      bool one() const { return create == nullptr; }
      bool unusable() const { return !create || disabled; }
      bool mixed() const { return create == nullptr || destruct != nullptr; }
      bool withCall() { return !create || broken(); }
      bool nested() const { return (create && destruct) || !other; }
      bool broken();
      bool disabled = false;
      cb_fn create;
      cb_fn destruct;
      cb_fn other;
    };
  )cc",
      "C", [](PolicySummaries &Summaries, const CXXMethodDecl &M) {
        std::optional<AccessorTest> T = Summaries.accessorTest(M);
        if (!T)
          return std::string();
        std::string Out = T->Partial ? "partial" : "exact";
        Out += T->Negated ? ",not:" : ":";
        for (const FieldDecl *F : T->Fields)
          Out += F->getNameAsString() + ",";
        return Out;
      });
  std::map<std::string, std::string> Expected = {
      {"isAbstract", "exact,not:create,destruct,"},
      {"missing", "exact,not:create,destruct,"},
      {"one", "exact,not:create,"},
      {"unusable", "partial,not:create,"},
      {"mixed", ""},
      {"withCall", ""},
      {"nested", ""},
  };
  EXPECT_EQ(Got, Expected);
}

} // namespace
} // namespace wrapguard

namespace wrapguard {
namespace {

TEST(PolicySummariesTest, AssertionFunctionsReturnOnlyIfTheirParameterHolds) {
  auto AST = test::parse(R"cc(
    #include <cstdio>
    #include <cstdlib>
    #include <stdexcept>
    void fail(const char *m) { printf("%s", m); exit(1); }
    void raise(const char *m) { throw std::runtime_error(m); }
    void assert_in(int level, bool ok, const char *m) { if (!ok) fail(m); }
    void expect(bool ok) { if (ok) return; abort(); }
    void ensure(bool ok) { if (!ok) raise("x"); }
    void chained(bool ok) { assert_in(0, ok, "chained"); }
    void ternary(bool ok) { ok ? (void)0 : fail("t"); }
    void logs(bool ok) { if (!ok) printf("warn"); }
    void flips(bool ok) { ok = !ok; if (ok) exit(1); }
    void other(bool ok, bool other) { if (!other) fail("o"); }
    void always(bool ok) { fail("always"); }
    bool returns_value(bool ok) { if (!ok) fail("v"); return ok; }
    struct C { virtual void require(bool ok) { if (!ok) abort(); } };
    void check_int(int ok) { if (!ok) abort(); }
    void check_zero(long ok) { if (ok == 0) fail("z"); }
    void check_zero_left(int ok) { if (0 != ok) return; abort(); }
    void check_sign(int n) { if (n < 0) abort(); }
    void check_one(int ok) { if (ok == 1) return; abort(); }
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  DefaultSummaries D(Ctx);
  PolicySummaries &Summaries = D.Summaries;
  // Name -> the parameter, -1 for none; then with the process ended.
  std::map<std::string, std::pair<int, int>> Got;
  for (const BoundNodes &N :
       match(functionDecl(isDefinition(), isExpansionInMainFile(),
                          unless(isImplicit()))
                 .bind("f"),
             Ctx)) {
    const auto *F = N.getNodeAs<FunctionDecl>("f");
    std::optional<unsigned> Any = Summaries.returnsOnlyIf(*F);
    std::optional<unsigned> Ends = Summaries.endsProcessUnless(*F);
    Got[F->getNameAsString()] = {Any ? static_cast<int>(*Any) : -1,
                                 Ends ? static_cast<int>(*Ends) : -1};
  }
  std::map<std::string, std::pair<int, int>> Expected = {
      {"fail", {-1, -1}},       {"raise", {-1, -1}},
      {"assert_in", {1, 1}},    {"expect", {0, 0}},
      {"ensure", {0, -1}},      {"chained", {0, 0}},
      {"ternary", {0, 0}},      {"logs", {-1, -1}},
      {"flips", {-1, -1}},      {"other", {1, 1}},
      {"always", {-1, -1}},     {"returns_value", {-1, -1}},
      {"require", {-1, -1}},    {"check_int", {0, 0}},
      {"check_zero", {0, 0}},   {"check_zero_left", {0, 0}},
      {"check_sign", {-1, -1}}, {"check_one", {-1, -1}},
  };
  EXPECT_EQ(Got, Expected);
}

TEST(PolicySummariesTest, TheFlagAFieldIsSetWithIsTheFirstDeclared) {
  // Six flags set together with the callable, more than the exit effect
  // compares: the flag named is the first declared that can be true,
  // whatever order the framework keeps the fields in. That order follows
  // the fields' addresses: before the flags were sorted, each record named
  // f0 about one run in six, and one scanner's facts differed from run to
  // run.
  auto AST = test::parse(R"cc(
    #include <functional>
    using Cb = std::function<void()>;
#define RECORD(Name)                                                           \
    struct Name {                                                              \
      Name(bool on) {                                                          \
        if (on) {                                                              \
          f5 = f4 = f3 = f2 = f1 = f0 = true;                                  \
          cb = [] {};                                                          \
        }                                                                      \
      }                                                                        \
      bool f0 = false, f1 = false, f2 = false, f3 = false, f4 = false,         \
           f5 = false;                                                         \
      Cb cb;                                                                   \
    };
    RECORD(A) RECORD(B) RECORD(C) RECORD(D) RECORD(E) RECORD(F)
    // z0 is false on every path: it implies anything, and is no flag.
    struct Vacuous {
      Vacuous(bool on) { if (on) { z1 = true; cb = [] {}; } }
      bool z0 = false, z1 = false;
      Cb cb;
    };
  )cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  DefaultSummaries D(Ctx);
  std::map<std::string, std::string> Got;
  for (const BoundNodes &N :
       match(cxxConstructorDecl(isDefinition(), unless(isImplicit()),
                                isExpansionInMainFile())
                 .bind("c"),
             Ctx)) {
    const auto *C = N.getNodeAs<CXXConstructorDecl>("c");
    ExitEffect X =
        exitEffectOf(*C, Ctx, D.Types, D.Summaries, D.Opts.MaxSolverIterations,
                     D.Opts.MaxBlockVisits);
    std::string Text = X.Analysed ? "" : "unanalysed";
    for (const auto &[Field, Flag] : X.SetWhenFlag)
      Text += Field->getNameAsString() + " when " + Flag->getNameAsString();
    Got[C->getParent()->getNameAsString()] = Text;
  }
  std::map<std::string, std::string> Expected = {
      {"A", "cb when f0"},       {"B", "cb when f0"}, {"C", "cb when f0"},
      {"D", "cb when f0"},       {"E", "cb when f0"}, {"F", "cb when f0"},
      {"Vacuous", "cb when z1"},
  };
  EXPECT_EQ(Got, Expected);
}

} // namespace
} // namespace wrapguard
