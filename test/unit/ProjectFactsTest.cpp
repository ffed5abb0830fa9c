// The project facts (facts/ProjectFacts.h): the merge that makes results
// independent of scheduling and sharding, the facts file's JSON and the
// resolution of candidates.

#include "ProjectFacts.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace wrapguard {
namespace {

/// What a function's definitions say; std::nullopt when none was seen.
using DefSummary = std::optional<Emptiness>;
const DefSummary AllSummaries[] = {std::nullopt, Emptiness::NonEmpty,
                                   Emptiness::MayBeEmpty,
                                   Emptiness::AlwaysEmpty, Emptiness::Unknown};

std::string toString(DefSummary D) {
  return D ? wrapguard::toString(*D).str() : "none";
}

FactLoc loc(llvm::StringRef File, unsigned Line, unsigned Offset,
            llvm::StringRef Function = "") {
  FactLoc L;
  L.File = File.str();
  L.Line = Line;
  L.Column = 3;
  L.Offset = Offset;
  L.Function = Function.str();
  return L;
}

SourceFacts function(DefSummary D, FactLoc EmptyReturn = {}) {
  SourceFacts S;
  S.Kind = SourceKind::Function;
  S.Name = "select_wrapper";
  S.Definition = D;
  S.EmptyReturn = EmptyReturn;
  return S;
}

CtorFact ctor(std::string Name, bool Sets, FactLoc At) {
  CtorFact C;
  C.Name = std::move(Name);
  C.SetsField = Sets;
  C.Loc = std::move(At);
  return C;
}

Candidate candidate(std::vector<std::string> Keys, bool EmptyLocally = false,
                    std::string PolicyNames = "policy") {
  Candidate C;
  C.Name = "fn";
  C.Keys = std::move(Keys);
  C.EmptyLocally = EmptyLocally;
  C.PolicyNames = std::move(PolicyNames);
  return C;
}

std::string text(const llvm::json::Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << V;
  return S;
}

//===----------------------------------------------------------------------===//
// The join of definition summaries.
//===----------------------------------------------------------------------===//

TEST(ProjectFactsJoin, IsCommutativeAndIdempotent) {
  for (DefSummary A : AllSummaries) {
    EXPECT_EQ(joinDefinitions(A, A), A) << toString(A);
    for (DefSummary B : AllSummaries)
      EXPECT_EQ(joinDefinitions(A, B), joinDefinitions(B, A))
          << toString(A) << " with " << toString(B);
  }
}

TEST(ProjectFactsJoin, IsAssociative) {
  for (DefSummary A : AllSummaries)
    for (DefSummary B : AllSummaries)
      for (DefSummary C : AllSummaries)
        EXPECT_EQ(joinDefinitions(joinDefinitions(A, B), C),
                  joinDefinitions(A, joinDefinitions(B, C)))
            << toString(A) << ", " << toString(B) << ", " << toString(C);
}

TEST(ProjectFactsJoin, Table) {
  using D = Emptiness;
  // None seen is the unit.
  for (DefSummary A : AllSummaries)
    EXPECT_EQ(joinDefinitions(std::nullopt, A), A);
  // One override that may return empty makes the method a source.
  EXPECT_EQ(joinDefinitions(D::NonEmpty, D::MayBeEmpty), D::MayBeEmpty);
  EXPECT_EQ(joinDefinitions(D::NonEmpty, D::AlwaysEmpty), D::MayBeEmpty);
  EXPECT_EQ(joinDefinitions(D::MayBeEmpty, D::AlwaysEmpty), D::MayBeEmpty);
  EXPECT_EQ(joinDefinitions(D::Unknown, D::MayBeEmpty), D::MayBeEmpty);
  EXPECT_EQ(joinDefinitions(D::Unknown, D::AlwaysEmpty), D::MayBeEmpty);
  // Never empty only when every definition says so.
  EXPECT_EQ(joinDefinitions(D::NonEmpty, D::Unknown), D::Unknown);
}

//===----------------------------------------------------------------------===//
// Merging facts.
//===----------------------------------------------------------------------===//

ProjectFacts factsA() {
  ProjectFacts F;
  SourceFacts &Fn = F.get("f:select", SourceKind::Function, "select_wrapper");
  Fn.Definition = Emptiness::NonEmpty;
  Fn.Tested = 2;
  Fn.Untested = 1;
  Fn.TestedAt = loc("/p/b.cpp", 9, 120, "run_epoch");
  SourceFacts &Field = F.get("m:hook", SourceKind::Field, "Hooks::after_step");
  Field.Constructors["c:ctor1"] = ctor("Hooks()", true, loc("/p/h.cpp", 3, 30));
  Field.EmptiedAt = loc("/p/z.cpp", 50, 900, "reset_all");
  Field.AssertedAt = loc("/p/h.cpp", 40, 800, "add_hook");
  F.get("p:train#0", SourceKind::Parameter, "cb").Untested = 4;
  return F;
}

ProjectFacts factsB() {
  ProjectFacts F;
  SourceFacts &Fn = F.get("f:select", SourceKind::Function, "select_wrapper");
  Fn.Definition = Emptiness::MayBeEmpty;
  Fn.EmptyReturn = loc("/p/policies.cpp", 41, 700, "select_wrapper");
  Fn.Tested = 3;
  Fn.TestedAt = loc("/p/a.cpp", 88, 2000, "prepare"); // Smaller file.
  SourceFacts &Field = F.get("m:hook", SourceKind::Field, "Hooks::after_step");
  Field.Constructors["c:ctor1"] = ctor("Hooks()", true, loc("/p/h.cpp", 3, 30));
  Field.Constructors["c:ctor2"] =
      ctor("Hooks(int)", false, loc("/p/h.cpp", 5, 60));
  Field.EmptiedAt = loc("/p/y.cpp", 10, 100, "clear");
  Field.AssertedAt = loc("/p/h.cpp", 12, 200, "install");
  F.get("f:other", SourceKind::Function, "other").Definition =
      Emptiness::AlwaysEmpty;
  return F;
}

TEST(ProjectFactsMerge, IsCommutative) {
  ProjectFacts AB = factsA();
  AB.merge(factsB());
  ProjectFacts BA = factsB();
  BA.merge(factsA());
  EXPECT_EQ(text(AB.toJSON()), text(BA.toJSON()));
  EXPECT_EQ(AB.size(), 4u);
}

TEST(ProjectFactsMerge, IsIdempotentForDefinitions) {
  for (DefSummary D : AllSummaries) {
    ProjectFacts One;
    One.get("f:x", SourceKind::Function, "x").Definition = D;
    ProjectFacts Twice = One;
    Twice.merge(One);
    EXPECT_EQ(Twice.find("f:x")->Definition, D) << toString(D);
  }
}

TEST(ProjectFactsMerge, SumsCountsAndKeepsTheSmallestLocations) {
  ProjectFacts F = factsA();
  F.merge(factsB());
  const SourceFacts *Fn = F.find("f:select");
  ASSERT_NE(Fn, nullptr);
  EXPECT_EQ(Fn->Definition, Emptiness::MayBeEmpty);
  EXPECT_EQ(Fn->Tested, 5u);
  EXPECT_EQ(Fn->Untested, 1u);
  EXPECT_EQ(Fn->TestedAt.File, "/p/a.cpp");
  EXPECT_EQ(Fn->TestedAt.Line, 88u);
  EXPECT_EQ(Fn->EmptyReturn.File, "/p/policies.cpp");

  const SourceFacts *Field = F.find("m:hook");
  ASSERT_NE(Field, nullptr);
  EXPECT_EQ(Field->Constructors.size(), 2u);
  EXPECT_EQ(Field->EmptiedAt.File, "/p/y.cpp");
  EXPECT_EQ(Field->AssertedAt.Function, "install");
  EXPECT_EQ(F.find("p:train#0")->Untested, 4u);
  EXPECT_EQ(F.find("f:other")->Definition, Emptiness::AlwaysEmpty);
}

TEST(ProjectFactsMerge, TestedAtIsOrderedByFileThenOffset) {
  ProjectFacts X, Y;
  X.get("p:k#0", SourceKind::Parameter, "cb").TestedAt =
      loc("/p/a.cpp", 20, 400, "g");
  Y.get("p:k#0", SourceKind::Parameter, "cb").TestedAt =
      loc("/p/a.cpp", 10, 200, "f");
  ProjectFacts XY = X, YX = Y;
  XY.merge(Y);
  YX.merge(X);
  EXPECT_EQ(XY.find("p:k#0")->TestedAt.Offset, 200u);
  EXPECT_EQ(YX.find("p:k#0")->TestedAt.Offset, 200u);
  // An invalid location never wins.
  ProjectFacts None;
  None.get("p:k#0", SourceKind::Parameter, "cb");
  None.merge(X);
  EXPECT_EQ(None.find("p:k#0")->TestedAt.Offset, 400u);
  X.merge(ProjectFacts(None));
  EXPECT_TRUE(X.find("p:k#0")->TestedAt.valid());
}

TEST(ProjectFactsMerge, AConstructorThatOneTUSeesNotSettingTheFieldWins) {
  ProjectFacts X, Y;
  X.get("m:f", SourceKind::Field, "C::f").Constructors["c:C"] =
      ctor("C(int)", true, loc("/p/c.cpp", 4, 40));
  Y.get("m:f", SourceKind::Field, "C::f").Constructors["c:C"] =
      ctor("C(int)", false, loc("/p/c.cpp", 4, 40));
  ProjectFacts XY = X, YX = Y;
  XY.merge(Y);
  YX.merge(X);
  EXPECT_FALSE(XY.find("m:f")->Constructors.at("c:C").SetsField);
  EXPECT_FALSE(YX.find("m:f")->Constructors.at("c:C").SetsField);
}

//===----------------------------------------------------------------------===//
// JSON.
//===----------------------------------------------------------------------===//

TEST(ProjectFactsJSON, RoundTrips) {
  ProjectFacts F = factsA();
  F.merge(factsB());
  llvm::json::Value V = F.toJSON();
  auto Back = ProjectFacts::fromJSON(V);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(V));
  const SourceFacts *Field = Back->find("m:hook");
  ASSERT_NE(Field, nullptr);
  EXPECT_EQ(Field->Kind, SourceKind::Field);
  EXPECT_EQ(Field->Name, "Hooks::after_step");
  EXPECT_EQ(Field->Constructors.at("c:ctor2").Name, "Hooks(int)");
  EXPECT_FALSE(Field->Constructors.at("c:ctor2").SetsField);
  EXPECT_EQ(Field->Constructors.at("c:ctor2").Loc.Line, 5u);
  EXPECT_EQ(Field->EmptiedAt.Function, "clear");
  EXPECT_EQ(Field->AssertedAt.Line, 12u);
  EXPECT_EQ(Field->AssertedAt.Function, "install");
  const SourceFacts *Fn = Back->find("f:select");
  EXPECT_EQ(Fn->EmptyReturn.Line, 41u);
  EXPECT_EQ(Fn->EmptyReturn.Offset, 700u);
  EXPECT_EQ(Fn->TestedAt.Function, "prepare");
  EXPECT_EQ(Back->find("p:train#0")->Kind, SourceKind::Parameter);
}

