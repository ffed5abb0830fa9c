// The facts of issue 14 (what the project does): constructions, the
// arguments calls pass, overrides, conditions kept in members, lifecycles.
// Their merge keeps results independent of scheduling and sharding, their
// JSON round-trips, and resolve() turns them into the findings and notes
// that docs/checks/unchecked-policy-call.md describes.

#include "ProjectFacts.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstring>

namespace wrapguard {
namespace {

FactLoc at(llvm::StringRef File, unsigned Line, llvm::StringRef Function) {
  FactLoc L;
  L.File = File.str();
  L.Line = Line;
  L.Column = 5;
  L.Offset = Line * 40;
  L.Function = Function.str();
  return L;
}

ValueState set() { return ValueState::of(ValueState::Set); }
ValueState empty() { return ValueState::of(ValueState::Empty); }
ValueState notCallable() { return ValueState::of(ValueState::NotCallable); }
ValueState from(std::string Key) { return ValueState{ValueState::From, {Key}}; }

CtorFact ctor(std::string Name, bool Sets, int FromParameter = -1,
              std::string Condition = "") {
  CtorFact C;
  C.Name = std::move(Name);
  C.SetsField = Sets;
  C.FromParameter = FromParameter;
  C.Condition = std::move(Condition);
  C.ConditionText = C.Condition.empty() ? "" : "use_bias";
  C.Loc = at("/p/backend.h", 10, "");
  return C;
}

ConstructionFact construction(std::string Ctor, std::string Name,
                              std::vector<ValueState> Args, FactLoc At,
                              unsigned Count = 1) {
  ConstructionFact K;
  K.Ctor = std::move(Ctor);
  K.CtorName = std::move(Name);
  K.Args = std::move(Args);
  K.At = std::move(At);
  K.Count = Count;
  return K;
}

void addConstruction(ProjectFacts &F, const ConstructionFact &K) {
  SourceFacts &Class = F.get("c:B", SourceKind::Class, "Backend");
  Class.Constructions[K.signature()] = K;
}

/// A class Backend with a conv constructor (ConvP *, Fn pad) that sets
/// `pad` from its parameter 1 and a deconv constructor that leaves it empty;
/// `bwd` is set by neither.
ProjectFacts backend() {
  ProjectFacts F;
  SourceFacts &Pad = F.get("m:pad", SourceKind::Field, "Backend::pad");
  Pad.Owner = "c:B";
  Pad.Constructors["f:conv"] = ctor("Backend(ConvP *, Fn)", true, 1);
  Pad.Constructors["f:deconv"] = ctor("Backend(DeconvP *)", false);
  SourceFacts &Bwd = F.get("m:bwd", SourceKind::Field, "Backend::bwd");
  Bwd.Owner = "c:B";
  Bwd.Constructors["f:conv"] = ctor("Backend(ConvP *, Fn)", false);
  Bwd.Constructors["f:deconv"] = ctor("Backend(DeconvP *)", false);
  return F;
}

/// backend() with one construction of each kind: conv's sets `pad`,
/// deconv's does not, so `pad` is per mode.
ProjectFacts perModeBackend() {
  ProjectFacts F = backend();
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), set()},
                                  at("/p/conv.cpp", 12, "Conv::init")));
  addConstruction(F, construction("f:deconv", "Backend(DeconvP *)",
                                  {notCallable()},
                                  at("/p/deconv.cpp", 7, "Deconv::init")));
  return F;
}

/// Writes Facts, replaces each From by its To in the text (one at a time),
/// and expects the reader to reject every result.
void expectEditsRejected(
    const ProjectFacts &Facts,
    std::initializer_list<std::pair<const char *, const char *>> Edits) {
  std::string Text = llvm::formatv("{0}", Facts.toJSON()).str();
  for (auto [From, To] : Edits) {
    std::string Broken = Text;
    size_t At = Broken.find(From);
    ASSERT_NE(At, std::string::npos) << Text;
    Broken.replace(At, strlen(From), To);
    auto Bad = llvm::json::parse(Broken);
    ASSERT_TRUE(bool(Bad));
    auto Rejected = ProjectFacts::fromJSON(*Bad);
    EXPECT_FALSE(bool(Rejected)) << Broken;
    if (!Rejected)
      llvm::consumeError(Rejected.takeError());
  }
}

Candidate call(std::string Key, std::string Name = "fn") {
  Candidate C;
  C.Name = std::move(Name);
  C.Keys = {std::move(Key)};
  C.PolicyNames = "policy";
  return C;
}

std::string text(const llvm::json::Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << V;
  return S;
}

//===----------------------------------------------------------------------===//
// Constructions.
//===----------------------------------------------------------------------===//

TEST(EvidenceConstructions, NeverSetNamesTheConstructions) {
  ProjectFacts F = backend();
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), set()},
                                  at("/p/conv.cpp", 12, "Conv::init")));
  addConstruction(F, construction("f:deconv", "Backend(DeconvP *)",
                                  {notCallable()},
                                  at("/p/deconv.cpp", 7, "Deconv::init"), 3));
  Resolution R = resolve(F, call("m:bwd", "bwd"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 3u);
  EXPECT_EQ(R.Notes[0].Message, "'Backend::bwd' is set by none of the 4 "
                                "constructions of 'Backend' in the project");
  EXPECT_EQ(R.Notes[1].Message,
            "'Backend' is constructed with 'Backend(ConvP *, Fn)', which "
            "leaves 'Backend::bwd' empty, in 'Conv::init' (conv.cpp:12)");
  EXPECT_EQ(R.Notes[2].Loc.File, "/p/deconv.cpp");
}

TEST(EvidenceConstructions, AClassHandedToUnseenCodeIsNotNeverSet) {
  // The same constructions, but an object of the class was handed to a
  // function pointer of a signature the project defines no function of (a
  // plugin's registration function), which may set `bwd` where no TU shows
  // it: no default finding without a test. One the project defines a
  // function of changes nothing. The facts merge (first place kept) and
  // round-trip.
  ProjectFacts F = backend();
  addConstruction(F, construction("f:deconv", "Backend(DeconvP *)",
                                  {notCallable()},
                                  at("/p/deconv.cpp", 7, "Deconv::init")));
  ASSERT_TRUE(resolve(F, call("m:bwd", "bwd")).Report);
  ProjectFacts Handed;
  Handed.get("c:B", SourceKind::Class, "Backend")
      .HandedThrough["int(Backend *)"] =
      at("/p/plugin.cpp", 40, "pluginFromRegFcn");
  ProjectFacts Later;
  Later.get("c:B", SourceKind::Class, "Backend")
      .HandedThrough["int(Backend *)"] = at("/p/zload.cpp", 3, "load");
  Handed.merge(Later);
  // A signature the project defines a function of calls code it shows.
  ProjectFacts Shown = F;
  Shown.merge(Handed);
  Shown.get("c:B", SourceKind::Class, "Backend")
      .DefinedWith.insert("int(Backend *)");
  EXPECT_TRUE(resolve(Shown, call("m:bwd", "bwd")).Report);
  F.merge(Handed);
  EXPECT_FALSE(resolve(F, call("m:bwd", "bwd")).Report);
  Candidate Strict = call("m:bwd", "bwd");
  Strict.Strict = true;
  EXPECT_TRUE(resolve(F, Strict).Report);
  // A test elsewhere (belief) still ties the call to an empty one.
  ProjectFacts Believed = F;
  Believed.get("m:bwd", SourceKind::Field, "Backend::bwd").Tested = 1;
  Believed.get("m:bwd", SourceKind::Field, "Backend::bwd").TestedAt =
      at("/p/use.cpp", 5, "maybe_run");
  EXPECT_TRUE(resolve(Believed, call("m:bwd", "bwd")).Report);
  auto Back = ProjectFacts::fromJSON(F.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(F.toJSON()));
  EXPECT_EQ(Back->find("c:B")->HandedThrough.at("int(Backend *)").File,
            "/p/plugin.cpp");
  auto ShownBack = ProjectFacts::fromJSON(Shown.toJSON());
  ASSERT_TRUE(bool(ShownBack)) << llvm::toString(ShownBack.takeError());
  EXPECT_EQ(text(ShownBack->toJSON()), text(Shown.toJSON()));
  EXPECT_EQ(ShownBack->find("c:B")->DefinedWith.count("int(Backend *)"), 1u);
}

TEST(EvidenceConstructions, BasesOfOverridingClassesDoNotReachTheMethod) {
  // Both constructions are base subobjects of classes that override the
  // virtual method f:run the call is in: no object they make runs it, and
  // the constructors are no evidence either.
  ProjectFacts F = backend();
  ConstructionFact Conv =
      construction("f:conv", "Backend(ConvP *, Fn)", {notCallable(), set()},
                   at("/p/conv.cpp", 12, "Conv::Conv"));
  ConstructionFact Deconv =
      construction("f:deconv", "Backend(DeconvP *)", {notCallable()},
                   at("/p/deconv.cpp", 7, "Deconv::Deconv"));
  Conv.Overridden = Deconv.Overridden = {"f:run"};
  addConstruction(F, Conv);
  addConstruction(F, Deconv);
  Candidate InRun = call("m:bwd", "bwd");
  InRun.VirtualMethod = "f:run";
  EXPECT_FALSE(resolve(F, InRun).Report);
  // Another virtual method, or a call outside one, meets them.
  Candidate InStep = InRun;
  InStep.VirtualMethod = "f:step";
  EXPECT_TRUE(resolve(F, InStep).Report);
  EXPECT_TRUE(resolve(F, call("m:bwd", "bwd")).Report);
  // One construction that does not override: it alone is counted.
  ConstructionFact Plain =
      construction("f:deconv", "Backend(DeconvP *)", {notCallable()},
                   at("/p/plain.cpp", 3, "make_plain"));
  addConstruction(F, Plain);
  Resolution R = resolve(F, InRun);
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[0].Message, "'Backend::bwd' is not set by the only "
                                "construction of 'Backend' in the project");
  EXPECT_EQ(R.Notes[1].Loc.File, "/p/plain.cpp");
}

