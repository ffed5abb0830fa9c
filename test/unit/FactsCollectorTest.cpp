// The facts one TU gives (collectTUFacts, through PolicyCallAnalyzer):
// which tests of a source count as belief. A test counts where the function
// also acts on the value (uses it, hands the tested object to a call, or
// returns the test); a gate that only rejects does not.

#include "PolicyCallAnalysis.h"
#include "ProjectFacts.h"
#include "TestAST.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace wrapguard {
namespace {

/// The facts the TU Code gives; none when it does not parse.
ProjectFacts factsOf(llvm::StringRef Code) {
  ProjectFacts F;
  if (std::unique_ptr<clang::ASTUnit> AST = test::parse(Code)) {
    PolicyCallAnalyzer A(AST->getASTContext(), AnalysisOptions());
    A.collectFacts(F);
  }
  return F;
}

/// Name -> how many tests of it count as belief, over the TU's sources.
std::map<std::string, unsigned> testsByName(llvm::StringRef Code) {
  std::map<std::string, unsigned> Out;
  ProjectFacts F = factsOf(Code);
  for (const auto &[Key, S] : F.sources())
    Out[S.Name] += S.Tested;
  return Out;
}

TEST(FactsBelief, AGateIsNoBeliefAndAUseIs) {
  auto T = testsByName(R"cc(
    using Fn = int (*)(int);
    struct Info { Fn gated; Fn guarded; Fn reported; Fn passed; Fn stored;
                  Fn copied; Fn away; };
    void keep(Info *i) { i->guarded = nullptr; }
    int run(Info *i) { return i->passed(1); }
    int elsewhere(Info *i);
    int hand_away(Info *i) { return i->away ? elsewhere(i) : 0; }
    Fn saved;
    int gate(Info *i) {
      if (!i->gated) return -1;
      keep(i);
      return 0;
    }
    int guard(Info *i) { return i->guarded ? i->guarded(1) : 0; }
    bool predicate(const Info *i) { return i->reported != nullptr; }
    int hand_on(Info *i) { return i->passed ? run(i) : 0; }
    void store(Info *i) { if (i->stored) saved = i->stored; }
    bool copy_only(Info *i) {
      Fn c = i->copied;
      if (!c) return false;
      return true;
    }
  )cc");
  EXPECT_EQ(T["Info::gated"], 0u);
  EXPECT_EQ(T["Info::guarded"], 1u);
  EXPECT_EQ(T["Info::reported"], 1u);
  // The gate hands the object on too, to a function whose body does not
  // call `gated`; hand_on hands it to one that calls `passed`.
  EXPECT_EQ(T["Info::passed"], 1u);
  // A function defined in another TU may call it.
  EXPECT_EQ(T["Info::away"], 1u);
  EXPECT_EQ(T["Info::stored"], 1u);
  EXPECT_EQ(T["Info::copied"], 0u);
}

TEST(FactsBelief, AFunctionResultTestedOnlyToRejectIsNoBelief) {
  auto T = testsByName(R"cc(
    #include <functional>
    using Fn = std::function<int(int)>;
    Fn find(int);
    Fn make(int);
    bool validate() {
      Fn f = find(1);
      if (!f) return false;
      return true;
    }
    int sibling() {
      Fn w = make(1);
      if (!w) return 0;
      return w(2);
    }
  )cc");
  EXPECT_EQ(T["find"], 0u);
  EXPECT_EQ(T["make"], 1u);
}

/// Name -> (emptied where it runs anyway, emptied in methods, set again).
struct Emptyings {
  bool At = false;
  unsigned In = 0;
  bool Set = false;
};
std::map<std::string, Emptyings> emptyingsByName(llvm::StringRef Code) {
  std::map<std::string, Emptyings> Out;
  ProjectFacts F = factsOf(Code);
  for (const auto &[Key, S] : F.sources())
    Out[S.Name] = {S.EmptiedAt.valid(),
                   static_cast<unsigned>(S.EmptiedIn.size()), S.SetAt.valid()};
  return Out;
}

TEST(FactsEmptyings, WritesToADyingObjectAreNone) {
  auto E = emptyingsByName(R"cc(
    #include <cstdlib>
    #include <functional>
    using Fn = std::function<void()>;
    struct Conn {
      Fn on_msg, on_close;
      ~Conn() { on_msg = nullptr; on_close = [] {}; }
    };
    struct Chain {
      Fn cb;
      Chain *next;
      ~Chain() { next->cb = nullptr; }
    };
    struct Raw { void (*read)(int); void (*write)(int); char *buf; };
    void destroy(Raw *r) { r->read = NULL; free(r->buf); free(r); }
    void reset(Raw *r) { r->write = NULL; free(r->buf); }
  )cc");
  // The destructor's writes to its own object: no emptying, no setting.
  EXPECT_FALSE(E["Conn::on_msg"].At);
  EXPECT_FALSE(E["Conn::on_close"].Set);
  // Another object's member, emptied in a destructor: an emptying.
  EXPECT_TRUE(E["Chain::cb"].At);
  // Freed right after: none; only its buffer freed: an emptying.
  EXPECT_FALSE(E["Raw::read"].At);
  EXPECT_TRUE(E["Raw::write"].At);
}

TEST(FactsEmptyings, AMoveEmptiesWhereItsClassMoveDoes) {
  auto E = emptyingsByName(R"cc(
    #include <memory>
    #include <utility>
    struct Impl { int run(int x) { return x; } };
    // An implicit move copies the raw pointer: the source still points.
    struct Raw {
      Impl *impl = nullptr;
      explicit operator bool() const { return impl != nullptr; }
      int operator()(int x) const { return impl->run(x); }
    };
    // A defaulted move moves the shared_ptr, which leaves it null.
    struct Owning {
      std::shared_ptr<Impl> impl;
      Owning() = default;
      Owning(Owning &&) = default;
      Owning &operator=(Owning &&) = default;
      explicit operator bool() const { return impl != nullptr; }
      int operator()(int x) const { return impl->run(x); }
    };
    struct Holder {
      Raw raw, raw_built;
      Owning owning, owning_built;
      void give(Raw &r, Owning &o) {
        r = std::move(raw);
        o = std::move(owning);
      }
      void build() {
        Raw r(std::move(raw_built));
        Owning o(std::move(owning_built));
      }
    };
  )cc");
  // Both methods run only when called: their emptyings are named by them.
  EXPECT_EQ(E["Holder::raw"].In, 0u);
  EXPECT_EQ(E["Holder::raw_built"].In, 0u);
  EXPECT_EQ(E["Holder::owning"].In, 1u);
  EXPECT_EQ(E["Holder::owning_built"].In, 1u);
}

TEST(FactsGlobals, AGlobalIsASourceLikeAField) {
  ProjectFacts F = factsOf(R"cc(
    #include <functional>
    #include <utility>
    using Fn = std::function<void()>;
    typedef void (*hook_fn)(int);
    static hook_fn g_hook;
    Fn g_done = [] {};
    Fn g_moved = [] {};
    Fn g_init_only = nullptr;
    struct Hooks { static Fn on_error; };
    void set_hook(hook_fn h) { g_hook = h; }
    void finish() { g_done = nullptr; }
    void take() { Fn f = std::move(g_moved); f(); }
    void set_error(Fn f) { Hooks::on_error = std::move(f); }
    void use() {
      static Fn local_static;
      local_static = nullptr;
    }
  )cc");
  std::map<std::string, const SourceFacts *> ByName;
  for (const auto &[Key, S] : F.sources())
    if (S.Kind == SourceKind::Global) {
      EXPECT_EQ(Key.substr(0, 2), "g:") << Key;
      ByName[S.Name] = &S;
    }
  // A setter copies its parameter in; an assignment of null and a move out
  // empty it; an initializer alone records nothing, and a static local is
  // its function's own.
  ASSERT_TRUE(ByName.count("g_hook"));
  EXPECT_TRUE(ByName["g_hook"]->SetAt.valid());
  ASSERT_EQ(ByName["g_hook"]->AssignedFrom.size(), 1u);
  EXPECT_EQ(ByName["g_hook"]->AssignedFrom.begin()->first.substr(0, 2), "p:");
  EXPECT_FALSE(ByName["g_hook"]->EmptiedAt.valid());
  ASSERT_TRUE(ByName.count("g_done"));
  EXPECT_EQ(ByName["g_done"]->EmptiedAt.Function, "finish");
  EXPECT_FALSE(ByName["g_done"]->SetAt.valid());
  ASSERT_TRUE(ByName.count("g_moved"));
  EXPECT_EQ(ByName["g_moved"]->EmptiedAt.Function, "take");
  ASSERT_TRUE(ByName.count("Hooks::on_error"));
  EXPECT_EQ(ByName["Hooks::on_error"]->AssignedFrom.size(), 1u);
  EXPECT_EQ(ByName.count("g_init_only"), 0u);
  EXPECT_EQ(ByName.count("local_static"), 0u);
  EXPECT_EQ(ByName.size(), 4u);
}

TEST(FactsConstructions, ObjectsHandedToUnseenCodeMarkTheirClasses) {
  ProjectFacts F = factsOf(R"cc(
    using Fn = int (*)(int);
    struct Exposed { Fn run; };
    struct Plugin { Fn creator; Exposed exposed; };
    struct Derived : Plugin {};
    struct Viewed { Fn f; };
    struct ByRef { Fn f; };
    struct Direct { Fn f; };
    struct Kept { Fn f; };
    using RegFcn = int (*)(Derived *);
    using View = void (*)(const Viewed *);
    using Fill = void (*)(ByRef &);
    void fill_direct(Direct *d);
    void fill_by_ref(ByRef &r) noexcept {}
    struct Maker { static int make(Kept *k) { return 0; } int own(Kept *k); };
    int Maker::own(Kept *k) { return 1; }
    int only_called(Viewed *v) { return 0; }
    Fill fills[] = {fill_by_ref};
    int (*makes)(Kept *) = &Maker::make;
    int call_it(Viewed *v) { return only_called(v); }
    void load(RegFcn reg, View view, Fill fill) {
      Derived d;
      reg(&d);
      Viewed v{};
      view(&v);
      ByRef r{};
      fill(r);
      Direct x{};
      fill_direct(&x);
      Kept k{};
      (void)k;
    }
  )cc");
  // Through a function pointer, by pointer or non-const reference: the
  // object's class and its members' and bases' classes, by the pointer's
  // signature. A const object, a direct call and an object never handed are
  // not recorded. The functions whose address is taken that take such an
  // object record their signatures (a function only called, or a
  // non-static method, is none; noexcept is not part of it), and a handed
  // signature no such function has is unseen code.
  std::map<std::string, std::string> Handed, With;
  std::map<std::string, bool> Unseen;
  for (const auto &[Key, S] : F.sources()) {
    if (S.Kind != SourceKind::Class)
      continue;
    for (const auto &[Sig, At] : S.HandedThrough)
      Handed[S.Name] += Sig + "@" + At.Function + ";";
    for (const std::string &Sig : S.DefinedWith)
      With[S.Name] += Sig + ";";
    Unseen[S.Name] = S.handedToUnseen();
  }
  std::map<std::string, std::string> Expected = {
      {"Exposed", "int(Derived *)@load;"},
      {"Plugin", "int(Derived *)@load;"},
      {"ByRef", "void(ByRef &)@load;"}};
  EXPECT_EQ(Handed, Expected);
  std::map<std::string, std::string> ExpectedWith = {
      {"ByRef", "void(ByRef &);"}, {"Kept", "int(Kept *);"}};
  EXPECT_EQ(With, ExpectedWith);
  EXPECT_TRUE(Unseen["Exposed"]);
  EXPECT_TRUE(Unseen["Plugin"]);
  EXPECT_FALSE(Unseen["ByRef"]);
  EXPECT_FALSE(Unseen["Kept"]);
}

TEST(FactsElements, WritesIntoContainersAreRecordedPerPart) {
  ProjectFacts F = factsOf(R"cc(
    #include <functional>
    #include <map>
    #include <string>
    #include <tuple>
    #include <utility>
    #include <vector>
    using Fn = std::function<void(int)>;
    using Err = std::function<void(int)>;
    struct Bus {
      std::map<int, std::pair<int, Fn>> watches;
      std::map<int, std::tuple<Fn, Err>> pending, live;
      std::vector<Fn> handlers;
      std::vector<std::pair<std::string, Fn>> named;
      void watch(int fd, bool r, bool w, Fn &&cb) {
        if (r) watches[fd] = std::make_pair(fd, std::move(cb));
        if (w) watches[fd + 1] = std::pair<int, Fn>(fd, std::move(cb));
      }
      void subscribe(int id, Fn l, Err e = nullptr) {
        l = std::move(l);
        std::tuple<Fn, Err> t;
        t = std::make_tuple(l, std::move(e));
        pending[id] = std::move(t);
      }
      void apply() {
        for (auto it = pending.begin(); it != pending.end(); ++it)
          live.insert(*it);
      }
      void add(const std::string &n) {
        handlers.push_back([](int) {});
        named.emplace_back(n, nullptr);
      }
      void add_either(bool a, Fn cb) {
        if (a) handlers.push_back(std::move(cb));
        else handlers.push_back(std::move(cb));
      }
    };
    void local_only() { std::vector<Fn> v; v.push_back(nullptr); }
  )cc");
  std::map<std::string, const SourceFacts *> ByName;
  std::map<std::string, std::string> KeyOf;
  for (const auto &[Key, S] : F.sources())
    if (S.Kind == SourceKind::Element) {
      EXPECT_EQ(Key.substr(0, 2), "e:") << Key;
      ByName[S.Name] = &S;
      KeyOf[S.Name] = Key;
    }
  // One entry per callable part, named as messages show it; a local
  // container is its function's own.
  EXPECT_EQ(ByName.size(), 7u);
  // The first move passes the caller's value; the second, after it on a
  // path, the moved-from one.
  const SourceFacts *W = ByName["Bus::watches[].second"];
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Args.Empty, 1u);
  EXPECT_EQ(W->Args.EmptyAt.Line, 17u);
  EXPECT_EQ(W->Args.From.size(), 1u);
  // A self-move, through a local tuple: the listener part is empty; the
  // error part is what the callers pass for it.
  const SourceFacts *L = ByName["std::get<0>(Bus::pending[])"];
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Args.Empty, 1u);
  const SourceFacts *E = ByName["std::get<1>(Bus::pending[])"];
  ASSERT_TRUE(E);
  EXPECT_EQ(E->Args.Empty, 0u);
  ASSERT_EQ(E->Args.From.size(), 1u);
  EXPECT_EQ(E->Args.From.begin()->first.substr(0, 2), "p:");
  // Copied from another container's entries, part by part.
  for (const char *Part : {"0", "1"}) {
    std::string Name = std::string("std::get<") + Part + ">(Bus::";
    const SourceFacts *Live = ByName[Name + "live[])"];
    ASSERT_TRUE(Live) << Part;
    ASSERT_EQ(Live->Args.From.size(), 1u);
    EXPECT_EQ(Live->Args.From.begin()->first, KeyOf[Name + "pending[])"]);
  }
  // A lambda is set; moves in the two branches of one `if` each pass the
  // caller's value.
  const SourceFacts *H = ByName["Bus::handlers[]"];
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Args.Set, 1u);
  EXPECT_EQ(H->Args.Empty, 0u);
  EXPECT_EQ(H->Args.From.size(), 1u);
  // Constructed in place from its members.
  const SourceFacts *N = ByName["Bus::named[].second"];
  ASSERT_TRUE(N);
  EXPECT_EQ(N->Args.Empty, 1u);
}