TEST(ProjectFactsJSON, RoundTripsAGlobal) {
  ProjectFacts F;
  SourceFacts &G = F.get("g:hook", SourceKind::Global, "ns::g_hook");
  G.AssignedFrom["p:set#0"] = {"/src/a.cpp", 3, 5, 40, "set"};
  G.EmptiedAt = {"/src/a.cpp", 9, 3, 120, "reset"};
  llvm::json::Value V = F.toJSON();
  EXPECT_NE(text(V).find("\"kind\":\"global\""), std::string::npos) << text(V);
  auto Back = ProjectFacts::fromJSON(V);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  const SourceFacts *B = Back->find("g:hook");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Kind, SourceKind::Global);
  EXPECT_EQ(B->Name, "ns::g_hook");
  EXPECT_EQ(B->AssignedFrom.at("p:set#0").Function, "set");
  EXPECT_EQ(B->EmptiedAt.Line, 9u);
}

TEST(ProjectFactsJSON, RoundTripsOverriddenMethodsAndTheCandidatesMethod) {
  ProjectFacts F;
  ConstructionFact K;
  K.Ctor = "f:base";
  K.CtorName = "Base(Fn)";
  K.Count = 1;
  K.At = {"/src/a.cpp", 4, 7, 60, "Derived::Derived"};
  K.Overridden = {"f:run", "f:stop"};
  F.get("c:Base", SourceKind::Class, "Base").Constructions[K.signature()] = K;
  auto Back = ProjectFacts::fromJSON(F.toJSON());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  const auto &Ks = Back->find("c:Base")->Constructions;
  ASSERT_EQ(Ks.size(), 1u);
  EXPECT_EQ(Ks.begin()->second.Overridden, K.Overridden);
  EXPECT_NE(Ks.begin()->first.find("overriding f:run,f:stop"),
            std::string::npos);
  Candidate C;
  C.Name = "f";
  C.Keys = {"m:f"};
  C.VirtualMethod = "f:run";
  Candidate CBack;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), CBack));
  EXPECT_EQ(CBack.VirtualMethod, "f:run");
}