TEST(EvidenceConstructions, PerModeIsQuietUnlessStrict) {
  ProjectFacts F = perModeBackend();
  EXPECT_FALSE(resolve(F, call("m:pad")).Report);
  Candidate Strict = call("m:pad");
  Strict.Strict = true;
  Resolution R = resolve(F, Strict);
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_NE(R.Notes[0].Message.find("'Backend(DeconvP *)'"), std::string::npos);
  // Belief (a test of the member elsewhere) ties the call to the empty mode.
  SourceFacts &Pad = F.get("m:pad", SourceKind::Field, "Backend::pad");
  Pad.Tested = 1;
  Pad.TestedAt = at("/p/other.cpp", 4, "careful");
  EXPECT_TRUE(resolve(F, call("m:pad")).Report);
}

TEST(EvidenceConstructions, TheArgumentDecidesAFieldSetFromAParameter) {
  ProjectFacts F = backend();
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), set()},
                                  at("/p/conv.cpp", 12, "Conv::init")));
  EXPECT_FALSE(resolve(F, call("m:pad")).Report);
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), empty()},
                                  at("/p/conv.cpp", 30, "Conv::lazy")));
  Resolution R = resolve(F, call("m:pad"));
  // One construction passes nullptr, one a lambda: per mode.
  EXPECT_FALSE(R.Report);
}

TEST(EvidenceConstructions, AConstructionInTheCallingFunctionDecides) {
  ProjectFacts F = backend();
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), set()},
                                  at("/p/conv.cpp", 12, "Conv::init")));
  Candidate C = call("m:pad");
  C.ConstructedClass = "c:B";
  C.Construction = construction("f:deconv", "Backend(DeconvP *)",
                                {notCallable()}, at("/p/run.cpp", 3, "run"));
  Resolution R = resolve(F, C);
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Loc.File, "/p/run.cpp");
  C.Construction =
      construction("f:conv", "Backend(ConvP *, Fn)", {notCallable(), set()},
                   at("/p/run.cpp", 3, "run"));
  EXPECT_FALSE(resolve(F, C).Report);
}