/// Class name -> its constructions' "CtorName then sets I,J" (SetAfter),
/// one per construction group.
std::map<std::string, std::vector<std::string>>
constructionsByClass(llvm::StringRef Code) {
  std::map<std::string, std::vector<std::string>> Out;
  ProjectFacts F = factsOf(Code);
  for (const auto &[Key, S] : F.sources())
    for (const auto &[Sig, K] : S.Constructions) {
      std::string Text = K.CtorName;
      for (size_t I = 0; I < K.SetAfter.size(); ++I)
        Text += (I ? "," : " then sets ") + std::to_string(K.SetAfter[I]);
      Out[S.Name].push_back(Text);
    }
  for (auto &Entry : Out)
    std::sort(Entry.second.begin(), Entry.second.end());
  return Out;
}

TEST(FactsConstructions, ADerivedObjectIsAConstructionOfItsBase) {
  auto K = constructionsByClass(R"cc(
    #include <functional>
    #include <memory>
    struct Buffer {
      virtual ~Buffer() { release(); }
      int size = 0;
      std::function<void()> release;
    };
    struct Device : Buffer {};
    struct Pinned : Device {};
    struct Host : Buffer {};
    std::unique_ptr<Buffer> make(int kind) {
      if (kind == 0) {
        auto b = std::make_unique<Pinned>();
        b->release = [] {};
        return b;
      }
      Buffer *raw = new Host;
      return std::unique_ptr<Buffer>(raw);
    }
  )cc");
  // Pinned through Device (two levels, then set: field 1) and Host (not
  // set); Device, Pinned and Host themselves have no callable field.
  EXPECT_EQ(K["Buffer"],
            (std::vector<std::string>{"Host()", "Pinned() then sets 1"}));
  EXPECT_EQ(K.count("Pinned"), 0u);
  EXPECT_EQ(K.count("Host"), 0u);
}