TEST(ProjectFactsJSON, NamesItsFormatAndVersion) {
  llvm::json::Value V = ProjectFacts().toJSON();
  const llvm::json::Object *O = V.getAsObject();
  ASSERT_NE(O, nullptr);
  EXPECT_EQ(O->getString("format"), llvm::StringRef("wrapguard-facts"));
  EXPECT_EQ(O->getInteger("version"), int64_t(ProjectFacts::FormatVersion));
  EXPECT_EQ(ProjectFacts::FormatVersion, 4u);
}

TEST(ProjectFactsJSON, LeavesDefaultsOut) {
  ProjectFacts F;
  F.get("p:k#0", SourceKind::Parameter, "cb");
  std::string S = text(F.toJSON());
  EXPECT_EQ(S.find("tested"), std::string::npos) << S;
  EXPECT_EQ(S.find("definition"), std::string::npos) << S;
  EXPECT_EQ(S.find("constructors"), std::string::npos) << S;
}

std::string errorOf(const llvm::json::Value &V) {
  auto F = ProjectFacts::fromJSON(V);
  if (F)
    return "";
  return llvm::toString(F.takeError());
}

TEST(ProjectFactsJSON, RejectsWrongFormatAndVersion) {
  using llvm::json::Object;
  EXPECT_NE(errorOf(Object{{"format", "sarif"}, {"version", 1}})
                .find("not a wrapguard facts file"),
            std::string::npos);
  EXPECT_NE(errorOf(Object{{"version", 1}}).find("not a wrapguard facts file"),
            std::string::npos);
  EXPECT_NE(errorOf(llvm::json::Array{}).find("not a wrapguard facts file"),
            std::string::npos);
  // Version 1 files lack the constructions and arguments: rejected, with
  // the way out.
  std::string V1 = errorOf(Object{
      {"format", "wrapguard-facts"}, {"version", 1}, {"sources", Object{}}});
  EXPECT_NE(V1.find("version 1"), std::string::npos) << V1;
  EXPECT_NE(V1.find("reads version 4"), std::string::npos) << V1;
  EXPECT_NE(V1.find("wrapguard index"), std::string::npos) << V1;
  std::string NoVersion = errorOf(Object{{"format", "wrapguard-facts"}});
  EXPECT_NE(NoVersion.find("no \"version\""), std::string::npos) << NoVersion;
  EXPECT_NE(errorOf(Object{{"format", "wrapguard-facts"}, {"version", "1"}})
                .find("no \"version\""),
            std::string::npos);
  EXPECT_EQ(errorOf(Object{{"format", "wrapguard-facts"},
                           {"version", int64_t(ProjectFacts::FormatVersion)},
                           {"sources", Object{}}}),
            "");
}

TEST(ProjectFactsJSON, RejectsMalformedSources) {
  using llvm::json::Object;
  auto With = [](Object Source) {
    return Object{{"format", "wrapguard-facts"},
                  {"version", int64_t(ProjectFacts::FormatVersion)},
                  {"sources", Object{{"f:x", std::move(Source)}}}};
  };
  EXPECT_NE(errorOf(With(Object{{"kind", "gadget"}})).find("'f:x'"),
            std::string::npos);
  EXPECT_NE(
      errorOf(With(Object{{"kind", "function"}, {"definition", "sometimes"}}))
          .find("sometimes"),
      std::string::npos);
  EXPECT_NE(errorOf(With(Object{{"kind", "function"},
                                {"testedAt", Object{{"line", 3}}}}))
                .find("malformed location"),
            std::string::npos);
  EXPECT_NE(errorOf(Object{{"format", "wrapguard-facts"},
                           {"version", int64_t(ProjectFacts::FormatVersion)},
                           {"sources", Object{{"f:x", 3}}}})
                .find("not an object"),
            std::string::npos);
  EXPECT_NE(errorOf(Object{{"format", "wrapguard-facts"},
                           {"version", int64_t(ProjectFacts::FormatVersion)},
                           {"sources", llvm::json::Array{}}})
                .find("\"sources\" is not an object"),
            std::string::npos);
  EXPECT_NE(errorOf(With(Object{{"kind", "parameter"}, {"tested", -1}}))
                .find("bad 'tested' count"),
            std::string::npos);
  EXPECT_NE(errorOf(With(Object{{"kind", "parameter"}, {"untested", "many"}}))
                .find("bad 'untested' count"),
            std::string::npos);
  EXPECT_NE(
      errorOf(
          With(Object{{"kind", "field"},
                      {"constructors",
                       Object{{"c:C", Object{{"name", "C()"},
                                             {"setsField", false},
                                             {"at", Object{{"line", 2}}}}}}}}))
          .find("constructor of 'f:x' is malformed"),
      std::string::npos);
  // No "sources" at all: no facts, not an error.
  EXPECT_EQ(errorOf(Object{{"format", "wrapguard-facts"},
                           {"version", int64_t(ProjectFacts::FormatVersion)}}),
            "");
}