TEST(EvidenceConstructions, NoConstructionKeepsTheConstructorRule) {
  // A library scanned alone: the constructor that leaves it empty decides.
  Resolution R = resolve(backend(), call("m:pad"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message, "'Backend::pad' is not set by the "
                                "constructor 'Backend(DeconvP *)' "
                                "(backend.h:10)");
}

TEST(EvidenceConstructions, AnAssertionSetsTheConstructorRuleAside) {
  // The project asserts the field set where the objects come in: whoever
  // makes one (a user of the library) sets it, so the constructor that
  // leaves it empty is no evidence. Positive evidence still decides.
  ProjectFacts F = backend();
  F.get("m:pad", SourceKind::Field, "Backend::pad").AssertedAt =
      at("/p/registry.cpp", 12, "add_backend");
  EXPECT_FALSE(resolve(F, call("m:pad")).Report);
  F.get("m:pad", SourceKind::Field, "Backend::pad").EmptiedAt =
      at("/p/registry.cpp", 30, "reset");
  EXPECT_TRUE(resolve(F, call("m:pad")).Report);
  // An assertion is not a test: it makes no belief.
  ProjectFacts G = backend();
  G.get("m:pad", SourceKind::Field, "Backend::pad").AssertedAt =
      at("/p/registry.cpp", 12, "add_backend");
  G.get("m:pad", SourceKind::Field, "Backend::pad").Untested = 2;
  EXPECT_FALSE(resolve(G, call("m:pad")).Report);
}

TEST(EvidenceBelief, ATestHandedToAnAssertionElsewhereIsNoBelief) {
  // `Assert(h.cb != nullptr, "..")`, with Assert defined in another TU: a
  // test unless the definition ends the process without its parameter 0.
  const AssumedAssertion Assert{"f:assert", 0};
  ProjectFacts F;
  SourceFacts &Cb = F.get("m:cb", SourceKind::Field, "Hooks::cb");
  Cb.TestedUnless[Assert] = at("/p/hooks.cpp", 4, "starts");
  Cb.Untested = 1;
  // No definition seen: belief, named where the test is.
  Resolution R = resolve(F, call("m:cb"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message, "a value from 'Hooks::cb' is checked for "
                                "emptiness in 'starts' (hooks.cpp:4)");
  // A definition that returns only on it, but throws without it (a caller
  // may catch that and go on): still belief.
  SourceFacts Def;
  Def.Kind = SourceKind::Function;
  Def.Name = "Assert";
  Def.ReturnsOnlyIf = 0;
  F.get("f:assert", SourceKind::Function, "Assert") = Def;
  EXPECT_TRUE(resolve(F, call("m:cb")).Report);
  // One that ends the process without another parameter: still belief.
  F.get("f:assert", SourceKind::Function, "Assert").EndsProcessUnless = 1;
  EXPECT_TRUE(resolve(F, call("m:cb")).Report);
  EXPECT_FALSE(F.endsProcessUnless(Assert));
  // One that aborts without it: an assertion, no belief.
  F.get("f:assert", SourceKind::Function, "Assert").EndsProcessUnless = 0;
  EXPECT_TRUE(F.endsProcessUnless(Assert));
  EXPECT_FALSE(resolve(F, call("m:cb")).Report);
  // Another test that is belief still counts, and is the one named.
  F.get("m:cb", SourceKind::Field, "Hooks::cb").TestedUnless[{"f:log", 0}] =
      at("/p/hooks.cpp", 9, "logs");
  R = resolve(F, call("m:cb"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message, "a value from 'Hooks::cb' is checked for "
                                "emptiness in 'logs' (hooks.cpp:9)");
  // relevantFacts keeps the functions the tests were handed to.
  ProjectFacts Cut = relevantFacts({&F}, {call("m:cb")});
  EXPECT_TRUE(Cut.find("f:assert"));
  EXPECT_TRUE(resolve(Cut, call("m:cb")).Report);
  EXPECT_EQ(resolve(Cut, call("m:cb")).Notes[0].Message, R.Notes[0].Message);
  // As an assertion, it sets the constructor rule aside, as AssertedAt does.
  ProjectFacts G = backend();
  G.get("m:pad", SourceKind::Field, "Backend::pad").TestedUnless[Assert] =
      at("/p/registry.cpp", 12, "add_backend");
  EXPECT_TRUE(resolve(G, call("m:pad")).Report); // Assert unknown: belief
  G.get("f:assert", SourceKind::Function, "Assert") =
      F.get("f:assert", SourceKind::Function, "Assert");
  EXPECT_FALSE(resolve(G, call("m:pad")).Report);
  Candidate Strict = call("m:pad");
  Strict.Strict = true;
  EXPECT_TRUE(resolve(G, Strict).Report);
}

TEST(EvidenceBelief, TestsHandedToAssertionsMergeAndRoundTrip) {
  const AssumedAssertion Assert{"f:assert", 0};
  ProjectFacts A, B;
  A.get("m:cb", SourceKind::Field, "Hooks::cb").TestedUnless[Assert] =
      at("/p/b.cpp", 20, "late");
  B.get("m:cb", SourceKind::Field, "Hooks::cb").TestedUnless[Assert] =
      at("/p/a.cpp", 3, "early");
  B.get("m:cb", SourceKind::Field, "Hooks::cb").TestedUnless[{"f:check", 1}] =
      at("/p/a.cpp", 9, "early");
  SourceFacts DefA, DefB;
  DefA.Kind = DefB.Kind = SourceKind::Function;
  DefA.ReturnsOnlyIf = DefB.ReturnsOnlyIf = 0;
  DefA.EndsProcessUnless = 1;
  DefB.EndsProcessUnless = 0;
  A.get("f:assert", SourceKind::Function, "Assert").merge(DefA);
  B.get("f:assert", SourceKind::Function, "Assert").merge(DefB);
  ProjectFacts AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(text(AB.toJSON()), text(BA.toJSON()));
  const SourceFacts *Cb = AB.find("m:cb");
  ASSERT_EQ(Cb->TestedUnless.size(), 2u);
  EXPECT_EQ(Cb->TestedUnless.at(Assert).Function, "early"); // the first
  // Two definitions that disagree: the smaller parameter, in either order.
  EXPECT_EQ(AB.find("f:assert")->EndsProcessUnless, std::optional<unsigned>(0));
  llvm::Expected<ProjectFacts> Back = ProjectFacts::fromJSON(AB.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(AB.toJSON()));
  EXPECT_EQ(Back->find("m:cb")->TestedUnless.at({"f:check", 1}).Line, 9u);
  EXPECT_EQ(Back->find("f:assert")->EndsProcessUnless,
            std::optional<unsigned>(0));
  // Malformed entries are refused, with the source named.
  for (
      const char *Bad :
      {R"({"function": "f:assert", "parameter": -1, "at": {"file": "/p/a.cpp", "line": 3, "column": 5, "offset": 120}})",
       R"({"function": "", "parameter": 0, "at": {"file": "/p/a.cpp", "line": 3, "column": 5, "offset": 120}})",
       R"({"function": "f:assert", "parameter": 0})"}) {
    llvm::json::Value V = AB.toJSON();
    llvm::json::Object *Sources = V.getAsObject()->getObject("sources");
    (*Sources->getObject("m:cb")->getArray("testedUnless"))[0] =
        llvm::cantFail(llvm::json::parse(Bad));
    llvm::Expected<ProjectFacts> Read = ProjectFacts::fromJSON(V);
    ASSERT_FALSE(static_cast<bool>(Read)) << Bad;
    EXPECT_NE(llvm::toString(Read.takeError()).find("'m:cb'"),
              std::string::npos);
  }
  llvm::json::Value V = AB.toJSON();
  (*V.getAsObject()->getObject("sources")->getObject(
      "f:assert"))["endsProcessUnless"] = -2;
  llvm::Expected<ProjectFacts> Read = ProjectFacts::fromJSON(V);
  ASSERT_FALSE(static_cast<bool>(Read));
  EXPECT_NE(llvm::toString(Read.takeError()).find("endsProcessUnless"),
            std::string::npos);
}

TEST(EvidenceEmpties, AnEmptyingOfAFieldSetAgainNeedsATest) {
  // Emptied and never set again outside the constructors: it stays empty.
  ProjectFacts F = backend();
  SourceFacts &Pad = F.get("m:pad", SourceKind::Field, "Backend::pad");
  Pad.Constructors["f:deconv"].SetsField = true; // Every constructor sets it.
  Pad.EmptiedAt = at("/p/backend.cpp", 30, "Backend::stop");
  Resolution R = resolve(F, call("m:pad"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message,
            "'Backend::pad' is made empty in 'Backend::stop' (backend.cpp:30)");
  // Set again from outside (a reset for reuse, then a set before each use):
  // the default mode needs a test of it somewhere; StrictMode does not.
  Pad.SetAt = at("/p/channel.cpp", 12, "Channel::call");
  EXPECT_FALSE(resolve(F, call("m:pad")).Report);
  Candidate Strict = call("m:pad");
  Strict.Strict = true;
  EXPECT_TRUE(resolve(F, Strict).Report);
  Pad.Tested = 1;
  Pad.TestedAt = at("/p/other.cpp", 8, "careful");
  R = resolve(F, call("m:pad"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[1].Message, "a value from 'Backend::pad' is checked for "
                                "emptiness in 'careful' (other.cpp:8)");
}

TEST(EvidenceEmpties, AnEmptyingCountsWhereItsMethodRuns) {
  // Every constructor sets it; the only emptying is in a method that runs
  // only when called, and nothing calls it: no evidence by default.
  ProjectFacts F = backend();
  SourceFacts &Pad = F.get("m:pad", SourceKind::Field, "Backend::pad");
  Pad.Constructors["f:deconv"].SetsField = true;
  Pad.EmptiedIn["f:clear"] = at("/p/backend.cpp", 40, "Backend::clear");
  Pad.EmptiedIn["f:stop"] = at("/p/backend.cpp", 30, "Backend::stop");
  EXPECT_FALSE(resolve(F, call("m:pad")).Report);
  // StrictMode counts it, and names the first.
  Candidate Strict = call("m:pad");
  Strict.Strict = true;
  Resolution R = resolve(F, Strict);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message,
            "'Backend::pad' is made empty in 'Backend::stop' (backend.cpp:30)");
  // A TU calls clear(): that emptying is evidence, and the note names it.
  F.get("f:clear", SourceKind::Function, "Backend::clear").Called = true;
  R = resolve(F, call("m:pad"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message, "'Backend::pad' is made empty in "
                                "'Backend::clear' (backend.cpp:40)");
  // An emptying in code that runs anyway comes first when it is earlier.
  Pad.EmptiedAt = at("/p/backend.cpp", 20, "teardown");
  R = resolve(F, call("m:pad"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message,
            "'Backend::pad' is made empty in 'teardown' (backend.cpp:20)");
  // The facts a candidate needs include the methods' (relevantFacts).
  ProjectFacts Rel = relevantFacts({&F}, {call("m:pad")});
  ASSERT_TRUE(Rel.find("f:clear"));
  EXPECT_TRUE(Rel.find("f:clear")->Called);
}

TEST(EvidenceEmpties, TheCallingFunctionsOwnEmptyingsAreSetAside) {
  // `void fire() { cb_(x); cb_ = nullptr; }`: the one emptying is fire's
  // own, after its call (Candidate::Function names fire).
  ProjectFacts F = backend();
  SourceFacts &Cb = F.get("m:cb", SourceKind::Field, "Task::cb");
  Cb.Constructors["f:task"].SetsField = true;
  Cb.EmptiedAt = at("/p/task.cpp", 12, "Task::fire");
  Cb.EmptiedBy["f:fire"] = Cb.EmptiedAt;
  Candidate Own = call("m:cb");
  Own.Function = "f:fire";
  EXPECT_FALSE(resolve(F, Own).Report);
  // Without Function (something before the call may write it, or a loop
  // holds it), and in StrictMode, the emptying counts.
  EXPECT_TRUE(resolve(F, call("m:cb")).Report);
  Candidate Strict = Own;
  Strict.Strict = true;
  EXPECT_TRUE(resolve(F, Strict).Report);
  // Another function's emptying counts, and the note names it, not fire's.
  Cb.EmptiedBy["f:drop"] = at("/p/task.cpp", 30, "Task::drop");
  Resolution R = resolve(F, Own);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message,
            "'Task::cb' is made empty in 'Task::drop' (task.cpp:30)");
  // A method that runs only when called counts only where it is called.
  Cb.EmptiedIn["f:drop"] = Cb.EmptiedBy["f:drop"];
  EXPECT_FALSE(resolve(F, Own).Report);
  F.get("f:drop", SourceKind::Function, "Task::drop").Called = true;
  EXPECT_TRUE(resolve(F, Own).Report);
  // Both members survive a merge and the JSON form.
  ProjectFacts G;
  G.merge(F);
  auto Back = ProjectFacts::fromJSON(G.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->find("m:cb")->EmptiedBy.size(), 2u);
  Candidate OwnBack;
  ASSERT_TRUE(Candidate::fromJSON(Own.toJSON(), OwnBack));
  EXPECT_EQ(OwnBack.Function, "f:fire");
}

TEST(EvidenceEmpties, ATestOfTheObjectsStateSetsFieldEvidenceAside) {
  // Emptied in code that runs, and nothing sets it again: evidence...
  ProjectFacts F = backend();
  SourceFacts &Pad = F.get("m:pad", SourceKind::Field, "Backend::pad");
  Pad.Constructors["f:deconv"].SetsField = true;
  Pad.EmptiedAt = at("/p/backend.cpp", 30, "teardown");
  EXPECT_TRUE(resolve(F, call("m:pad")).Report);
  // ...except where the call runs only under a test of the object's other
  // state; StrictMode still reports it.
  Candidate Mode = call("m:pad");
  Mode.ModeTested = true;
  EXPECT_FALSE(resolve(F, Mode).Report);
  Mode.Strict = true;
  EXPECT_TRUE(resolve(F, Mode).Report);
  // A value emptied on the way is local evidence, not the facts'.
  Mode.Strict = false;
  Mode.EmptyLocally = true;
  EXPECT_TRUE(resolve(F, Mode).Report);
  // A run-time loader's result: a test of the object does not check it.
  Mode.EmptyLocally = false;
  Pad.EmptiedAt = FactLoc();
  Pad.LoadedFrom["dlsym"] = at("/p/loader.cpp", 9, "load");
  EXPECT_TRUE(resolve(F, Mode).Report);
}

TEST(EvidenceConstructions, MissingTUsSetTheConstructorRuleAside) {
  // A TU that did not parse may hold the constructions that count.
  ProjectFacts F = backend();
  F.noteMissingTUs(1);
  EXPECT_FALSE(resolve(F, call("m:pad")).Report);
  // Positive evidence still decides: a construction that leaves it empty.
  addConstruction(F, construction("f:deconv", "Backend(DeconvP *)",
                                  {notCallable()},
                                  at("/p/deconv.cpp", 7, "Deconv::init")));
  EXPECT_TRUE(resolve(F, call("m:pad")).Report);
  // The count is summed by the merge, kept by the JSON and by the facts
  // that a TU's candidates consult.
  ProjectFacts G;
  G.noteMissingTUs(2);
  G.merge(F);
  EXPECT_EQ(G.missingTUs(), 3u);
  auto Back = ProjectFacts::fromJSON(G.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->missingTUs(), 3u);
  const ProjectFacts *From[] = {&G};
  Candidate Cs[] = {call("m:pad")};
  EXPECT_EQ(relevantFacts(From, Cs).missingTUs(), 3u);
  EXPECT_EQ(text(backend().toJSON()).find("missingTUs"), std::string::npos);
}

TEST(EvidenceConstructions, AConditionKeptInAnUnchangedMemberHolds) {
  ProjectFacts F;
  SourceFacts &Bias = F.get("m:bias", SourceKind::Field, "Layer::bias_fn");
  Bias.Owner = "c:L";
  Bias.Constructors["f:L"] = ctor("Layer(bool)", true, -1, "m:use_bias");
  F.get("c:L", SourceKind::Class, "Layer").Constructions["f:L(-)"] =
      construction("f:L", "Layer(bool)", {notCallable()},
                   at("/p/net.cpp", 5, "build"));
  Candidate Guarded = call("m:bias");
  Guarded.Guards = {"m:use_bias"};
  EXPECT_FALSE(resolve(F, Guarded).Report);
  Candidate Unguarded = call("m:bias");
  Unguarded.Strict = true;
  EXPECT_TRUE(resolve(F, Unguarded).Report);
  // Assigned after construction: no longer an invariant.
  F.get("m:use_bias", SourceKind::Field, "Layer::use_bias").ChangedAt =
      at("/p/net.cpp", 40, "Layer::toggle");
  Guarded.Strict = true;
  EXPECT_TRUE(resolve(F, Guarded).Report);
}

//===----------------------------------------------------------------------===//
// Globals.
//===----------------------------------------------------------------------===//

TEST(EvidenceGlobals, ASetterWhoseCallerPassesEmptyIsNamed) {
  ProjectFacts F;
  SourceFacts &G = F.get("g:res", SourceKind::Global, "tableResolver");
  G.SetAt = at("/p/t.c", 93, "lou_registerTableResolver");
  G.AssignedFrom["p:reg#0"] = G.SetAt;
  SourceFacts &P = F.get("p:reg#0", SourceKind::Parameter, "resolver");
  P.Owner = "lou_registerTableResolver";
  P.Args.add(set(), at("/p/a.c", 3, "init"));
  Resolution Quiet = resolve(F, call("g:res", "tableResolver"));
  EXPECT_FALSE(Quiet.Report);
  P.Args.add(empty(), at("/p/a.c", 127, "reset"));
  Resolution R = resolve(F, call("g:res", "tableResolver"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[0].Message, "'tableResolver' is assigned a value from "
                                "'resolver' in 'lou_registerTableResolver' "
                                "(t.c:93)");
  EXPECT_EQ(R.Notes[1].Message,
            "'resolver' of 'lou_registerTableResolver' is passed an empty "
            "callable in 'reset' (a.c:127)");
}

TEST(EvidenceGlobals, AnEmptyingCountsAsAFieldsDoes) {
  ProjectFacts F;
  SourceFacts &G = F.get("g:cb", SourceKind::Global, "g_cb");
  // Nothing known: an initializer alone is not recorded, and decides
  // nothing.
  EXPECT_FALSE(resolve(F, call("g:cb", "g_cb")).Report);
  G.EmptiedAt = at("/p/a.cpp", 9, "shutdown");
  EXPECT_TRUE(resolve(F, call("g:cb", "g_cb")).Report);
  // Set again elsewhere: one phase of a lifecycle, unless the project
  // tests it somewhere.
  G.SetAt = at("/p/a.cpp", 4, "init");
  EXPECT_FALSE(resolve(F, call("g:cb", "g_cb")).Report);
  G.Tested = 1;
  G.TestedAt = at("/p/b.cpp", 2, "maybe_run");
  EXPECT_TRUE(resolve(F, call("g:cb", "g_cb")).Report);
}

//===----------------------------------------------------------------------===//
// Arguments and overrides.
//===----------------------------------------------------------------------===//

TEST(EvidenceArguments, ACallThatPassesEmptyIsNamed) {
  ProjectFacts F;
  SourceFacts &P = F.get("p:run#0", SourceKind::Parameter, "hook");
  P.Owner = "run_step";
  P.Args.add(set(), at("/p/a.cpp", 3, "train"));
  P.Args.add(empty(), at("/p/b.cpp", 9, "eval"));
  Resolution R = resolve(F, call("p:run#0", "hook"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message, "'hook' of 'run_step' is passed an empty "
                                "callable in 'eval' (b.cpp:9)");
}

TEST(EvidenceArguments, AMoveBySiblingArgumentIsNamedAsSuch) {
  // The note says what the facts know: the value may be empty, because
  // another argument of that call moves from it, not that it is.
  ProjectFacts F;
  SourceFacts &P = F.get("p:submit#0", SourceKind::Parameter, "on_error");
  P.Owner = "submit";
  P.Args.add(set(), at("/p/a.cpp", 3, "train"));
  P.Args.addSiblingMove(at("/p/b.cpp", 9, "schedule"), FlagValues());
  Resolution R = resolve(F, call("p:submit#0", "on_error"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message,
            "'on_error' of 'submit' may be passed a moved-from, empty "
            "callable in 'schedule' (b.cpp:9): another argument of that call "
            "moves from it, and the order in which arguments are evaluated "
            "is unspecified");
  // A call that passes an empty value outright comes first: its note is
  // the plain one.
  P.Args.add(empty(), at("/p/a.cpp", 1, "eval"));
  R = resolve(F, call("p:submit#0", "on_error"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message, "'on_error' of 'submit' is passed an empty "
                                "callable in 'eval' (a.cpp:1)");
  // Merged and written, the moves stay marked; a bad list is rejected.
  ProjectFacts G;
  G.merge(F);
  auto Back = ProjectFacts::fromJSON(G.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->find("p:submit#0")->Args.SiblingMoves, P.Args.SiblingMoves);
  expectEditsRejected(G, {{"\"siblingMoves\":[", "\"siblingMoves\":[1,"}});
}

TEST(EvidenceArguments, AMoveOutOfTheSourceIsNoEmptyingOfTheValueMoved) {
  // libtorrent's `m_handler(a, std::move(m_underlying_handler))`: the
  // parameter is passed the member's value, and the same expression
  // empties the member. That emptying, in the passing function, says
  // nothing about the value passed; an emptying elsewhere still does.
  ProjectFacts F;
  SourceFacts &M = F.get("m:under", SourceKind::Field, "Wrap::under");
  M.Owner = "c:Wrap";
  M.EmptiedAt = at("/p/wrap.h", 12, "Wrap::operator()");
  M.EmptiedBy["f:call"] = M.EmptiedAt;
  SourceFacts &P = F.get("p:lookup#0", SourceKind::Parameter, "handler");
  P.Owner = "on_lookup";
  P.Args.add(from("m:under"), at("/p/wrap.h", 12, "Wrap::operator()"));
  // Without the mark: the emptying is the evidence.
  EXPECT_TRUE(resolve(F, call("p:lookup#0", "handler")).Report);
  P.Args.MovedOutIn["m:under"].insert("f:call");
  EXPECT_FALSE(resolve(F, call("p:lookup#0", "handler")).Report);
  // StrictMode counts it, as it counts a function's own emptyings.
  Candidate Strict = call("p:lookup#0", "handler");
  Strict.Strict = true;
  EXPECT_TRUE(resolve(F, Strict).Report);
  // An emptying in another function counts.
  M.EmptiedBy["f:close"] = at("/p/wrap.h", 30, "Wrap::close");
  M.EmptiedAt = at("/p/wrap.h", 12, "Wrap::operator()");
  Resolution R = resolve(F, call("p:lookup#0", "handler"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_NE(R.Notes[1].Message.find("'Wrap::close' (wrap.h:30)"),
            std::string::npos)
      << R.Notes[1].Message;
  // Merged, the functions join; written and read back, they stay; an entry
  // for a source the calls do not pass, or an empty list, is rejected.
  ProjectFacts G;
  G.merge(F);
  ProjectFacts H;
  SourceFacts &Q = H.get("p:lookup#0", SourceKind::Parameter, "handler");
  Q.Args.add(from("m:under"), at("/p/other.h", 3, "Other::run"));
  Q.Args.MovedOutIn["m:under"].insert("f:run");
  G.merge(H);
  std::set<std::string> Both = {"f:call", "f:run"};
  EXPECT_EQ(G.find("p:lookup#0")->Args.MovedOutIn.at("m:under"), Both);
  auto Back = ProjectFacts::fromJSON(G.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->find("p:lookup#0")->Args.MovedOutIn,
            G.find("p:lookup#0")->Args.MovedOutIn);
  expectEditsRejected(
      G, {{"\"movedOutIn\":{\"m:under\"", "\"movedOutIn\":{\"m:other\""},
          {"\"movedOutIn\":{\"m:under\":[\"f:call\",\"f:run\"]",
           "\"movedOutIn\":{\"m:under\":[]"}});
}

TEST(EvidenceFlags, AFlagSetOnlyWhereTheSourceIsSetVouchesForIt) {
  // openal-soft's mixer: `if (buffer->cb) voice->flags.set(IsCallback);`,
  // then `if (voice.flags.test(IsCallback)) item->cb(..)`, with Buf::cb
  // emptied elsewhere. Where the flag is true, every write that set it had
  // seen the source set: the default mode takes it as set.
  ProjectFacts F;
  SourceFacts &Cb = F.get("m:cb", SourceKind::Field, "Buf::cb");
  Cb.EmptiedAt = at("/p/buf.cpp", 4, "unload");
  SourceFacts &Flags = F.get("m:flags", SourceKind::Field, "Voice::flags");
  Flags.noteFlagSet("1", {"m:cb", "m:other"});
  Flags.noteFlagSet("0", {});
  Candidate C = call("m:cb", "item->cb");
  EXPECT_TRUE(resolve(F, C).Report);
  C.Flags = {flagAtom("m:flags", "1")};
  EXPECT_FALSE(resolve(F, C).Report);
  // Another bit, a flag with no facts, or a bool flag's atom of the same
  // member vouch for nothing.
  for (std::string Atom : {flagAtom("m:flags", "0"), flagAtom("m:none", "1"),
                           flagAtom("m:flags", "")}) {
    Candidate Other = call("m:cb", "item->cb");
    Other.Flags = {Atom};
    EXPECT_TRUE(resolve(F, Other).Report) << Atom;
  }
  // StrictMode reports it.
  Candidate Strict = C;
  Strict.Strict = true;
  EXPECT_TRUE(resolve(F, Strict).Report);
  // One more write of the bit that proves only another source, from a TU
  // merged later, or one that may set every bit, takes the vouch away.
  ProjectFacts Later;
  Later.get("m:flags", SourceKind::Field, "Voice::flags")
      .noteFlagSet("1", {"m:other"});
  ProjectFacts Merged = F;
  Merged.merge(Later);
  EXPECT_EQ(Merged.find("m:flags")->Vouches.at("1"),
            std::set<std::string>({"m:other"}));
  EXPECT_TRUE(resolve(Merged, C).Report);
  ProjectFacts Filled = F;
  Filled.get("m:flags", SourceKind::Field, "").noteFlagSet("*", {});
  EXPECT_TRUE(resolve(Filled, C).Report);
  // A bool flag: its atom is the member's key.
  SourceFacts &Has = F.get("m:has", SourceKind::Field, "Player::has");
  Has.noteFlagSet("", {"m:cb"});
  Candidate B = call("m:cb", "p.item->cb");
  B.Flags = {flagAtom("m:has", "")};
  EXPECT_FALSE(resolve(F, B).Report);
  // The atoms split back; written and read back, the vouches stay; a value
  // that is no bit, or a list that is not one of keys, is rejected.
  EXPECT_EQ(
      flagAtomParts(flagAtom("m:c:@S@V@FI@f", "12")),
      std::make_pair(llvm::StringRef("m:c:@S@V@FI@f"), llvm::StringRef("12")));
  EXPECT_EQ(flagAtomParts("m:has").second, "");
  auto Back = ProjectFacts::fromJSON(F.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->find("m:flags")->Vouches, F.find("m:flags")->Vouches);
  EXPECT_EQ(Back->find("m:has")->Vouches, F.find("m:has")->Vouches);
  Candidate Read;
  ASSERT_TRUE(Candidate::fromJSON(B.toJSON(), Read));
  EXPECT_EQ(Read.Flags, B.Flags);
  expectEditsRejected(F,
                      {{"\"vouches\":{\"0\":[]", "\"vouches\":{\"x\":[]"},
                       {"\"vouches\":{\"0\":[]", "\"vouches\":{\"0\":[\"\"]"},
                       {"\"vouches\":{\"0\":[]", "\"vouches\":{\"0\":3"}});
}

TEST(EvidenceElements, WritesIntoAContainerDecideItsElements) {
  // What the writes store decides, as for a parameter what the calls pass;
  // a value copied from another container's elements is judged by that
  // container's writes, and each note names its own step.
  ProjectFacts F;
  SourceFacts &Live =
      F.get("e:live#0", SourceKind::Element, "std::get<0>(live[])");
  Live.Args.add(set(), at("/p/a.cpp", 3, "add"));
  Live.Args.add(from("e:pending#0"), at("/p/a.cpp", 50, "apply"));
  SourceFacts &Pending =
      F.get("e:pending#0", SourceKind::Element, "std::get<0>(pending[])");
  Pending.Args.add(set(), at("/p/a.cpp", 60, "subscribe"));
  EXPECT_FALSE(resolve(F, call("e:live#0", "std::get<0>(it->second)")).Report);
  Pending.Args.add(empty(), at("/p/a.cpp", 74, "subscribe"));
  Resolution R = resolve(F, call("e:live#0", "std::get<0>(it->second)"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[0].Message,
            "'std::get<0>(live[])' is given the value of "
            "'std::get<0>(pending[])' in 'apply' (a.cpp:50)");
  EXPECT_EQ(R.Notes[1].Message,
            "a callable that may be empty is stored in "
            "'std::get<0>(pending[])' in 'subscribe' (a.cpp:74)");
  // A write of unknown value leaves it to a test elsewhere, and with none,
  // to silence.
  SourceFacts &Other = F.get("e:other#v", SourceKind::Element, "other[]");
  Other.Args.add(set(), at("/p/b.cpp", 1, "add"));
  EXPECT_FALSE(resolve(F, call("e:other#v")).Report);
  Other.Args.add(ValueState::of(ValueState::Unknown), at("/p/b.cpp", 2, "x"));
  EXPECT_FALSE(resolve(F, call("e:other#v")).Report);
  Other.Tested = 1;
  Other.TestedAt = at("/p/b.cpp", 9, "run");
  EXPECT_TRUE(resolve(F, call("e:other#v")).Report);
  // The kind round-trips.
  auto Back = ProjectFacts::fromJSON(F.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_TRUE(Back->find("e:pending#0"));
  EXPECT_EQ(Back->find("e:pending#0")->Kind, SourceKind::Element);
  EXPECT_EQ(Back->find("e:pending#0")->Args.EmptyAt.Line, 74u);
}

TEST(EvidenceArguments, EveryCallSettingItBeatsATest) {
  ProjectFacts F;
  SourceFacts &P = F.get("p:apply#0", SourceKind::Parameter, "policy");
  P.Args.add(set(), at("/p/a.cpp", 3, "train"));
  P.Args.add(set(), at("/p/b.cpp", 9, "eval"));
  P.Tested = 1;
  P.TestedAt = at("/p/a.cpp", 20, "apply");
  EXPECT_FALSE(resolve(F, call("p:apply#0")).Report);
  // An argument of unknown state leaves the test to decide.
  P.Args.add(ValueState::of(ValueState::Unknown), at("/p/c.cpp", 1, "x"));
  EXPECT_TRUE(resolve(F, call("p:apply#0")).Report);
}

TEST(EvidenceArguments, ValuesFollowedFromOtherSources) {
  ProjectFacts F;
  SourceFacts &Inner = F.get("p:inner#0", SourceKind::Parameter, "cb");
  Inner.Owner = "inner";
  Inner.Args.add(from("p:outer#0"), at("/p/a.cpp", 5, "outer"));
  SourceFacts &Outer = F.get("p:outer#0", SourceKind::Parameter, "fn");
  Outer.Owner = "outer";
  Outer.Args.add(empty(), at("/p/b.cpp", 8, "main"));
  Resolution R = resolve(F, call("p:inner#0", "cb"));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[0].Message, "'cb' of 'inner' is passed a value from "
                                "'fn' in 'outer' (a.cpp:5)");
  EXPECT_EQ(R.Notes[1].Loc.File, "/p/b.cpp");
}

TEST(EvidenceArguments, ACycleOfParametersIsNotASource) {
  ProjectFacts F;
  F.get("p:a#0", SourceKind::Parameter, "f")
      .Args.add(from("p:b#0"), at("/p/a.cpp", 1, "b"));
  F.get("p:b#0", SourceKind::Parameter, "g")
      .Args.add(from("p:a#0"), at("/p/a.cpp", 2, "a"));
  EXPECT_FALSE(resolve(F, call("p:a#0")).Report);
}

TEST(EvidenceArguments, CallsThroughTheBaseMethodReachTheOverride) {
  ProjectFacts F;
  F.get("p:Base::emit#0", SourceKind::Parameter, "cb")
      .Args.add(empty(), at("/p/user.cpp", 11, "flush"));
  SourceFacts &Override = F.get("p:File::emit#0", SourceKind::Parameter, "cb");
  Override.Owner = "File::emit";
  Override.Overrides = {"p:Base::emit#0"};
  Resolution R = resolve(F, call("p:File::emit#0", "cb"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Loc.File, "/p/user.cpp");
}

//===----------------------------------------------------------------------===//
// Lifecycle.
//===----------------------------------------------------------------------===//

TEST(EvidenceLifecycle, SetOnlyAfterConstructionIsEmptyInTheDestructor) {
  ProjectFacts F;
  SourceFacts &M = F.get("m:release", SourceKind::Field, "Handle::release");
  M.Owner = "c:H";
  M.Constructors["f:H"] = ctor("Handle()", false);
  M.SetAt = at("/p/handle.cpp", 30, "Handle::create");
  // Elsewhere, the two-phase set-up keeps it quiet...
  EXPECT_FALSE(resolve(F, call("m:release")).Report);
  // ...but the destructor runs when create() never did.
  Candidate InDtor = call("m:release");
  InDtor.During = Candidate::Lifecycle::Destructor;
  InDtor.LifecycleClass = "c:H";
  Resolution R = resolve(F, InDtor);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Loc.Function, "Handle::create");
}

TEST(EvidenceLifecycle, ConstructionsSetRightAfterLeaveNoObjectEmpty) {
  ProjectFacts F;
  SourceFacts &M = F.get("m:release", SourceKind::Field, "Handle::release");
  M.Owner = "c:H";
  M.Index = 1;
  M.Constructors["f:H"] = ctor("Handle()", false);
  M.SetAt = at("/p/handle.cpp", 30, "Handle::create");
  SourceFacts &Class = F.get("c:H", SourceKind::Class, "Handle");
  ConstructionFact Made =
      construction("f:H", "Handle()", {}, at("/p/handle.cpp", 29, "create"));
  Made.SetAfter = {1};
  Class.Constructions[Made.signature()] = Made;
  Candidate InDtor = call("m:release");
  InDtor.During = Candidate::Lifecycle::Destructor;
  InDtor.LifecycleClass = "c:H";
  // Every construction the project performs is followed by the set.
  EXPECT_FALSE(resolve(F, InDtor).Report);
  // A set of another field does not count for this one.
  Made.SetAfter = {0};
  Class.Constructions.clear();
  Class.Constructions[Made.signature()] = Made;
  EXPECT_TRUE(resolve(F, InDtor).Report);
  // One more construction, not followed by the set: named in the notes.
  Made.SetAfter = {1};
  Class.Constructions.clear();
  Class.Constructions[Made.signature()] = Made;
  ConstructionFact Bare =
      construction("f:H", "Handle()", {}, at("/p/user.cpp", 5, "use"));
  Class.Constructions[Bare.signature()] = Bare;
  ASSERT_EQ(Class.Constructions.size(), 2u);
  Resolution R = resolve(F, InDtor);
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[1].Message, "'Handle' is constructed with 'Handle()', "
                                "which leaves 'Handle::release' empty, in "
                                "'use' (user.cpp:5)");
  // While the constructor runs, the field is empty whatever follows.
  Candidate InCtor = InDtor;
  InCtor.During = Candidate::Lifecycle::Constructor;
  EXPECT_TRUE(resolve(F, InCtor).Report);
}

TEST(EvidenceJSON, SetAfterRoundTripsAndBadOnesAreRejected) {
  ProjectFacts F;
  SourceFacts &Class = F.get("c:H", SourceKind::Class, "Handle");
  ConstructionFact Made =
      construction("f:H", "Handle()", {}, at("/p/handle.cpp", 29, "create"));
  Made.SetAfter = {0, 2};
  Class.Constructions[Made.signature()] = Made;
  auto Back = ProjectFacts::fromJSON(F.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(F.toJSON()));
  const SourceFacts *B = Back->find("c:H");
  ASSERT_NE(B, nullptr);
  ASSERT_EQ(B->Constructions.size(), 1u);
  EXPECT_EQ(B->Constructions.begin()->second.SetAfter,
            (std::vector<unsigned>{0, 2}));
  for (const char *Bad : {"\"x\"", "[-1]", "[\"0\"]"}) {
    std::string JSON = text(F.toJSON());
    size_t At = JSON.find("[0,2]");
    ASSERT_NE(At, std::string::npos);
    JSON.replace(At, 5, Bad);
    auto V = llvm::json::parse(JSON);
    ASSERT_TRUE(bool(V));
    auto R = ProjectFacts::fromJSON(*V);
    EXPECT_FALSE(bool(R)) << Bad;
    if (!R)
      llvm::consumeError(R.takeError());
  }
}

//===----------------------------------------------------------------------===//
// Merge and JSON.
//===----------------------------------------------------------------------===//

ProjectFacts shardA() {
  ProjectFacts F = backend();
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), set()},
                                  at("/p/conv.cpp", 12, "Conv::init")));
  SourceFacts &P = F.get("p:run#0", SourceKind::Parameter, "hook");
  P.Args.add(set(), at("/p/a.cpp", 3, "train"));
  P.Args.add(from("f:get"), at("/p/a.cpp", 4, "train"));
  return F;
}

ProjectFacts shardB() {
  ProjectFacts F;
  addConstruction(F, construction("f:conv", "Backend(ConvP *, Fn)",
                                  {notCallable(), set()},
                                  at("/p/conv2.cpp", 2, "Conv2::init"), 2));
  addConstruction(F, construction("f:deconv", "Backend(DeconvP *)",
                                  {notCallable()},
                                  at("/p/deconv.cpp", 7, "Deconv::init")));
  SourceFacts &P = F.get("p:run#0", SourceKind::Parameter, "hook");
  P.Args.add(empty(), at("/p/b.cpp", 9, "eval"));
  P.Overrides = {"p:base#0"};
  return F;
}

TEST(EvidenceMerge, IsCommutativeAndSumsConstructions) {
  ProjectFacts AB = shardA(), BA = shardB();
  AB.merge(shardB());
  BA.merge(shardA());
  EXPECT_EQ(text(AB.toJSON()), text(BA.toJSON()));
  const SourceFacts *Class = AB.find("c:B");
  ASSERT_NE(Class, nullptr);
  ASSERT_EQ(Class->Constructions.size(), 2u);
  const ConstructionFact &Conv = Class->Constructions.at(
      construction("f:conv", "", {notCallable(), set()}, {}).signature());
  EXPECT_EQ(Conv.Count, 3u);
  EXPECT_EQ(Conv.At.File, "/p/conv.cpp"); // The first in (file, offset).
  const SourceFacts *P = AB.find("p:run#0");
  EXPECT_EQ(P->Args.Set, 1u);
  EXPECT_EQ(P->Args.Empty, 1u);
  EXPECT_EQ(P->Args.From.count("f:get"), 1u);
  EXPECT_EQ(P->Overrides, std::vector<std::string>{"p:base#0"});
}

TEST(EvidenceJSON, RoundTripsEveryNewMember) {
  ProjectFacts F = shardA();
  F.merge(shardB());
  SourceFacts &Bias = F.get("m:bias", SourceKind::Field, "Layer::bias_fn");
  Bias.Owner = "c:L";
  Bias.Index = 2;
  Bias.Constructors["f:L"] = ctor("Layer(bool)", true, 0, "m:use_bias");
  Bias.AssignedFrom["p:set#0"] = at("/p/l.cpp", 8, "Layer::set");
  F.get("m:use_bias", SourceKind::Field, "Layer::use_bias").ChangedAt =
      at("/p/l.cpp", 9, "Layer::toggle");
  llvm::json::Value V = F.toJSON();
  auto Back = ProjectFacts::fromJSON(V);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(V));
  const SourceFacts *B = Back->find("m:bias");
  EXPECT_EQ(B->Owner, "c:L");
  EXPECT_EQ(B->Index, 2);
  EXPECT_EQ(B->Constructors.at("f:L").Condition, "m:use_bias");
  EXPECT_EQ(B->Constructors.at("f:L").FromParameter, 0);
  EXPECT_EQ(B->AssignedFrom.at("p:set#0").Line, 8u);
  EXPECT_EQ(Back->find("m:use_bias")->ChangedAt.Function, "Layer::toggle");
  EXPECT_EQ(Back->find("c:B")->Kind, SourceKind::Class);
}

TEST(EvidenceJSON, ValueStatesRoundTripAndBadOnesAreRejected) {
  for (const ValueState &V :
       {set(), empty(), notCallable(), ValueState::of(ValueState::Unknown),
        ValueState{ValueState::From, {"f:a", "p:b#1"}}}) {
    std::optional<ValueState> Back = ValueState::parse(V.text());
    ASSERT_TRUE(Back) << V.text();
    EXPECT_EQ(*Back, V) << V.text();
  }
  EXPECT_FALSE(ValueState::parse("sometimes"));
  EXPECT_FALSE(ValueState::parse("from("));
}

TEST(EvidenceCandidate, JSONKeepsGuardsConstructionAndLifecycle) {
  Candidate C = call("m:pad");
  C.Guards = {"m:use_bias", "!m:frozen"};
  C.ConstructedClass = "c:B";
  C.Construction =
      construction("f:conv", "Backend(ConvP *, Fn)", {notCallable(), empty()},
                   at("/p/run.cpp", 3, "run"));
  C.During = Candidate::Lifecycle::Destructor;
  C.LifecycleClass = "c:B";
  C.Strict = true;
  Candidate Back;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), Back));
  EXPECT_EQ(text(Back.toJSON()), text(C.toJSON()));
  EXPECT_EQ(Back.Guards, C.Guards);
  ASSERT_TRUE(Back.Construction);
  EXPECT_EQ(Back.Construction->signature(), C.Construction->signature());
  EXPECT_EQ(Back.During, Candidate::Lifecycle::Destructor);
  EXPECT_TRUE(Back.Strict);
}

//===----------------------------------------------------------------------===//
// Fields of an object a parameter points to, tested by the callers.
//===----------------------------------------------------------------------===//

/// `bwd` is set by no construction; `run(Backend *b)` calls `b->bwd`, and
/// the project's calls of run pass Set of Calls objects with it proven set.
ProjectFacts guardedRun(unsigned Calls, unsigned Set) {
  ProjectFacts F = backend();
  addConstruction(F, construction("f:deconv", "Backend(DeconvP *)",
                                  {notCallable()},
                                  at("/p/deconv.cpp", 7, "Deconv::init")));
  SourceFacts &P = F.get("p:run#0", SourceKind::Parameter, "b");
  P.Owner = "run";
  PassedFieldFacts &PF = P.PassedFields["m:bwd"];
  PF.Calls = Calls;
  PF.Set = Set;
  if (Set < Calls)
    PF.UnsetAt = at("/p/main.cpp", 20, "main");
  return F;
}

Candidate through(std::string Key) {
  Candidate C = call(std::move(Key), "b->bwd");
  C.Through = "p:run#0";
  return C;
}

TEST(EvidenceCallerGuards, EveryCallerProvingTheFieldSetDecides) {
  EXPECT_FALSE(resolve(guardedRun(2, 2), through("m:bwd")).Report);
  // One call that does not prove it, no call seen, or a candidate that is
  // not read through the parameter: the constructions decide.
  EXPECT_TRUE(resolve(guardedRun(2, 1), through("m:bwd")).Report);
  EXPECT_TRUE(resolve(guardedRun(0, 0), through("m:bwd")).Report);
  EXPECT_TRUE(resolve(guardedRun(2, 2), call("m:bwd")).Report);
  // Facts of another field say nothing of this one.
  EXPECT_TRUE(resolve(guardedRun(2, 2), through("m:pad")).Report ==
              resolve(guardedRun(2, 2), call("m:pad")).Report);
}

TEST(EvidenceCallerGuards, AGuardOnePointerMemberAwayIsKeyedByThatMember) {
  // The calls of run pass `b->impl->bwd` proven set (`Candidate::Via`).
  ProjectFacts F = guardedRun(0, 0);
  PassedFieldFacts &PF = F.get("p:run#0", SourceKind::Parameter, "b")
                             .PassedFields[passedFieldKey("m:impl", "m:bwd")];
  PF.Calls = PF.Set = 2;
  Candidate Via = through("m:bwd");
  Via.Via = "m:impl";
  EXPECT_FALSE(resolve(F, Via).Report);
  // The object's own field is another key, and so is another member's.
  EXPECT_TRUE(resolve(F, through("m:bwd")).Report);
  Via.Via = "m:other";
  EXPECT_TRUE(resolve(F, Via).Report);
  // The candidate carries the member through its JSON.
  Via.Via = "m:impl";
  Candidate Back;
  ASSERT_TRUE(Candidate::fromJSON(Via.toJSON(), Back));
  EXPECT_EQ(Back.Via, "m:impl");
  EXPECT_FALSE(resolve(F, Back).Report);
}

TEST(EvidenceCallerGuards, OverridesAndStrictModeKeepTheFinding) {
  ProjectFacts F = guardedRun(2, 2);
  Candidate Strict = through("m:bwd");
  Strict.Strict = true;
  EXPECT_TRUE(resolve(F, Strict).Report);
  // A method reached through the ones it overrides has calls not counted.
  F.get("p:run#0", SourceKind::Parameter, "b").Overrides = {"p:base#0"};
  EXPECT_TRUE(resolve(F, through("m:bwd")).Report);
}

TEST(EvidenceCallerGuards, MergeAddsAndJSONRoundTrips) {
  ProjectFacts A = guardedRun(1, 1), B = guardedRun(1, 0);
  ProjectFacts AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(text(AB.toJSON()), text(BA.toJSON()));
  const PassedFieldFacts &PF = AB.find("p:run#0")->PassedFields.at("m:bwd");
  EXPECT_EQ(PF.Calls, 2u);
  EXPECT_EQ(PF.Set, 1u);
  EXPECT_EQ(PF.UnsetAt.Function, "main");
  auto Back = ProjectFacts::fromJSON(AB.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(AB.toJSON()));
  // More calls proving it set than calls is malformed.
  llvm::json::Value Bad = AB.toJSON();
  auto *Field = Bad.getAsObject()
                    ->getObject("sources")
                    ->getObject("p:run#0")
                    ->getObject("passedFields")
                    ->getObject("m:bwd");
  (*Field)["set"] = 3;
  EXPECT_FALSE(bool(ProjectFacts::fromJSON(Bad)));
  llvm::consumeError(ProjectFacts::fromJSON(Bad).takeError());
  // The candidate carries the parameter through its JSON.
  Candidate C;
  ASSERT_TRUE(Candidate::fromJSON(through("m:bwd").toJSON(), C));
  EXPECT_EQ(C.Through, "p:run#0");
  // What deciding it needs is in the relevant facts.
  const ProjectFacts *From[] = {&AB};
  Candidate Cs[] = {through("m:bwd")};
  EXPECT_NE(relevantFacts(From, Cs).find("p:run#0"), nullptr);
}

TEST(EvidenceCallerGuards,
     ACallerProvingTheFieldEmptyDecidesAnAlwaysReachedCall) {
  // `pad` is per mode: conv sets it, deconv does not. By default that alone
  // is no finding.
  ProjectFacts F = perModeBackend();
  SourceFacts &P = F.get("p:run#0", SourceKind::Parameter, "b");
  P.Owner = "run";
  PassedFieldFacts &PF = P.PassedFields["m:pad"];
  PF.Calls = 2;
  PF.Set = 1;
  PF.UnsetAt = at("/p/main.cpp", 20, "main");
  Candidate C = through("m:pad");
  C.AlwaysReached = true;
  EXPECT_FALSE(resolve(F, C).Report);
  // A call that passes the object with `pad` proven empty decides it.
  PF.EmptyAt = at("/p/main.cpp", 20, "main");
  Resolution R = resolve(F, C);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes.back().Message, "'b' of 'run' is passed an object whose "
                                    "'Backend::pad' is empty, in 'main' "
                                    "(main.cpp:20)");
  // ...but not a call the function may skip, nor one under a condition the
  // facts weigh, nor an override's.
  Candidate Skipped = through("m:pad");
  EXPECT_FALSE(resolve(F, Skipped).Report);
  Candidate Flagged = C;
  Flagged.Guards = {"m:use_bias"};
  EXPECT_FALSE(resolve(F, Flagged).Report);
  Candidate Mode = C;
  Mode.ModeTested = true;
  EXPECT_FALSE(resolve(F, Mode).Report);
  P.Overrides = {"p:base#0"};
  EXPECT_FALSE(resolve(F, C).Report);
  P.Overrides.clear();
  // A method's own object is named as such.
  SourceFacts &This = F.get("p:fire#this", SourceKind::Parameter, "this");
  This.Owner = "Backend::fire";
  This.PassedFields["m:pad"] = PF;
  C.Through = "p:fire#this";
  R = resolve(F, C);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes.back().Message,
            "'Backend::fire' is called on an object whose 'Backend::pad' is "
            "empty, in 'main' (main.cpp:20)");
  // The place merges as the first one, and round-trips with the candidate's
  // flag.
  ProjectFacts G = guardedRun(1, 0);
  G.get("p:run#0", SourceKind::Parameter, "b").PassedFields["m:bwd"].EmptyAt =
      at("/p/a.cpp", 9, "a");
  ProjectFacts H = guardedRun(1, 0);
  H.get("p:run#0", SourceKind::Parameter, "b").PassedFields["m:bwd"].EmptyAt =
      at("/p/b.cpp", 3, "b");
  ProjectFacts GH = G, HG = H;
  GH.merge(H);
  HG.merge(G);
  EXPECT_EQ(text(GH.toJSON()), text(HG.toJSON()));
  EXPECT_EQ(GH.find("p:run#0")->PassedFields.at("m:bwd").EmptyAt.Function, "a");
  auto Back = ProjectFacts::fromJSON(GH.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(GH.toJSON()));
  Candidate CB;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), CB));
  EXPECT_TRUE(CB.AlwaysReached);
  ASSERT_TRUE(Candidate::fromJSON(through("m:pad").toJSON(), CB));
  EXPECT_FALSE(CB.AlwaysReached);
}