TEST(FactsConstructions, ABaseSubobjectNamesTheMethodsItsClassOverrides) {
  ProjectFacts F = factsOf(R"cc(
    typedef void (*Fn)(int);
    struct Base {
      Fn f;
      virtual void run(int x) { f(x); }
      virtual void stop() {}
      virtual ~Base() {}
      explicit Base(Fn g) : f(g) {}
    };
    struct Own : Base {
      Own() : Base(nullptr) {}
      void run(int) override {}
    };
    struct Calls : Base {
      Calls() : Base(nullptr) {}
      void run(int x) override { Base::run(x); }
    };
    struct Implicit : Own {};
    void make() { Implicit i; Calls c; }
  )cc");
  // Per construction of Base: where it is made, and the methods overridden.
  std::map<std::string, std::string> Got;
  for (const auto &[Key, S] : F.sources())
    if (S.Name == "Base")
      for (const auto &[Sig, K] : S.Constructions) {
        std::string Text;
        for (const std::string &M : K.Overridden)
          Text += (M.find("run") != std::string::npos ? "run" : M) + ";";
        Got[K.At.Function] += Text + "|";
      }
  // Own's constructor overrides run (and its implicit derived class's
  // object too); Calls runs Base::run from its override.
  std::map<std::string, std::string> Expected = {{"Own::Own", "run;|"},
                                                 {"Calls::Calls", "|"}};
  EXPECT_EQ(Got, Expected);
}