TEST(ProjectFactsJSON, FilesRoundTripAndReportErrorsWithThePath) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("wg-facts", Dir));
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "facts.json");
  ProjectFacts F = factsB();
  ASSERT_FALSE(bool(F.writeFile(Path)));
  auto Back = ProjectFacts::readFile(Path);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(text(Back->toJSON()), text(F.toJSON()));

  llvm::SmallString<128> Missing(Dir);
  llvm::sys::path::append(Missing, "missing.json");
  auto M = ProjectFacts::readFile(Missing);
  ASSERT_FALSE(bool(M));
  std::string Err = llvm::toString(M.takeError());
  EXPECT_NE(Err.find("missing.json"), std::string::npos) << Err;

  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "{ not json";
  }
  auto Bad = ProjectFacts::readFile(Path);
  ASSERT_FALSE(bool(Bad));
  Err = llvm::toString(Bad.takeError());
  EXPECT_NE(Err.find("is not JSON"), std::string::npos) << Err;
  llvm::sys::fs::remove(Path);
  llvm::sys::fs::remove(Dir);
}

//===----------------------------------------------------------------------===//
// Candidates and their resolution.
//===----------------------------------------------------------------------===//

TEST(ProjectFactsCandidate, JSONRoundTrips) {
  Candidate C = candidate({"f:a", "m:b"}, true, "wrap|policy");
  Candidate Back;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), Back));
  EXPECT_EQ(Back.Name, "fn");
  EXPECT_EQ(Back.Keys, C.Keys);
  EXPECT_TRUE(Back.EmptyLocally);
  EXPECT_EQ(Back.PolicyNames, "wrap|policy");
  EXPECT_FALSE(Back.ModeTested);
  C.ModeTested = true;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), Back));
  EXPECT_TRUE(Back.ModeTested);
  Candidate None;
  EXPECT_FALSE(Candidate::fromJSON(candidate({}).toJSON(), None));
  EXPECT_FALSE(Candidate::fromJSON(llvm::json::Value(3), None));
  // A key that cannot be read drops the candidate, rather than deciding it
  // on its other keys alone.
  llvm::json::Value Partial = candidate({"f:a", "f:b"}).toJSON();
  (*Partial.getAsObject()->getArray("keys"))[1] = 7;
  Candidate P;
  EXPECT_FALSE(Candidate::fromJSON(Partial, P));
}

/// A function's facts as a TU that defines it records them.
SourceFacts exitFacts(bool Never, std::vector<std::string> If = {}) {
  SourceFacts S;
  S.Kind = SourceKind::Function;
  S.Name = "fatal";
  S.NeverReturns = Never;
  S.NeverReturnsIf = std::move(If);
  return S;
}

TEST(ProjectFactsNeverReturns, FollowsChainsAcrossTUsAndCutsCycles) {
  ProjectFacts F;
  F.get("f:fatal", SourceKind::Function, "fatal") = exitFacts(true);
  F.get("f:die", SourceKind::Function, "die") = exitFacts(false, {"f:fatal"});
  F.get("f:give_up", SourceKind::Function, "give_up") =
      exitFacts(false, {"f:die"});
  F.get("f:both", SourceKind::Function, "both") =
      exitFacts(false, {"f:die", "f:warn"});
  F.get("f:warn", SourceKind::Function, "warn") = exitFacts(false);
  F.get("f:a", SourceKind::Function, "a") = exitFacts(false, {"f:b"});
  F.get("f:b", SourceKind::Function, "b") = exitFacts(false, {"f:a"});
  EXPECT_TRUE(F.neverReturns("f:fatal"));
  EXPECT_TRUE(F.neverReturns("f:die"));
  EXPECT_TRUE(F.neverReturns("f:give_up"));
  // Every function it needs must never return.
  EXPECT_FALSE(F.neverReturns("f:both"));
  EXPECT_FALSE(F.neverReturns("f:warn"));
  EXPECT_FALSE(F.neverReturns("f:a")); // a cycle proves nothing
  EXPECT_FALSE(F.neverReturns("f:unknown"));
  // Too long a chain is taken to return.
  ProjectFacts Long;
  Long.get("f:0", SourceKind::Function, "f0") = exitFacts(true);
  for (int I = 1; I <= 6; ++I)
    Long.get("f:" + std::to_string(I), SourceKind::Function, "f") =
        exitFacts(false, {"f:" + std::to_string(I - 1)});
  EXPECT_TRUE(Long.neverReturns("f:3"));
  EXPECT_FALSE(Long.neverReturns("f:6"));
}

TEST(ProjectFactsNeverReturns, MergesAndRoundTrips) {
  ProjectFacts A, B;
  A.get("f:x", SourceKind::Function, "x") = exitFacts(false, {"f:z"});
  B.get("f:x", SourceKind::Function, "x") = exitFacts(false, {"f:y"});
  A.merge(B);
  const SourceFacts *X = A.find("f:x");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->NeverReturnsIf, (std::vector<std::string>{"f:y", "f:z"}));
  llvm::Expected<ProjectFacts> Back = ProjectFacts::fromJSON(A.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->find("f:x")->NeverReturnsIf, X->NeverReturnsIf);
  ProjectFacts C;
  C.get("f:x", SourceKind::Function, "x") = exitFacts(true);
  Back = ProjectFacts::fromJSON(C.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_TRUE(Back->find("f:x")->NeverReturns);
}

TEST(ProjectFactsUncalledEmptyings, MergeAndRoundTrip) {
  // Per method, the first emptying; a method is called if either side saw
  // a call.
  ProjectFacts A, B;
  A.get("m:cb", SourceKind::Field, "C::cb").EmptiedIn["f:clear"] =
      loc("/p/b.cpp", 9, 90, "C::clear");
  B.get("m:cb", SourceKind::Field, "C::cb").EmptiedIn["f:clear"] =
      loc("/p/a.cpp", 5, 50, "C::clear");
  B.get("m:cb", SourceKind::Field, "C::cb").EmptiedIn["f:stop"] =
      loc("/p/a.cpp", 7, 70, "C::stop");
  B.get("f:clear", SourceKind::Function, "C::clear").Called = true;
  ProjectFacts AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(AB.toJSON(), BA.toJSON());
  const SourceFacts *Cb = AB.find("m:cb");
  ASSERT_TRUE(Cb);
  ASSERT_EQ(Cb->EmptiedIn.size(), 2u);
  EXPECT_EQ(Cb->EmptiedIn.at("f:clear").File, "/p/a.cpp");
  EXPECT_TRUE(Cb->emptiedAnywhere());
  EXPECT_FALSE(Cb->EmptiedAt.valid());
  EXPECT_TRUE(AB.find("f:clear")->Called);
  llvm::Expected<ProjectFacts> Back = ProjectFacts::fromJSON(AB.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->toJSON(), AB.toJSON());
  EXPECT_TRUE(Back->find("f:clear")->Called);
  EXPECT_EQ(Back->find("m:cb")->EmptiedIn.at("f:stop").Line, 7u);
}