TEST(EvidenceLoaders, ALoadedFieldMayBeEmptyAndMerges) {
  ProjectFacts A, B;
  SourceFacts &FA = A.get("m:init", SourceKind::Field, "Api::init");
  FA.LoadedFrom["dlsym"] = at("/p/loader.cpp", 12, "load_api");
  SourceFacts &FB = B.get("m:init", SourceKind::Field, "Api::init");
  FB.LoadedFrom["dlsym"] = at("/p/alt.cpp", 3, "load_alt");
  FB.LoadedFrom["GetProcAddress"] = at("/p/win.cpp", 9, "load_win");
  ProjectFacts AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(text(AB.toJSON()), text(BA.toJSON()));
  EXPECT_EQ(AB.find("m:init")->LoadedFrom.at("dlsym").File, "/p/alt.cpp");
  Resolution R = resolve(AB, call("m:init", "api.init"));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message,
            "'Api::init' is assigned the result of 'dlsym', which is null "
            "when the symbol is missing, in 'load_alt' (alt.cpp:3)");
  auto Back = ProjectFacts::fromJSON(AB.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(AB.toJSON()));
  // Without a load, the field is of unknown state: quiet.
  ProjectFacts None;
  None.get("m:init", SourceKind::Field, "Api::init");
  EXPECT_FALSE(resolve(None, call("m:init", "api.init")).Report);
}