TEST(FactsConstructions, ADerivedConstructorsBodySetsItsBase) {
  auto K = constructionsByClass(R"cc(
    #include <functional>
    using Fn = std::function<void()>;
    struct Cmd {
      virtual ~Cmd() = default;
      int id = 0;
      Fn parse;
    };
    struct Help : Cmd { Help() { parse = [] {}; } };
    struct Half : Cmd { explicit Half(bool b) { if (b) parse = [] {}; } };
    struct Bare : Cmd { Bare() {} };
  )cc");
  // The base subobject each constructor makes: set by Help's body on every
  // path (field 1), not by Half's (one path) nor by Bare's.
  EXPECT_EQ(K["Cmd"], (std::vector<std::string>{"Cmd{}", "Cmd{} then sets 1"}));
}

TEST(FactsEmptyings, AMethodTheDestructorCallsRunsOnlyAsTheObjectDies) {
  ProjectFacts F = factsOf(R"cc(
    #include <functional>
    struct Session {
      std::function<void()> cb;
      ~Session() { teardown(); }
      void teardown() { cb = nullptr; }
    };
    struct Channel {
      std::function<void()> cb;
      ~Channel() { teardown(); }
      void stop() { teardown(); }
      void teardown() { cb = nullptr; }
    };
  )cc");
  auto CalledNamed = [&](llvm::StringRef Name) {
    for (const auto &[Key, S] : F.sources())
      if (S.Kind == SourceKind::Function && S.Name == Name)
        return S.Called;
    return false;
  };
  EXPECT_FALSE(CalledNamed("Session::teardown"));
  EXPECT_TRUE(CalledNamed("Channel::teardown"));
}