TEST(ProjectFactsMethodsElsewhere, AssumptionsHoldOnlyAsTheDefinitionsSay) {
  ProjectFacts F;
  SourceFacts &Set = F.get("f:set", SourceKind::Function, "Socket::set");
  Set.CopiesFields["m:cb"] = 0;
  F.get("f:has", SourceKind::Function, "Socket::has").TestsField = "m:cb";
  F.get("f:other", SourceKind::Function, "Socket::other").TestsField = "m:flag";
  EXPECT_TRUE(F.effectHolds({"f:set", "m:cb", 0}));
  EXPECT_FALSE(F.effectHolds({"f:set", "m:cb", 1})); // another parameter
  EXPECT_FALSE(F.effectHolds({"f:set", "m:other", 0}));
  EXPECT_TRUE(F.effectHolds({"f:has", "m:cb", -1}));
  EXPECT_FALSE(F.effectHolds({"f:other", "m:cb", -1}));
  EXPECT_FALSE(F.effectHolds({"f:unseen", "m:cb", 0})); // no definition
  PassedFieldFacts P;
  P.Calls = 4;
  P.Set = 1;
  P.SetIf[{{"f:has", "m:cb", -1}, {"f:set", "m:cb", 0}}] = 2;
  P.SetIf[{{"f:other", "m:cb", -1}}] = 1;
  // The call that assumed `other` tests the callback is not proved.
  EXPECT_EQ(F.provedSet(P), 3u);

  // Merged from two TUs and through JSON, the counts add up.
  ProjectFacts A, B;
  A.get("p:run#this", SourceKind::Parameter, "this").PassedFields["m:cb"] = P;
  B.get("p:run#this", SourceKind::Parameter, "this").PassedFields["m:cb"] = P;
  B.merge(F);
  A.merge(B);
  llvm::Expected<ProjectFacts> Back = ProjectFacts::fromJSON(A.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  const PassedFieldFacts &Merged =
      Back->find("p:run#this")->PassedFields.at("m:cb");
  EXPECT_EQ(Merged.Calls, 8u);
  EXPECT_EQ(Back->provedSet(Merged), 6u);
  EXPECT_EQ(Back->find("f:set")->CopiesFields, Set.CopiesFields);
  EXPECT_EQ(Back->find("f:has")->TestsField, "m:cb");
}

TEST(ProjectFactsMethodsElsewhere, AGetterGuardsOnlyWhereItsDefinitionReturnsTheField) {
  constexpr int Returns = AssumedEffect::ReturnsField;
  ProjectFacts F;
  F.get("f:get", SourceKind::Function, "Rec::get").ReturnsField = "m:cb";
  F.get("f:has", SourceKind::Function, "Rec::has").TestsField = "m:cb";
  F.get("f:take", SourceKind::Function, "Rec::take");
  EXPECT_TRUE(F.effectHolds({"f:get", "m:cb", Returns}));
  EXPECT_FALSE(F.effectHolds({"f:get", "m:other", Returns}));
  EXPECT_FALSE(F.effectHolds({"f:get", "m:cb", AssumedEffect::TestsField}));
  EXPECT_FALSE(F.effectHolds({"f:has", "m:cb", Returns})); // a test, no getter
  EXPECT_FALSE(F.effectHolds({"f:take", "m:cb", Returns}));
  EXPECT_FALSE(F.effectHolds({"f:unseen", "m:cb", Returns}));

  // Merged (the TU without the definition knows none) and through JSON.
  ProjectFacts Caller;
  Caller.get("f:get", SourceKind::Function, "Rec::get");
  Caller.merge(F);
  llvm::Expected<ProjectFacts> Back = ProjectFacts::fromJSON(Caller.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->find("f:get")->ReturnsField, "m:cb");
  EXPECT_TRUE(Back->find("f:take")->ReturnsField.empty());

  // A candidate the TU decided goes where one of its getters holds, in
  // every mode; the others stay.
  Candidate C;
  C.Name = "rec->get()";
  C.Decided = true;
  C.Getters = {{"f:take", "m:cb", Returns}};
  EXPECT_TRUE(resolve(*Back, C).Report);
  C.Getters.push_back({"f:get", "m:cb", Returns});
  EXPECT_FALSE(resolve(*Back, C).Report);
  C.Strict = true;
  EXPECT_FALSE(resolve(*Back, C).Report);
  Candidate CBack;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), CBack));
  EXPECT_EQ(CBack.Getters, C.Getters);
  EXPECT_FALSE(resolve(*Back, CBack).Report);
  // A getter without its field is malformed.
  llvm::json::Value Bad = C.toJSON();
  (*Bad.getAsObject()->getArray("getters"))[0] =
      llvm::json::Object{{"method", "f:get"}};
  EXPECT_FALSE(Candidate::fromJSON(Bad, CBack));
}