//===----------------------------------------------------------------------===//
// Flags: the literals a call passes to a function's boolean parameters, and
// what a use of a parameter requires of them.
//===----------------------------------------------------------------------===//

FlagValues flags(llvm::StringRef Text) {
  std::optional<FlagValues> V = FlagValues::parse(Text);
  EXPECT_TRUE(V.has_value()) << Text.str();
  return V.value_or(FlagValues());
}

TEST(FlagValues, TextParseCompatibleCommon) {
  EXPECT_EQ(flags("3=0,1=1").text(), "1=1,3=0");
  EXPECT_EQ(flags("").text(), "");
  for (llvm::StringRef Bad : {"1", "1=2", "x=1", "1=1,1=0", "1=1,", "=1"})
    EXPECT_FALSE(FlagValues::parse(Bad).has_value()) << Bad.str();
  EXPECT_TRUE(flags("1=1").compatible(flags("1=1,2=0")));
  EXPECT_TRUE(flags("1=1").compatible(flags("")));
  EXPECT_FALSE(flags("1=1,2=0").compatible(flags("2=1")));
  EXPECT_EQ(flags("1=1,2=0").common(flags("1=1,2=1,3=0")).text(), "1=1");
}

/// `blit(int n, bool reduce, Fn f)`: called with f empty and reduce false
/// (PlainCalls times), and with f set and reduce true.
ProjectFacts blit(unsigned PlainCalls = 1) {
  ProjectFacts F;
  SourceFacts &P = F.get("p:blit#2", SourceKind::Parameter, "f");
  P.Owner = "blit";
  for (unsigned I = 0; I < PlainCalls; ++I)
    P.Args.add(empty(), at("/p/raster.cpp", 90 + I, "plain"), flags("1=0"));
  P.Args.add(set(), at("/p/raster.cpp", 70, "resize"), flags("1=1"));
  return F;
}