/// Flag name -> what its values vouch for (SourceFacts::Vouches), by the
/// names of the sources.
std::map<std::string, std::map<std::string, std::set<std::string>>>
vouchesByName(llvm::StringRef Code) {
  ProjectFacts F = factsOf(Code);
  std::map<std::string, std::map<std::string, std::set<std::string>>> Out;
  for (const auto &[Key, S] : F.sources())
    for (const auto &[Value, Keys] : S.Vouches) {
      std::set<std::string> &Names = Out[S.Name][Value];
      for (const std::string &K : Keys)
        Names.insert(F.find(K) ? F.find(K)->Name : K);
    }
  return Out;
}

TEST(FactsFlags, AFlagVouchesForWhatEveryWriteThatSetsItProves) {
  // A write vouches for the callables that the tests around it prove
  // non-empty, or that the value it stores tests; a write that clears sets
  // nothing; a constant `true` with no test, another value, a whole-bitset
  // write or a true default member initializer vouch for nothing.
  auto V = vouchesByName(R"cc(
    using Fn = int (*)(int);
    enum class Flag { Static, Callback, Stopped };
    template <class E> struct Bits {
      bool test(E e) const { return (v >> unsigned(e)) & 1u; }
      void set(E e) { v |= 1u << unsigned(e); }
      void set(E e, bool on) { if (on) set(e); }
      void reset() { v = 0; }
      void flip(E e) { v ^= 1u << unsigned(e); }
      void fill() { v = ~0u; }
      unsigned v = 0;
    };
    struct Buf { Fn cb; Fn other; };
    struct Voice {
      Bits<Flag> flags, filled, assigned, copied;
      bool has = false, forced = false, stored = false, cleared = false,
           early = false, dflt = true;
      Voice() : stored(false) {}
      Voice(const Voice &o) : copied(o.copied) {}
    };
    void init(Voice &v, const Buf *b, bool x) {
      v.flags.reset();
      if (b->cb)
        v.flags.set(Flag::Callback);
      else
        v.flags.set(Flag::Static);
      v.flags.set(Flag::Stopped, b->other != nullptr);
      if (b->cb && b->other) v.has = true;
      if (b->cb) v.forced = true;
      v.forced = true;
      v.stored = b->other != nullptr;
      v.cleared = false;
      if (!b->other) return;
      v.early = true;
      v.filled.fill();
      v.assigned = Bits<Flag>{};
      v.copied.flip(Flag::Callback);
      v.dflt = x;
    }
  )cc");
  using Set = std::set<std::string>;
  EXPECT_EQ(V["Voice::flags"]["1"], Set({"Buf::cb"}));
  EXPECT_EQ(V["Voice::flags"]["0"], Set());
  EXPECT_EQ(V["Voice::flags"]["2"], Set({"Buf::other"}));
  EXPECT_EQ(V["Voice::flags"].count("*"), 0u);
  EXPECT_EQ(V["Voice::has"][""], Set({"Buf::cb", "Buf::other"}));
  EXPECT_EQ(V["Voice::forced"][""], Set());
  EXPECT_EQ(V["Voice::stored"][""], Set({"Buf::other"}));
  EXPECT_EQ(V.count("Voice::cleared"), 0u);
  EXPECT_EQ(V["Voice::early"][""], Set({"Buf::other"}));
  EXPECT_EQ(V["Voice::filled"]["*"], Set());
  EXPECT_EQ(V.count("Voice::assigned"), 0u);
  EXPECT_EQ(V["Voice::copied"]["1"], Set());
  EXPECT_EQ(V["Voice::dflt"][""], Set());
}

} // namespace
} // namespace wrapguard