TEST(ProjectFactsMethodsElsewhere, CallersSetFollowsTheCallersOfTheCaller) {
  // read_field <- parse_field <- parse_line, which tests the field; and
  // read_other <- parse_other, which one call makes untested.
  auto Passed = [](unsigned Calls, unsigned Set, std::string Caller = "") {
    PassedFieldFacts P;
    P.Calls = Calls;
    P.Set = Set;
    if (!Caller.empty())
      P.SetIf[{{Caller, "m:cb", AssumedEffect::CallersSet}}] = Calls - Set;
    return P;
  };
  ProjectFacts F;
  auto This = [&](const std::string &Key) -> SourceFacts & {
    return F.get(Key, SourceKind::Parameter, "this");
  };
  This("p:parse_field#this").PassedFields["m:cb"] = Passed(2, 2);
  This("p:read_field#this").PassedFields["m:cb"] =
      Passed(1, 0, "p:parse_field#this");
  This("p:parse_other#this").PassedFields["m:cb"] = Passed(2, 1);
  This("p:read_other#this").PassedFields["m:cb"] =
      Passed(1, 0, "p:parse_other#this");
  const auto &ReadField = F.find("p:read_field#this")->PassedFields.at("m:cb");
  const auto &ReadOther = F.find("p:read_other#this")->PassedFields.at("m:cb");
  EXPECT_EQ(F.provedSet(ReadField), 1u);
  EXPECT_EQ(F.provedSet(ReadOther), 0u);
  EXPECT_TRUE(
      F.effectHolds({"p:parse_field#this", "m:cb", AssumedEffect::CallersSet}));
  EXPECT_FALSE(F.effectHolds(
      {"p:parse_field#this", "m:other", AssumedEffect::CallersSet}));
  EXPECT_FALSE(
      F.effectHolds({"p:unseen#this", "m:cb", AssumedEffect::CallersSet}));
  // A method reached through the methods it overrides has calls the facts
  // do not count.
  This("p:parse_field#this").Overrides = {"p:base_parse#this"};
  EXPECT_EQ(F.provedSet(ReadField), 0u);
  This("p:parse_field#this").Overrides.clear();
  // A cycle of recursive helpers proves nothing, nor does a long chain.
  This("p:a#this").PassedFields["m:cb"] = Passed(1, 0, "p:b#this");
  This("p:b#this").PassedFields["m:cb"] = Passed(1, 0, "p:a#this");
  EXPECT_FALSE(F.effectHolds({"p:a#this", "m:cb", AssumedEffect::CallersSet}));
  This("p:0#this").PassedFields["m:cb"] = Passed(1, 1);
  for (int I = 1; I <= 6; ++I)
    This("p:" + std::to_string(I) + "#this").PassedFields["m:cb"] =
        Passed(1, 0, "p:" + std::to_string(I - 1) + "#this");
  EXPECT_TRUE(F.effectHolds({"p:2#this", "m:cb", AssumedEffect::CallersSet}));
  EXPECT_FALSE(F.effectHolds({"p:6#this", "m:cb", AssumedEffect::CallersSet}));
  // Through JSON, the assumption and its count keep.
  llvm::Expected<ProjectFacts> Back = ProjectFacts::fromJSON(F.toJSON());
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(
      Back->provedSet(Back->find("p:read_field#this")->PassedFields.at("m:cb")),
      1u);
}

TEST(ProjectFactsResolve, ExitsThatNeverReturnMakeTheCallDead) {
  ProjectFacts F;
  F.get("f:s", SourceKind::Function, "select_wrapper") =
      function(Emptiness::MayBeEmpty, loc("/p/src/policies.cpp", 41, 700));
  F.get("f:fatal", SourceKind::Function, "fatal") = exitFacts(true);
  F.get("f:warn", SourceKind::Function, "warn") = exitFacts(false);
  Candidate C = candidate({"f:s"});
  C.Exits = {"f:warn", "f:fatal"};
  EXPECT_FALSE(resolve(F, C).Report);
  C.Strict = true; // dead in every mode
  EXPECT_FALSE(resolve(F, C).Report);
  C.Strict = false;
  C.Exits = {"f:warn", "f:unknown"};
  EXPECT_TRUE(resolve(F, C).Report);
  // A finding the TU decided stands, unless an exit never returns; it has
  // no keys, and its JSON keeps what decides it.
  Candidate D;
  D.Name = "m[k]";
  D.Decided = true;
  D.Exits = {"f:warn"};
  Resolution R = resolve(F, D);
  EXPECT_TRUE(R.Report);
  EXPECT_TRUE(R.Notes.empty());
  D.Exits.push_back("f:fatal");
  EXPECT_FALSE(resolve(F, D).Report);
  Candidate Back;
  ASSERT_TRUE(Candidate::fromJSON(D.toJSON(), Back));
  EXPECT_TRUE(Back.Decided);
  EXPECT_EQ(Back.Exits, D.Exits);
  EXPECT_TRUE(Back.Keys.empty());
  // relevantFacts keeps the exits and what they need.
  F.get("f:die", SourceKind::Function, "die") = exitFacts(false, {"f:fatal"});
  D.Exits = {"f:die"};
  ProjectFacts Cut = relevantFacts({&F}, {D});
  EXPECT_TRUE(Cut.find("f:die"));
  EXPECT_TRUE(Cut.find("f:fatal"));
  EXPECT_FALSE(Cut.find("f:s"));
  EXPECT_FALSE(resolve(Cut, D).Report);
}