TEST(EvidenceFlagArguments, CallsThatCannotReachTheUseAreSetAside) {
  Candidate UnderReduce = call("p:blit#2", "f");
  UnderReduce.Requires = "1=1";
  EXPECT_FALSE(resolve(blit(), UnderReduce).Report);
  // Without the requirement, or with the plain calls' own value, the empty
  // calls reach it, and the note names one of them.
  EXPECT_TRUE(resolve(blit(), call("p:blit#2", "f")).Report);
  Candidate Plain = call("p:blit#2", "f");
  Plain.Requires = "1=0";
  Resolution R = resolve(blit(), Plain);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Loc.Function, "plain");
  // One empty call with a literal that does reach: named, though later.
  ProjectFacts F = blit();
  F.get("p:blit#2", SourceKind::Parameter, "f")
      .Args.add(empty(), at("/p/raster.cpp", 95, "reducing"), flags("1=1"));
  R = resolve(F, UnderReduce);
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Loc.Function, "reducing");
  // A call passing no literal for the flag may reach any use.
  F = blit();
  F.get("p:blit#2", SourceKind::Parameter, "f")
      .Args.add(empty(), at("/p/raster.cpp", 96, "computed"));
  EXPECT_TRUE(resolve(F, UnderReduce).Report);
}

/// `reduce(int n, Fn f)`, passed blit's f where blit requires Required.
ProjectFacts blitPassesOn(llvm::StringRef Required) {
  ProjectFacts F = blit();
  SourceFacts &P = F.get("p:reduce#1", SourceKind::Parameter, "f");
  P.Owner = "reduce";
  P.Args.add(from("p:blit#2"), at("/p/raster.cpp", 30, "blit"), {},
             flags(Required));
  return F;
}

TEST(EvidenceFlagArguments, APassOnCarriesItsRequirement) {
  EXPECT_FALSE(resolve(blitPassesOn("1=1"), call("p:reduce#1")).Report);
  EXPECT_TRUE(resolve(blitPassesOn(""), call("p:reduce#1")).Report);
  // A second pass with no requirement: what both require is nothing.
  ProjectFacts F = blitPassesOn("1=1");
  F.get("p:reduce#1", SourceKind::Parameter, "f")
      .Args.add(from("p:blit#2"), at("/p/raster.cpp", 40, "blit"));
  EXPECT_EQ(F.find("p:reduce#1")->Args.FromWhen.count("p:blit#2"), 0u);
  EXPECT_TRUE(resolve(F, call("p:reduce#1")).Report);
}

TEST(EvidenceFlagArguments, MergeIsCommutativeAndJSONRoundTrips) {
  ProjectFacts A = blitPassesOn("1=1"), B = blitPassesOn("1=1,2=0");
  B.get("p:blit#2", SourceKind::Parameter, "f")
      .Args.add(empty(), at("/p/other.cpp", 5, "other"), flags("1=0,2=1"));
  ProjectFacts AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(text(AB.toJSON()), text(BA.toJSON()));
  const ArgFacts &Args = AB.find("p:reduce#1")->Args;
  EXPECT_EQ(Args.FromWhen.at("p:blit#2"), "1=1");
  EXPECT_EQ(AB.find("p:blit#2")->Args.EmptyWith.size(), 2u);
  auto Back = ProjectFacts::fromJSON(AB.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(AB.toJSON()));
  // Facts without contexts (written by hand, or with no literal anywhere)
  // read back as one context that reaches every use.
  llvm::json::Value Plain = blit().toJSON();
  auto *PArgs = Plain.getAsObject()
                    ->getObject("sources")
                    ->getObject("p:blit#2")
                    ->getObject("args");
  PArgs->erase("emptyWith");
  auto NoContexts = ProjectFacts::fromJSON(Plain);
  ASSERT_TRUE(bool(NoContexts)) << llvm::toString(NoContexts.takeError());
  Candidate UnderReduce = call("p:blit#2", "f");
  UnderReduce.Requires = "1=1";
  EXPECT_TRUE(resolve(*NoContexts, UnderReduce).Report);
  // Malformed: a context or a requirement that is not FlagValues text, a
  // requirement for a source the parameter is not passed from.
  auto Rejected = [&](llvm::function_ref<void(llvm::json::Object & Blit,
                                              llvm::json::Object & Reduce)>
                          Damage) {
    llvm::json::Value Bad = AB.toJSON();
    llvm::json::Object *Sources = Bad.getAsObject()->getObject("sources");
    Damage(*Sources->getObject("p:blit#2")->getObject("args"),
           *Sources->getObject("p:reduce#1")->getObject("args"));
    auto Read = ProjectFacts::fromJSON(Bad);
    if (Read)
      return false;
    llvm::consumeError(Read.takeError());
    return true;
  };
  EXPECT_TRUE(Rejected([](llvm::json::Object &Blit, llvm::json::Object &) {
    (*Blit.getObject("emptyWith"))["1=2"] =
        factLocToJSON(at("/p/x.cpp", 1, "x"));
  }));
  EXPECT_TRUE(Rejected([](llvm::json::Object &, llvm::json::Object &Reduce) {
    (*Reduce.getObject("fromWhen"))["p:blit#2"] = "one";
  }));
  EXPECT_TRUE(Rejected([](llvm::json::Object &, llvm::json::Object &Reduce) {
    (*Reduce.getObject("fromWhen"))["p:other#0"] = "1=1";
  }));
  EXPECT_FALSE(Rejected([](llvm::json::Object &, llvm::json::Object &) {}));
  // The candidate's requirement travels with it, and must be well formed.
  Candidate C, Out;
  C = call("p:blit#2", "f");
  C.Requires = "1=1";
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), Out));
  EXPECT_EQ(Out.Requires, "1=1");
  llvm::json::Value BadC = C.toJSON();
  (*BadC.getAsObject())["requires"] = "1=yes";
  EXPECT_FALSE(Candidate::fromJSON(BadC, Out));
}