TEST(ProjectFactsResolve, AssertionsElsewhereMakeTheCallDead) {
  ProjectFacts F;
  F.get("f:s", SourceKind::Function, "select_wrapper") =
      function(Emptiness::MayBeEmpty, loc("/p/src/policies.cpp", 41, 700));
  SourceFacts Assert = exitFacts(false);
  Assert.ReturnsOnlyIf = 1;
  F.get("f:assert", SourceKind::Function, "Assert") = Assert;
  EXPECT_TRUE(F.returnsOnlyIf({"f:assert", 1}));
  EXPECT_FALSE(F.returnsOnlyIf({"f:assert", 0})); // another parameter
  EXPECT_FALSE(F.returnsOnlyIf({"f:unknown", 0}));
  Candidate C = candidate({"f:s"});
  C.Exits = {"f:assert"}; // it returns: no exit
  EXPECT_TRUE(resolve(F, C).Report);
  C.Assertions = {{"f:assert", 0}};
  EXPECT_TRUE(resolve(F, C).Report);
  C.Assertions.push_back({"f:assert", 1});
  EXPECT_FALSE(resolve(F, C).Report);
  C.Strict = true; // dead in every mode
  EXPECT_FALSE(resolve(F, C).Report);
  // The candidate's JSON keeps them, and a malformed one is refused.
  Candidate Back;
  ASSERT_TRUE(Candidate::fromJSON(C.toJSON(), Back));
  EXPECT_EQ(Back.Assertions, C.Assertions);
  llvm::json::Value Bad = C.toJSON();
  (*Bad.getAsObject()->getArray("assertions"))[0] =
      llvm::json::Object{{"function", "f:assert"}, {"parameter", -1}};
  EXPECT_FALSE(Candidate::fromJSON(Bad, Back));
  // relevantFacts keeps the assertion functions.
  ProjectFacts Cut = relevantFacts({&F}, {C});
  EXPECT_TRUE(Cut.find("f:assert"));
  EXPECT_FALSE(resolve(Cut, C).Report);
  // Merged from two TUs and through JSON; should two definitions disagree,
  // the smaller parameter wins in either order.
  ProjectFacts A, B;
  A.get("f:assert", SourceKind::Function, "Assert") = Assert;
  SourceFacts Other = exitFacts(false);
  Other.ReturnsOnlyIf = 0;
  B.get("f:assert", SourceKind::Function, "Assert") = Other;
  ProjectFacts AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(AB.find("f:assert")->ReturnsOnlyIf, std::optional<unsigned>(0));
  EXPECT_EQ(BA.find("f:assert")->ReturnsOnlyIf, std::optional<unsigned>(0));
  llvm::Expected<ProjectFacts> Read = ProjectFacts::fromJSON(A.toJSON());
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(Read->find("f:assert")->ReturnsOnlyIf, std::optional<unsigned>(1));
}

TEST(ProjectFactsResolve, DefinitionThatMayReturnEmpty) {
  ProjectFacts F;
  F.get("f:s", SourceKind::Function, "select_wrapper") =
      function(Emptiness::MayBeEmpty,
               loc("/p/src/policies.cpp", 41, 700, "select_wrapper"));
  Resolution R = resolve(F, candidate({"f:s"}));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message,
            "'fn' comes from 'select_wrapper', which returns an empty "
            "callable on some path (policies.cpp:41)");
  EXPECT_EQ(R.Notes[0].Loc.Offset, 700u);
}

TEST(ProjectFactsResolve, DefinitionThatAlwaysReturnsEmpty) {
  ProjectFacts F;
  F.get("f:s", SourceKind::Function, "select_wrapper") = function(
      Emptiness::AlwaysEmpty, loc("/p/policies.cpp", 7, 70, "select_wrapper"));
  Resolution R = resolve(F, candidate({"f:s"}));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_NE(R.Notes[0].Message.find("always returns an empty callable"),
            std::string::npos)
      << R.Notes[0].Message;
  EXPECT_NE(R.Notes[0].Message.find("(policies.cpp:7)"), std::string::npos);
}

TEST(ProjectFactsResolve, NeverEmptyDefinitionBeatsNameAndBelief) {
  ProjectFacts F;
  SourceFacts &S = F.get("f:p", SourceKind::Function, "ns::default_policy");
  S.Definition = Emptiness::NonEmpty;
  S.Tested = 3;
  S.TestedAt = loc("/p/a.cpp", 5, 50, "careful");
  Resolution R = resolve(F, candidate({"f:p"}));
  EXPECT_FALSE(R.Report);
  EXPECT_TRUE(R.Notes.empty());
}

TEST(ProjectFactsResolve, PolicyNameWhenNoDefinitionIsSeen) {
  ProjectFacts F;
  F.get("f:p", SourceKind::Function, "ns::resolve_wrap_policy");
  Resolution R = resolve(F, candidate({"f:p"}));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message, "'fn' comes from 'resolve_wrap_policy', which "
                                "may return an empty callable");
  EXPECT_FALSE(R.Notes[0].Loc.valid());
  // The regex is the candidate's, matched on the short name, ignoring case.
  EXPECT_TRUE(resolve(F, candidate({"f:p"}, false, "WRAP_POLICY$")).Report);
  EXPECT_FALSE(resolve(F, candidate({"f:p"}, false, "^ns")).Report);
  EXPECT_FALSE(resolve(F, candidate({"f:p"}, false, "selector")).Report);
  // An unjudged definition leaves the name to decide.
  F.get("f:p", SourceKind::Function, "").Definition = Emptiness::Unknown;
  EXPECT_TRUE(resolve(F, candidate({"f:p"})).Report);
}

TEST(ProjectFactsResolve, BeliefForAFunction) {
  ProjectFacts F;
  SourceFacts &S = F.get("f:g", SourceKind::Function, "Registry::Get");
  S.Tested = 1;
  S.TestedAt = loc("/p/src/engine.cpp", 88, 1234, "run_epoch");
  Resolution R = resolve(F, candidate({"f:g"}));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message, "a value from 'Registry::Get' is checked for "
                                "emptiness in 'run_epoch' (engine.cpp:88)");
  EXPECT_EQ(R.Notes[0].Loc.Offset, 1234u);
}

TEST(ProjectFactsResolve, BeliefForAParameter) {
  ProjectFacts F;
  SourceFacts &S = F.get("p:train#1", SourceKind::Parameter, "on_step");
  S.Tested = 1;
  S.Untested = 2;
  S.TestedAt = loc("/p/loop.cpp", 12, 300, "train");
  Resolution R = resolve(F, candidate({"p:train#1"}));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message, "a value from 'on_step' is checked for "
                                "emptiness in 'train' (loop.cpp:12)");
}

TEST(ProjectFactsResolve, UntestedParameterIsNotASource) {
  ProjectFacts F;
  F.get("p:map#0", SourceKind::Parameter, "fn").Untested = 7;
  EXPECT_FALSE(resolve(F, candidate({"p:map#0"})).Report);
  // Not even when the value is also emptied locally: the parameter is not
  // judged, so the candidate is not decided.
  EXPECT_FALSE(resolve(F, candidate({"p:map#0"}, true)).Report);
}