/// An interface table `Ops {make, free, log}` (aggregate fields 0, 1, 2),
/// constructed as three tables: {make, free, -}, {-, -, log}, {make, free,
/// log}. Every table that sets `make` sets `free`; `free` is tested
/// elsewhere (belief).
ProjectFacts opsTables() {
  ProjectFacts F;
  const char *Names[] = {"Ops::make", "Ops::free", "Ops::log"};
  const char *Keys[] = {"m:make", "m:free", "m:log"};
  for (int I = 0; I < 3; ++I) {
    SourceFacts &S = F.get(Keys[I], SourceKind::Field, Names[I]);
    S.Owner = "c:Ops";
    S.Index = I;
  }
  SourceFacts &Free = *const_cast<SourceFacts *>(F.find("m:free"));
  Free.Tested = 1;
  Free.TestedAt = at("/p/ops.cpp", 4, "can_free");
  SourceFacts &Class = F.get("c:Ops", SourceKind::Class, "Ops");
  std::vector<std::vector<ValueState>> Tables = {{set(), set(), empty()},
                                                 {empty(), empty(), set()},
                                                 {set(), set(), set()}};
  for (unsigned I = 0; I < Tables.size(); ++I) {
    ConstructionFact K =
        construction(ConstructionFact::AggregateInit.str(), "Ops{}", Tables[I],
                     at("/p/ops.cpp", 20 + I, ""));
    Class.Constructions[K.signature()] = K;
  }
  return F;
}

TEST(EvidenceSlots, TablesThatSetOneSlotSetItsPartner) {
  ProjectFacts F = opsTables();
  // Per mode with belief: reported without a premise.
  ASSERT_TRUE(resolve(F, call("m:free")).Report);
  // The object the call passes was made by `make`: every table that sets
  // it sets `free`.
  Candidate Made = call("m:free");
  Made.Slots = {"m:make"};
  EXPECT_FALSE(resolve(F, Made).Report);
  // One of two makers: the `log`-only table may have made it.
  Made.Slots = {"m:log|m:make"};
  EXPECT_TRUE(resolve(F, Made).Report);
  // The `else` of a test of `log`: only the first table, which sets it.
  Candidate Else = call("m:free");
  Else.Slots = {"!m:log"};
  EXPECT_FALSE(resolve(F, Else).Report);
  // Under a test that `log` is set: the second table leaves `free` empty.
  Else.Slots = {"m:log"};
  EXPECT_TRUE(resolve(F, Else).Report);
  // StrictMode reports whatever the premises.
  Made.Slots = {"m:make"};
  Made.Strict = true;
  EXPECT_TRUE(resolve(F, Made).Report);
}

TEST(EvidenceSlots, ConstructorsDecideWhereTheProjectConstructsNothing) {
  // mfem's coefficient: one constructor per kind of function, each setting
  // its own slot (from its parameter) and leaving the other empty; no
  // construction in the project.
  auto Coefficient = [] {
    ProjectFacts F;
    SourceFacts &Space = F.get("m:fn", SourceKind::Field, "Coef::fn");
    Space.Owner = "c:C";
    Space.Constructors["f:space"] = ctor("Coef(SpaceFn)", true, 0);
    Space.Constructors["f:time"] = ctor("Coef(TimeFn)", false);
    SourceFacts &Time = F.get("m:td", SourceKind::Field, "Coef::td");
    Time.Owner = "c:C";
    Time.Constructors["f:space"] = ctor("Coef(SpaceFn)", false);
    Time.Constructors["f:time"] = ctor("Coef(TimeFn)", true, 0);
    return F;
  };
  ProjectFacts F = Coefficient();
  // Without a premise, the constructor that leaves it empty decides.
  Resolution Plain = resolve(F, call("m:td"));
  ASSERT_TRUE(Plain.Report);
  EXPECT_EQ(Plain.Notes[0].Message, "'Coef::td' is not set by the "
                                    "constructor 'Coef(SpaceFn)' "
                                    "(backend.h:10)");
  // The `else` of `if (fn)`: no object of `Coef(SpaceFn)` gets there.
  Candidate Else = call("m:td");
  Else.Slots = {"!m:fn"};
  EXPECT_FALSE(resolve(F, Else).Report);
  // Under a test that `fn` is set, that constructor's objects do.
  Candidate Then = call("m:td");
  Then.Slots = {"m:fn"};
  EXPECT_TRUE(resolve(F, Then).Report);
  // StrictMode reports whatever the premises.
  Else.Strict = true;
  EXPECT_TRUE(resolve(F, Else).Report);
  Else.Strict = false;
  // A constructor that sets neither meets the premise and leaves it empty.
  F.get("m:fn", SourceKind::Field, "Coef::fn").Constructors["f:blank"] =
      ctor("Coef()", false);
  F.get("m:td", SourceKind::Field, "Coef::td").Constructors["f:blank"] =
      ctor("Coef()", false);
  Resolution Blank = resolve(F, Else);
  ASSERT_TRUE(Blank.Report);
  EXPECT_EQ(Blank.Notes[0].Message, "'Coef::td' is not set by the "
                                    "constructor 'Coef()' (backend.h:10)");
  // The premise's slot assigned after construction breaks the pairing.
  F = Coefficient();
  F.get("m:fn", SourceKind::Field, "Coef::fn").SetAt =
      at("/p/coef.cpp", 20, "Coef::SetFunction");
  EXPECT_TRUE(resolve(F, Else).Report);
}

TEST(EvidenceSlots, AssignmentsAfterConstructionBreakThePairing) {
  Candidate Made = call("m:free");
  Made.Slots = {"m:make"};
  // `make` assigned elsewhere: an object may come from a table the
  // constructions do not show.
  ProjectFacts F = opsTables();
  const_cast<SourceFacts *>(F.find("m:make"))->SetAt =
      at("/p/ops.cpp", 40, "install");
  EXPECT_TRUE(resolve(F, Made).Report);
  // `free` emptied somewhere: that emptying is evidence of its own.
  F = opsTables();
  const_cast<SourceFacts *>(F.find("m:free"))->EmptiedAt =
      at("/p/ops.cpp", 41, "detach");
  EXPECT_TRUE(resolve(F, Made).Report);
  // A premise no construction agrees with proves nothing.
  F = opsTables();
  Made.Slots = {"m:make", "!m:make"};
  EXPECT_TRUE(resolve(F, Made).Report);
  // The premises' fields are among the facts a TU's candidates consult,
  // and the candidate keeps them through JSON.
  F = opsTables();
  Made.Slots = {"m:log|m:make"};
  const ProjectFacts *From[] = {&F};
  Candidate Cs[] = {Made};
  ProjectFacts Cut = relevantFacts(From, Cs);
  EXPECT_NE(Cut.find("m:make"), nullptr);
  EXPECT_NE(Cut.find("m:log"), nullptr);
  Candidate Out;
  ASSERT_TRUE(Candidate::fromJSON(Made.toJSON(), Out));
  EXPECT_EQ(Out.Slots, Made.Slots);
}

} // namespace
} // namespace wrapguard