TEST(ProjectFactsResolve, FieldNotSetByAConstructor) {
  ProjectFacts F;
  SourceFacts &S = F.get("m:h", SourceKind::Field, "Layer::grad_hook");
  S.Constructors["c:a"] = ctor("Layer()", true, loc("/p/layer.cpp", 3, 30));
  S.Constructors["c:b"] =
      ctor("Layer(int, int)", false, loc("/p/layer.cpp", 9, 90));
  Resolution R = resolve(F, candidate({"m:h"}));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(R.Notes[0].Message, "'Layer::grad_hook' is not set by the "
                                "constructor 'Layer(int, int)' (layer.cpp:9)");
  EXPECT_EQ(R.Notes[0].Loc.Line, 9u);
}

TEST(ProjectFactsResolve, FieldMadeEmptySomewhere) {
  ProjectFacts F;
  SourceFacts &S = F.get("m:h", SourceKind::Field, "Hooks::after_step");
  S.Constructors["c:a"] = ctor("Hooks()", true, loc("/p/hooks.cpp", 3, 30));
  S.EmptiedAt = loc("/p/hooks.cpp", 20, 400, "Hooks::clear");
  Resolution R = resolve(F, candidate({"m:h"}));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes[0].Message, "'Hooks::after_step' is made empty in "
                                "'Hooks::clear' (hooks.cpp:20)");
}

TEST(ProjectFactsResolve, FieldSetByEveryConstructorBeatsBelief) {
  ProjectFacts F;
  SourceFacts &S = F.get("m:h", SourceKind::Field, "Logger::sink");
  S.Constructors["c:a"] = ctor("Logger()", true, loc("/p/log.cpp", 3, 30));
  S.Constructors["c:b"] = ctor("Logger(Hook)", true, loc("/p/log.cpp", 5, 50));
  S.Tested = 4;
  S.TestedAt = loc("/p/log.cpp", 12, 120, "Logger::flush");
  Resolution R = resolve(F, candidate({"m:h"}));
  EXPECT_FALSE(R.Report);
  EXPECT_TRUE(R.Notes.empty());
}

TEST(ProjectFactsResolve, FieldWithNoConstructorSeenFallsBackOnBelief) {
  ProjectFacts F;
  SourceFacts &S = F.get("m:h", SourceKind::Field, "Opts::cb");
  EXPECT_FALSE(resolve(F, candidate({"m:h"})).Report);
  S.Tested = 1;
  S.TestedAt = loc("/p/opts.cpp", 4, 40, "use");
  EXPECT_TRUE(resolve(F, candidate({"m:h"})).Report);
}

TEST(ProjectFactsResolve, UnknownKeyIsNotReported) {
  ProjectFacts F;
  EXPECT_FALSE(resolve(F, candidate({"f:nowhere"})).Report);
  EXPECT_FALSE(resolve(F, candidate({"f:nowhere"}, true)).Report);
  // Known, but nothing says anything of it.
  F.get("f:plain", SourceKind::Function, "make_fn");
  EXPECT_FALSE(resolve(F, candidate({"f:plain"})).Report);
  F.get("f:plain", SourceKind::Function, "").Definition = Emptiness::Unknown;
  EXPECT_FALSE(resolve(F, candidate({"f:plain"})).Report);
}

TEST(ProjectFactsResolve, EmptyLocallyWithANeverEmptySourceIsReported) {
  ProjectFacts F;
  F.get("f:n", SourceKind::Function, "make_fn").Definition =
      Emptiness::NonEmpty;
  EXPECT_FALSE(resolve(F, candidate({"f:n"})).Report);
  Resolution R = resolve(F, candidate({"f:n"}, true));
  EXPECT_TRUE(R.Report);
  EXPECT_TRUE(R.Notes.empty());
}

TEST(ProjectFactsResolve, EveryKeyMustBeJudged) {
  ProjectFacts F;
  F.get("f:may", SourceKind::Function, "select_wrapper") =
      function(Emptiness::MayBeEmpty, loc("/p/p.cpp", 4, 40));
  F.get("f:never", SourceKind::Function, "make_fn").Definition =
      Emptiness::NonEmpty;
  // One unknown key: not decided, whatever the other says.
  EXPECT_FALSE(resolve(F, candidate({"f:may", "f:unknown"})).Report);
  EXPECT_FALSE(resolve(F, candidate({"f:unknown", "f:may"})).Report);
  EXPECT_FALSE(resolve(F, candidate({"f:may", "p:untested#0"})).Report);
  // All judged, one may be empty: reported, with that one's note only.
  Resolution R = resolve(F, candidate({"f:never", "f:may"}));
  ASSERT_TRUE(R.Report);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_NE(R.Notes[0].Message.find("select_wrapper"), std::string::npos);
  // All judged, none may be empty: quiet.
  EXPECT_FALSE(resolve(F, candidate({"f:never"})).Report);
}

TEST(ProjectFactsResolve, TwoSourcesThatMayBeEmptyGiveTwoNotes) {
  ProjectFacts F;
  F.get("f:a", SourceKind::Function, "a_fn") =
      function(Emptiness::MayBeEmpty, loc("/p/a.cpp", 4, 40));
  SourceFacts &H = F.get("m:h", SourceKind::Field, "C::h");
  H.Constructors["c:c"] = ctor("C()", false, loc("/p/c.cpp", 2, 20));
  Resolution R = resolve(F, candidate({"f:a", "m:h"}));
  ASSERT_TRUE(R.Report);
  EXPECT_EQ(R.Notes.size(), 2u);
}

TEST(ProjectFactsResolve, DoesNotDependOnMergeOrder) {
  ProjectFacts AB = factsA(), BA = factsB();
  AB.merge(factsB());
  BA.merge(factsA());
  for (const char *Key : {"f:select", "m:hook", "p:train#0", "f:other"}) {
    Resolution X = resolve(AB, candidate({Key}));
    Resolution Y = resolve(BA, candidate({Key}));
    EXPECT_EQ(X.Report, Y.Report) << Key;
    ASSERT_EQ(X.Notes.size(), Y.Notes.size()) << Key;
    for (size_t I = 0; I < X.Notes.size(); ++I)
      EXPECT_EQ(X.Notes[I].Message, Y.Notes[I].Message) << Key;
  }
}

} // namespace
} // namespace wrapguard
