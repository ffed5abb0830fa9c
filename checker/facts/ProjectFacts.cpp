//===- ProjectFacts.cpp - Project-wide evidence about callable sources ----===//

#include "ProjectFacts.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <limits>
#include <tuple>

using namespace llvm;

namespace wrapguard {

std::string FactLoc::shortText() const {
  return formatv("{0}:{1}", sys::path::filename(File), Line).str();
}

bool operator<(const FactLoc &A, const FactLoc &B) {
  return std::tie(A.File, A.Offset, A.Function) <
         std::tie(B.File, B.Offset, B.Function);
}
bool operator==(const FactLoc &A, const FactLoc &B) {
  return A.File == B.File && A.Offset == B.Offset && A.Function == B.Function;
}

void keepFirst(FactLoc &Mine, const FactLoc &Theirs) {
  if (Theirs.valid() && (!Mine.valid() || Theirs < Mine))
    Mine = Theirs;
}

std::optional<Emptiness> joinDefinitions(std::optional<Emptiness> A,
                                         std::optional<Emptiness> B) {
  if (!A || !B)
    return A ? A : B;
  return join(*A, *B);
}

StringRef toString(SourceKind K) {
  switch (K) {
  case SourceKind::Function:
    return "function";
  case SourceKind::Field:
    return "field";
  case SourceKind::Parameter:
    return "parameter";
  case SourceKind::Class:
    return "class";
  case SourceKind::Global:
    return "global";
  case SourceKind::Element:
    return "element";
  }
  return "function";
}

static std::optional<SourceKind> parseSourceKind(StringRef S) {
  for (SourceKind K :
       {SourceKind::Function, SourceKind::Field, SourceKind::Parameter,
        SourceKind::Class, SourceKind::Global, SourceKind::Element})
    if (toString(K) == S)
      return K;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Values, constructions and arguments.
//===----------------------------------------------------------------------===//

std::string ValueState::text() const {
  switch (What) {
  case NotCallable:
    return "-";
  case Set:
    return "set";
  case Empty:
    return "empty";
  case Unknown:
    return "unknown";
  case From:
    return "from(" + llvm::join(Keys, ";") + ")";
  }
  return "unknown";
}

std::optional<ValueState> ValueState::parse(StringRef Text) {
  for (Kind K : {NotCallable, Set, Empty, Unknown})
    if (Text == ValueState::of(K).text())
      return ValueState::of(K);
  if (!Text.consume_front("from(") || !Text.consume_back(")") || Text.empty())
    return std::nullopt;
  ValueState V = ValueState::of(From);
  SmallVector<StringRef> Parts;
  Text.split(Parts, ';');
  for (StringRef P : Parts) {
    if (P.empty())
      return std::nullopt;
    V.Keys.push_back(P.str());
  }
  return V;
}

std::string ConstructionFact::signature() const {
  std::string S = Ctor + "(";
  for (size_t I = 0; I < Args.size(); ++I)
    S += (I ? "," : "") + Args[I].text();
  S += ")";
  for (size_t I = 0; I < SetAfter.size(); ++I)
    S += (I ? "," : " then sets ") + std::to_string(SetAfter[I]);
  for (size_t I = 0; I < Overridden.size(); ++I)
    S += (I ? "," : " overriding ") + Overridden[I];
  return S;
}

/// What the passes of a value from Key require, with one more pass that
/// requires Required ("" for nothing): the values all of them require. The
/// first pass sets it; a key with no pass yet requires everything.
static void joinRequirement(std::map<std::string, std::string> &When,
                            const std::string &Key, bool First,
                            StringRef Required) {
  if (First) {
    if (!Required.empty())
      When[Key] = Required.str();
    return;
  }
  auto It = When.find(Key);
  if (It == When.end())
    return; // Some pass requires nothing already.
  std::optional<FlagValues> Mine = FlagValues::parse(It->second);
  std::optional<FlagValues> Theirs = FlagValues::parse(Required);
  FlagValues Both = Mine && Theirs ? Mine->common(*Theirs) : FlagValues();
  if (Both.empty())
    When.erase(It);
  else
    It->second = Both.text();
}

void ArgFacts::add(const ValueState &V, const FactLoc &At,
                   const FlagValues &Passed, const FlagValues &Required) {
  switch (V.What) {
  case ValueState::NotCallable:
    return;
  case ValueState::Set:
    ++Set;
    return;
  case ValueState::Empty:
    ++Empty;
    keepFirst(EmptyAt, At);
    keepFirst(EmptyWith[Passed.text()], At);
    return;
  case ValueState::Unknown:
    ++Unknown;
    return;
  case ValueState::From:
    for (const std::string &K : V.Keys) {
      bool First = !From.count(K);
      keepFirst(From[K], At);
      joinRequirement(FromWhen, K, First, Required.text());
    }
    return;
  }
}

void ArgFacts::addSiblingMove(const FactLoc &At, const FlagValues &Passed) {
  add(ValueState::of(ValueState::Empty), At, Passed);
  SiblingMoves.insert(At);
}

void ArgFacts::merge(const ArgFacts &Other) {
  Set += Other.Set;
  Empty += Other.Empty;
  Unknown += Other.Unknown;
  keepFirst(EmptyAt, Other.EmptyAt);
  SiblingMoves.insert(Other.SiblingMoves.begin(), Other.SiblingMoves.end());
  for (const auto &[Ctx, L] : Other.EmptyWith)
    keepFirst(EmptyWith[Ctx], L);
  for (const auto &[K, L] : Other.From) {
    bool First = !From.count(K);
    keepFirst(From[K], L);
    auto It = Other.FromWhen.find(K);
    joinRequirement(FromWhen, K, First,
                    It == Other.FromWhen.end() ? "" : It->second);
  }
  for (const auto &[K, Fns] : Other.MovedOutIn)
    MovedOutIn[K].insert(Fns.begin(), Fns.end());
}

std::string passedFieldKey(StringRef Via, StringRef Field) {
  // Keys are `m:` and a USR, which has no spaces.
  return Via.empty() ? Field.str() : (Via + " -> " + Field).str();
}

void PassedFieldFacts::merge(const PassedFieldFacts &Other) {
  Calls += Other.Calls;
  Set += Other.Set;
  keepFirst(UnsetAt, Other.UnsetAt);
  keepFirst(EmptyAt, Other.EmptyAt);
  for (const auto &[Assumed, Count] : Other.SetIf)
    SetIf[Assumed] += Count;
}

/// The facts of one constructor from two TUs that both saw its definition
/// agree; when one could not tell, the one that claims less wins, and the
/// choice does not depend on the order of the merge.
static void mergeCtor(CtorFact &Mine, const CtorFact &Theirs) {
  auto Claim = [](const CtorFact &C) {
    return std::make_tuple(C.SetsField, C.Condition.empty(), C.FromParameter,
                           C.Condition);
  };
  FactLoc Loc = Mine.Loc;
  keepFirst(Loc, Theirs.Loc);
  if (Claim(Theirs) < Claim(Mine))
    Mine = Theirs;
  Mine.Loc = Loc;
}

static void mergeLocMap(std::map<std::string, FactLoc> &Mine,
                        const std::map<std::string, FactLoc> &Theirs) {
  for (const auto &[K, L] : Theirs)
    keepFirst(Mine[K], L);
}

void SourceFacts::merge(const SourceFacts &Other) {
  if (Name.empty())
    Name = Other.Name;
  if (Owner.empty())
    Owner = Other.Owner;
  Definition = joinDefinitions(Definition, Other.Definition);
  keepFirst(EmptyReturn, Other.EmptyReturn);
  NeverReturns |= Other.NeverReturns;
  for (const std::string &K : Other.NeverReturnsIf)
    if (!llvm::is_contained(NeverReturnsIf, K))
      NeverReturnsIf.push_back(K);
  llvm::sort(NeverReturnsIf);
  // A function is defined once; were two TUs to disagree, the smaller
  // wins, whatever the order of the merge.
  for (auto [Mine, Theirs] : {std::pair{&ReturnsOnlyIf, &Other.ReturnsOnlyIf},
                              {&EndsProcessUnless, &Other.EndsProcessUnless}})
    if (*Theirs && (!*Mine || **Theirs < **Mine))
      *Mine = *Theirs;
  // A method is defined once and the TUs that saw the definition agree;
  // were they not to, the smaller wins, whatever the order of the merge.
  for (const auto &[K, From] : Other.CopiesFields) {
    auto [It, New] = CopiesFields.try_emplace(K, From);
    if (!New)
      It->second = std::min(It->second, From);
  }
  for (auto [Mine, Theirs] : {std::pair{&TestsField, &Other.TestsField},
                              {&ReturnsField, &Other.ReturnsField}})
    if (Mine->empty() || (!Theirs->empty() && *Theirs < *Mine))
      *Mine = *Theirs;
  Called |= Other.Called;
  Tested += Other.Tested;
  Untested += Other.Untested;
  keepFirst(TestedAt, Other.TestedAt);
  keepFirst(AssertedAt, Other.AssertedAt);
  for (const auto &[A, At] : Other.TestedUnless)
    keepFirst(TestedUnless[A], At);
  for (const auto &[Key, Ctor] : Other.Constructors) {
    // A constructor is defined once, but a TU that saw only its declaration
    // records nothing.
    auto [It, New] = Constructors.try_emplace(Key, Ctor);
    if (!New)
      mergeCtor(It->second, Ctor);
  }
  keepFirst(EmptiedAt, Other.EmptiedAt);
  mergeLocMap(EmptiedIn, Other.EmptiedIn);
  mergeLocMap(EmptiedBy, Other.EmptiedBy);
  mergeLocMap(LoadedFrom, Other.LoadedFrom);
  keepFirst(SetAt, Other.SetAt);
  mergeLocMap(HandedThrough, Other.HandedThrough);
  DefinedWith.insert(Other.DefinedWith.begin(), Other.DefinedWith.end());
  mergeLocMap(AssignedFrom, Other.AssignedFrom);
  if (Index < 0)
    Index = Other.Index;
  keepFirst(ChangedAt, Other.ChangedAt);
  for (const auto &[Value, Keys] : Other.Vouches)
    noteFlagSet(Value, Keys);
  Args.merge(Other.Args);
  for (const std::string &O : Other.Overrides)
    if (!llvm::is_contained(Overrides, O))
      Overrides.push_back(O);
  llvm::sort(Overrides);
  for (const auto &[K, F] : Other.PassedFields)
    PassedFields[K].merge(F);
  for (const auto &[Sig, C] : Other.Constructions) {
    auto [It, New] = Constructions.try_emplace(Sig, C);
    if (New)
      continue;
    It->second.Count += C.Count;
    keepFirst(It->second.At, C.At);
  }
}

void SourceFacts::noteFlagSet(StringRef Value, std::set<std::string> Keys) {
  auto [It, New] = Vouches.try_emplace(Value.str(), std::move(Keys));
  if (New)
    return;
  // What every write proves: the sources all of them prove.
  std::set<std::string> &Mine = It->second;
  for (auto K = Mine.begin(); K != Mine.end();)
    K = Keys.count(*K) ? std::next(K) : Mine.erase(K);
}

std::string flagAtom(StringRef Member, StringRef Value) {
  if (Value.empty())
    return Member.str();
  return (Member + "[" + Value + "]").str();
}

std::pair<StringRef, StringRef> flagAtomParts(StringRef Atom) {
  if (!Atom.ends_with("]"))
    return {Atom, ""};
  size_t Open = Atom.rfind('[');
  if (Open == StringRef::npos)
    return {Atom, ""};
  return {Atom.take_front(Open), Atom.slice(Open + 1, Atom.size() - 1)};
}

SourceFacts &ProjectFacts::get(StringRef Key, SourceKind Kind, StringRef Name) {
  auto [It, New] = Sources.try_emplace(Key.str());
  if (New) {
    It->second.Kind = Kind;
    It->second.Name = Name.str();
  }
  return It->second;
}

const SourceFacts *ProjectFacts::find(StringRef Key) const {
  auto It = Sources.find(Key.str());
  return It == Sources.end() ? nullptr : &It->second;
}

/// How far NeverReturnsIf is followed: a chain of loggers defined in
/// different TUs is short; a longer one is taken to return.
static constexpr unsigned MaxNeverReturnsChain = 4;

static bool neverReturnsWithin(const ProjectFacts &Facts, StringRef Key,
                               unsigned Depth,
                               SmallVectorImpl<std::string> &Path) {
  const SourceFacts *S = Facts.find(Key);
  if (!S || S->Kind != SourceKind::Function)
    return false;
  if (S->NeverReturns)
    return true;
  if (S->NeverReturnsIf.empty() || Depth >= MaxNeverReturnsChain ||
      llvm::is_contained(Path, Key))
    return false; // A cycle proves nothing.
  Path.push_back(Key.str());
  bool All = llvm::all_of(S->NeverReturnsIf, [&](const std::string &K) {
    return neverReturnsWithin(Facts, K, Depth + 1, Path);
  });
  Path.pop_back();
  return All;
}

bool ProjectFacts::neverReturns(StringRef Key) const {
  SmallVector<std::string, 4> Path;
  return neverReturnsWithin(*this, Key, 0, Path);
}

bool ProjectFacts::returnsOnlyIf(const AssumedAssertion &A) const {
  const SourceFacts *S = find(A.Function);
  return S && S->Kind == SourceKind::Function &&
         S->ReturnsOnlyIf == A.Parameter;
}

bool ProjectFacts::endsProcessUnless(const AssumedAssertion &A) const {
  const SourceFacts *S = find(A.Function);
  return S && S->Kind == SourceKind::Function &&
         S->EndsProcessUnless == A.Parameter;
}

/// How many callers a chain of CallersSet assumptions is followed through
/// (`next` → `parse_line` → `parse_field` → `read_field`); a longer chain,
/// or a cycle of recursive functions, proves nothing.
static constexpr unsigned MaxCallersChain = 4;

bool ProjectFacts::effectHolds(const AssumedEffect &A, unsigned Depth) const {
  const SourceFacts *S = find(A.Method);
  if (A.From == AssumedEffect::CallersSet) {
    // The caller's parameter (or object): every call of the caller (none
    // through the methods it overrides, which the facts do not count)
    // passes the field set.
    if (!S || S->Kind != SourceKind::Parameter || !S->Overrides.empty() ||
        Depth >= MaxCallersChain)
      return false;
    auto It = S->PassedFields.find(A.Field);
    return It != S->PassedFields.end() && It->second.Calls > 0 &&
           provedSet(It->second, Depth + 1) == It->second.Calls;
  }
  if (!S || S->Kind != SourceKind::Function || !S->Overrides.empty())
    return false;
  if (A.From == AssumedEffect::ReturnsField)
    return !A.Field.empty() && S->ReturnsField == A.Field;
  if (A.From < 0)
    return !A.Field.empty() && S->TestsField == A.Field;
  auto It = S->CopiesFields.find(A.Field);
  return It != S->CopiesFields.end() && It->second == A.From;
}

unsigned ProjectFacts::provedSet(const PassedFieldFacts &F,
                                 unsigned Depth) const {
  unsigned N = F.Set;
  for (const auto &[Assumed, Count] : F.SetIf)
    if (llvm::all_of(Assumed, [&](const AssumedEffect &A) {
          return effectHolds(A, Depth);
        }))
      N += Count;
  return N;
}

void ProjectFacts::merge(const ProjectFacts &Other) {
  MissingTUs += Other.MissingTUs;
  for (const auto &[Key, S] : Other.Sources) {
    auto [It, New] = Sources.try_emplace(Key, S);
    if (!New)
      It->second.merge(S);
  }
}

void ProjectFacts::merge(ProjectFacts &&Other) {
  MissingTUs += Other.MissingTUs;
  if (Sources.empty()) {
    Sources = std::move(Other.Sources);
    return;
  }
  // A source new here is spliced in whole (its key and maps are not copied),
  // with a hint: both maps are in key order.
  auto Hint = Sources.begin();
  while (!Other.Sources.empty()) {
    auto Node = Other.Sources.extract(Other.Sources.begin());
    Hint = Sources.lower_bound(Node.key());
    if (Hint != Sources.end() && Hint->first == Node.key()) {
      Hint->second.merge(Node.mapped());
      continue;
    }
    Hint = Sources.insert(Hint, std::move(Node));
  }
}

//===----------------------------------------------------------------------===//
// JSON. Fields at their default are left out, so the file stays small: one
// object per source, a few keys each.
//===----------------------------------------------------------------------===//

json::Value factLocToJSON(const FactLoc &L) {
  json::Object O{{"file", L.File},
                 {"line", L.Line},
                 {"column", L.Column},
                 {"offset", L.Offset}};
  if (!L.Function.empty())
    O["function"] = L.Function;
  return O;
}

bool factLocFromJSON(const json::Value *V, FactLoc &L) {
  if (!V)
    return true;
  const json::Object *O = V->getAsObject();
  if (!O)
    return false;
  auto Int = [&](StringRef K, unsigned &Out) {
    if (auto I = O->getInteger(K))
      Out = static_cast<unsigned>(*I);
  };
  if (auto F = O->getString("file"))
    L.File = F->str();
  if (auto F = O->getString("function"))
    L.Function = F->str();
  Int("line", L.Line);
  Int("column", L.Column);
  Int("offset", L.Offset);
  return L.valid();
}

static void putLoc(json::Object &O, StringRef Key, const FactLoc &L) {
  if (L.valid())
    O[Key] = factLocToJSON(L);
}

/// An assertion function and its parameter (a candidate's `assertions`, a
/// source's `testedUnless`): `function` and `parameter`.
static json::Object assertionToJSON(const AssumedAssertion &A) {
  return json::Object{{"function", A.Function}, {"parameter", A.Parameter}};
}

static json::Value locMapToJSON(const std::map<std::string, FactLoc> &M) {
  json::Object O;
  for (const auto &[K, L] : M)
    O[K] = factLocToJSON(L);
  return O;
}

static json::Value statesToJSON(const std::vector<ValueState> &States) {
  json::Array A;
  for (const ValueState &V : States)
    A.push_back(V.text());
  return A;
}

static json::Value ctorToJSON(const CtorFact &C) {
  json::Object O{{"name", C.Name}, {"setsField", C.SetsField}};
  if (C.FromParameter >= 0)
    O["fromParameter"] = C.FromParameter;
  if (!C.Condition.empty()) {
    O["condition"] = C.Condition;
    O["conditionText"] = C.ConditionText;
  }
  putLoc(O, "at", C.Loc);
  return O;
}

static json::Value argsToJSON(const ArgFacts &A) {
  json::Object O;
  if (A.Set)
    O["set"] = A.Set;
  if (A.Empty)
    O["empty"] = A.Empty;
  if (A.Unknown)
    O["unknown"] = A.Unknown;
  putLoc(O, "emptyAt", A.EmptyAt);
  // Left out when no call passed literal flags: reading it back gives the
  // one context "" at emptyAt.
  if (llvm::any_of(A.EmptyWith, [](const auto &E) { return !E.first.empty(); }))
    O["emptyWith"] = locMapToJSON(A.EmptyWith);
  if (!A.From.empty())
    O["from"] = locMapToJSON(A.From);
  if (!A.SiblingMoves.empty()) {
    json::Array Moves;
    for (const FactLoc &L : A.SiblingMoves)
      Moves.push_back(factLocToJSON(L));
    O["siblingMoves"] = std::move(Moves);
  }
  if (!A.FromWhen.empty()) {
    json::Object When;
    for (const auto &[K, Required] : A.FromWhen)
      When[K] = Required;
    O["fromWhen"] = std::move(When);
  }
  if (!A.MovedOutIn.empty()) {
    json::Object Moved;
    for (const auto &[K, Fns] : A.MovedOutIn)
      Moved[K] = json::Array(Fns);
    O["movedOutIn"] = std::move(Moved);
  }
  return O;
}

static json::Value constructionToJSON(const ConstructionFact &C) {
  json::Object O{{"ctor", C.Ctor},
                 {"name", C.CtorName},
                 {"args", statesToJSON(C.Args)},
                 {"count", C.Count}};
  putLoc(O, "at", C.At);
  if (!C.SetAfter.empty())
    O["setAfter"] = json::Array(C.SetAfter);
  if (!C.Overridden.empty())
    O["overridden"] = json::Array(C.Overridden);
  return O;
}

static json::Value sourceToJSON(const SourceFacts &S) {
  json::Object O{{"kind", toString(S.Kind)}, {"name", S.Name}};
  if (!S.Owner.empty())
    O["owner"] = S.Owner;
  if (S.Definition)
    O["definition"] = toString(*S.Definition);
  putLoc(O, "emptyReturn", S.EmptyReturn);
  if (S.NeverReturns)
    O["neverReturns"] = true;
  if (S.Called)
    O["called"] = true;
  if (!S.NeverReturnsIf.empty())
    O["neverReturnsIf"] = json::Array(S.NeverReturnsIf);
  if (S.ReturnsOnlyIf)
    O["returnsOnlyIf"] = *S.ReturnsOnlyIf;
  if (S.EndsProcessUnless)
    O["endsProcessUnless"] = *S.EndsProcessUnless;
  if (S.Tested)
    O["tested"] = S.Tested;
  if (S.Untested)
    O["untested"] = S.Untested;
  putLoc(O, "testedAt", S.TestedAt);
  putLoc(O, "assertedAt", S.AssertedAt);
  if (!S.TestedUnless.empty()) {
    json::Array A;
    for (const auto &[Assertion, At] : S.TestedUnless) {
      json::Object E = assertionToJSON(Assertion);
      E["at"] = factLocToJSON(At);
      A.push_back(std::move(E));
    }
    O["testedUnless"] = std::move(A);
  }
  if (!S.Constructors.empty()) {
    json::Object Ctors;
    for (const auto &[Key, C] : S.Constructors)
      Ctors[Key] = ctorToJSON(C);
    O["constructors"] = std::move(Ctors);
  }
  putLoc(O, "emptiedAt", S.EmptiedAt);
  if (!S.EmptiedIn.empty())
    O["emptiedIn"] = locMapToJSON(S.EmptiedIn);
  if (!S.EmptiedBy.empty())
    O["emptiedBy"] = locMapToJSON(S.EmptiedBy);
  if (!S.LoadedFrom.empty())
    O["loadedFrom"] = locMapToJSON(S.LoadedFrom);
  putLoc(O, "setAt", S.SetAt);
  if (!S.HandedThrough.empty())
    O["handedThrough"] = locMapToJSON(S.HandedThrough);
  if (!S.DefinedWith.empty())
    O["definedWith"] = json::Array(
        std::vector<std::string>(S.DefinedWith.begin(), S.DefinedWith.end()));
  if (!S.AssignedFrom.empty())
    O["assignedFrom"] = locMapToJSON(S.AssignedFrom);
  if (S.Index >= 0)
    O["index"] = S.Index;
  putLoc(O, "changedAt", S.ChangedAt);
  if (!S.Vouches.empty()) {
    json::Object Vouches;
    for (const auto &[Value, Keys] : S.Vouches)
      Vouches[Value] =
          json::Array(std::vector<std::string>(Keys.begin(), Keys.end()));
    O["vouches"] = std::move(Vouches);
  }
  if (!S.Args.empty())
    O["args"] = argsToJSON(S.Args);
  if (!S.Overrides.empty())
    O["overrides"] = json::Array(S.Overrides);
  if (!S.CopiesFields.empty()) {
    json::Object Copies;
    for (const auto &[K, From] : S.CopiesFields)
      Copies[K] = From;
    O["copiesFields"] = std::move(Copies);
  }
  if (!S.TestsField.empty())
    O["testsField"] = S.TestsField;
  if (!S.ReturnsField.empty())
    O["returnsField"] = S.ReturnsField;
  if (!S.PassedFields.empty()) {
    json::Object Fields;
    for (const auto &[K, F] : S.PassedFields) {
      json::Object FO{{"calls", F.Calls}, {"set", F.Set}};
      putLoc(FO, "unsetAt", F.UnsetAt);
      putLoc(FO, "emptyAt", F.EmptyAt);
      if (!F.SetIf.empty()) {
        json::Array SetIf;
        for (const auto &[Assumed, Count] : F.SetIf) {
          json::Array As;
          for (const AssumedEffect &A : Assumed)
            As.push_back(json::Object{
                {"method", A.Method}, {"field", A.Field}, {"from", A.From}});
          SetIf.push_back(
              json::Object{{"count", Count}, {"assuming", std::move(As)}});
        }
        FO["setIf"] = std::move(SetIf);
      }
      Fields[K] = std::move(FO);
    }
    O["passedFields"] = std::move(Fields);
  }
  if (!S.Constructions.empty()) {
    json::Array Cs;
    for (const auto &[Sig, C] : S.Constructions)
      Cs.push_back(constructionToJSON(C));
    O["constructions"] = std::move(Cs);
  }
  return O;
}

json::Value ProjectFacts::toJSON() const {
  json::Object Srcs;
  for (const auto &[Key, S] : Sources)
    Srcs[Key] = sourceToJSON(S);
  json::Object O{{"format", "wrapguard-facts"},
                 {"version", FormatVersion},
                 {"sources", std::move(Srcs)}};
  if (MissingTUs)
    O["missingTUs"] = MissingTUs;
  return O;
}

static Error bad(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid wrapguard facts: " + Why);
}

/// Reads an unsigned count; false when present but not one.
static bool readCount(const json::Object &O, StringRef Name, unsigned &Out) {
  const json::Value *V = O.get(Name);
  if (!V)
    return true;
  std::optional<int64_t> N = V->getAsInteger();
  if (!N || *N < 0 || *N > std::numeric_limits<unsigned>::max())
    return false;
  Out = static_cast<unsigned>(*N);
  return true;
}

/// The inverse of assertionToJSON; false for an entry without a function
/// key or with a bad parameter.
static bool assertionFromJSON(const json::Object *E, AssumedAssertion &Out) {
  if (!E || !E->getString("function") || E->getString("function")->empty() ||
      !E->get("parameter") || !readCount(*E, "parameter", Out.Parameter))
    return false;
  Out.Function = E->getString("function")->str();
  return true;
}

/// `setIf` of a passed field: each set of assumptions, and how many calls
/// it proved the field set for.
static bool setIfFromJSON(const json::Array *A, PassedFieldFacts &F) {
  if (!A)
    return true;
  for (const json::Value &V : *A) {
    const json::Object *O = V.getAsObject();
    const json::Array *As = O ? O->getArray("assuming") : nullptr;
    unsigned Count = 0;
    if (!As || As->empty() || !readCount(*O, "count", Count) || !Count)
      return false;
    std::vector<AssumedEffect> Assumed;
    for (const json::Value &AV : *As) {
      const json::Object *AO = AV.getAsObject();
      std::optional<StringRef> Method =
          AO ? AO->getString("method") : std::nullopt;
      std::optional<StringRef> Field =
          AO ? AO->getString("field") : std::nullopt;
      std::optional<int64_t> From = AO ? AO->getInteger("from") : std::nullopt;
      if (!Method || !Field || !From || *From < AssumedEffect::CallersSet)
        return false;
      Assumed.push_back({Method->str(), Field->str(), int(*From)});
    }
    llvm::sort(Assumed);
    F.SetIf[std::move(Assumed)] += Count;
  }
  return true;
}

static bool readLocMap(const json::Object *O,
                       std::map<std::string, FactLoc> &Out) {
  if (!O)
    return true;
  for (const auto &[K, V] : *O)
    if (!factLocFromJSON(&V, Out[K.str()]))
      return false;
  return true;
}

static bool readStates(const json::Array *A, std::vector<ValueState> &Out) {
  if (!A)
    return false;
  for (const json::Value &V : *A) {
    auto T = V.getAsString();
    std::optional<ValueState> S = T ? ValueState::parse(*T) : std::nullopt;
    if (!S)
      return false;
    Out.push_back(std::move(*S));
  }
  return true;
}

static bool ctorFromJSON(const json::Object &CO, CtorFact &C) {
  C.Name = CO.getString("name").value_or("").str();
  C.SetsField = CO.getBoolean("setsField").value_or(false);
  C.FromParameter =
      static_cast<int>(CO.getInteger("fromParameter").value_or(-1));
  C.Condition = CO.getString("condition").value_or("").str();
  C.ConditionText = CO.getString("conditionText").value_or("").str();
  return factLocFromJSON(CO.get("at"), C.Loc);
}

static bool argsFromJSON(const json::Object *O, ArgFacts &A) {
  if (!O)
    return true;
  if (!readCount(*O, "set", A.Set) || !readCount(*O, "empty", A.Empty) ||
      !readCount(*O, "unknown", A.Unknown) ||
      !factLocFromJSON(O->get("emptyAt"), A.EmptyAt) ||
      !readLocMap(O->getObject("emptyWith"), A.EmptyWith) ||
      !readLocMap(O->getObject("from"), A.From))
    return false;
  for (const auto &[Ctx, L] : A.EmptyWith)
    if (!FlagValues::parse(Ctx))
      return false;
  if (const json::Value *Moves = O->get("siblingMoves")) {
    const json::Array *List = Moves->getAsArray();
    if (!List)
      return false;
    for (const json::Value &V : *List) {
      FactLoc L;
      if (!factLocFromJSON(&V, L) || !L.valid())
        return false;
      A.SiblingMoves.insert(std::move(L));
    }
  }
  if (A.Empty && A.EmptyWith.empty())
    A.EmptyWith[""] = A.EmptyAt;
  if (const json::Object *When = O->getObject("fromWhen"))
    for (const auto &[K, V] : *When) {
      std::optional<StringRef> Required = V.getAsString();
      if (!Required || !FlagValues::parse(*Required) || !A.From.count(K.str()))
        return false;
      A.FromWhen[K.str()] = Required->str();
    }
  if (const json::Value *Moved = O->get("movedOutIn")) {
    const json::Object *ByKey = Moved->getAsObject();
    if (!ByKey)
      return false;
    for (const auto &[K, V] : *ByKey) {
      const json::Array *Fns = V.getAsArray();
      if (!Fns || Fns->empty() || !A.From.count(K.str()))
        return false;
      for (const json::Value &F : *Fns) {
        std::optional<StringRef> Fn = F.getAsString();
        if (!Fn || Fn->empty())
          return false;
        A.MovedOutIn[K.str()].insert(Fn->str());
      }
    }
  }
  return true;
}

static bool readStrings(const json::Array *A, std::vector<std::string> &Out) {
  if (!A)
    return true;
  for (const json::Value &V : *A) {
    auto S = V.getAsString();
    if (!S || S->empty())
      return false;
    Out.push_back(S->str());
  }
  return true;
}

static bool constructionFromJSON(const json::Value &V, ConstructionFact &C) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  C.Ctor = O->getString("ctor").value_or("").str();
  C.CtorName = O->getString("name").value_or("").str();
  if (const json::Value *Set = O->get("setAfter")) {
    const json::Array *A = Set->getAsArray();
    if (!A)
      return false;
    for (const json::Value &I : *A) {
      std::optional<int64_t> Index = I.getAsInteger();
      if (!Index || *Index < 0 || *Index > std::numeric_limits<int>::max())
        return false;
      C.SetAfter.push_back(unsigned(*Index));
    }
    llvm::sort(C.SetAfter);
    C.SetAfter.erase(std::unique(C.SetAfter.begin(), C.SetAfter.end()),
                     C.SetAfter.end());
  }
  if (!readStrings(O->getArray("overridden"), C.Overridden))
    return false;
  llvm::sort(C.Overridden);
  return !C.Ctor.empty() && readStates(O->getArray("args"), C.Args) &&
         readCount(*O, "count", C.Count) && factLocFromJSON(O->get("at"), C.At);
}

static Error sourceFromJSON(StringRef Key, const json::Value &V,
                            SourceFacts &S) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return bad("source '" + Key + "' is not an object");
  auto Kind = parseSourceKind(O->getString("kind").value_or(""));
  if (!Kind)
    return bad("source '" + Key + "' has no valid 'kind'");
  S.Kind = *Kind;
  S.Name = O->getString("name").value_or("").str();
  S.Owner = O->getString("owner").value_or("").str();
  if (auto D = O->getString("definition")) {
    auto Parsed = parseEmptiness(*D);
    if (!Parsed)
      return bad("source '" + Key + "' has definition '" + *D + "'");
    S.Definition = *Parsed;
  }
  for (auto [Name, Count] :
       {std::pair<StringRef, unsigned *>{"tested", &S.Tested},
        {"untested", &S.Untested}})
    if (!readCount(*O, Name, *Count))
      return bad("source '" + Key + "' has a bad '" + Name + "' count");
  for (auto [Name, Parameter] :
       {std::pair<StringRef, std::optional<unsigned> *>{"returnsOnlyIf",
                                                        &S.ReturnsOnlyIf},
        {"endsProcessUnless", &S.EndsProcessUnless}})
    if (O->get(Name)) {
      unsigned I = 0;
      if (!readCount(*O, Name, I))
        return bad("source '" + Key + "' has a bad '" + Name + "' parameter");
      *Parameter = I;
    }
  if (const json::Array *A = O->getArray("testedUnless"))
    for (const json::Value &Each : *A) {
      const json::Object *E = Each.getAsObject();
      AssumedAssertion Read;
      FactLoc At;
      if (!assertionFromJSON(E, Read) || !factLocFromJSON(E->get("at"), At) ||
          !At.valid())
        return bad("source '" + Key + "' has a malformed 'testedUnless'");
      keepFirst(S.TestedUnless[Read], At);
    }
  if (!factLocFromJSON(O->get("emptyReturn"), S.EmptyReturn) ||
      !factLocFromJSON(O->get("testedAt"), S.TestedAt) ||
      !factLocFromJSON(O->get("assertedAt"), S.AssertedAt) ||
      !factLocFromJSON(O->get("emptiedAt"), S.EmptiedAt) ||
      !factLocFromJSON(O->get("setAt"), S.SetAt) ||
      !readLocMap(O->getObject("handedThrough"), S.HandedThrough) ||
      !factLocFromJSON(O->get("changedAt"), S.ChangedAt) ||
      !readLocMap(O->getObject("assignedFrom"), S.AssignedFrom) ||
      !readLocMap(O->getObject("loadedFrom"), S.LoadedFrom) ||
      !readLocMap(O->getObject("emptiedIn"), S.EmptiedIn) ||
      !readLocMap(O->getObject("emptiedBy"), S.EmptiedBy))
    return bad("source '" + Key + "' has a malformed location");
  S.NeverReturns = O->getBoolean("neverReturns").value_or(false);
  S.Called = O->getBoolean("called").value_or(false);
  if (const json::Array *If = O->getArray("neverReturnsIf"))
    for (const json::Value &K : *If) {
      if (!K.getAsString() || K.getAsString()->empty())
        return bad("a function '" + Key + "' never returns with is not a key");
      S.NeverReturnsIf.push_back(K.getAsString()->str());
    }
  llvm::sort(S.NeverReturnsIf);
  if (const json::Value *Vouches = O->get("vouches")) {
    const json::Object *VO = Vouches->getAsObject();
    if (!VO)
      return bad("source '" + Key + "' has a malformed 'vouches'");
    for (const auto &[Name, Keys] : *VO) {
      StringRef Value = Name;
      std::vector<std::string> Read;
      // A value is "" (true), "*" (any bit) or a bit's number.
      bool Number = !Value.empty() && all_of(Value.str(), [](char Ch) {
        return isDigit(Ch) || Ch == '-';
      });
      if (!Keys.getAsArray() || !readStrings(Keys.getAsArray(), Read) ||
          !(Value.empty() || Value == "*" || Number))
        return bad("source '" + Key + "' has a malformed 'vouches'");
      S.noteFlagSet(Value, std::set<std::string>(Read.begin(), Read.end()));
    }
  }
  if (const json::Array *With = O->getArray("definedWith"))
    for (const json::Value &Sig : *With) {
      if (!Sig.getAsString() || Sig.getAsString()->empty())
        return bad("a signature class '" + Key +
                   "' is defined with is not "
                   "a string");
      S.DefinedWith.insert(Sig.getAsString()->str());
    }
  S.Index = static_cast<int>(O->getInteger("index").value_or(-1));
  if (const json::Object *Ctors = O->getObject("constructors"))
    for (const auto &[CtorKey, CV] : *Ctors) {
      const json::Object *CO = CV.getAsObject();
      CtorFact C;
      if (!CO || !ctorFromJSON(*CO, C))
        return bad("constructor of '" + Key + "' is malformed");
      S.Constructors[CtorKey.str()] = std::move(C);
    }
  if (!argsFromJSON(O->getObject("args"), S.Args))
    return bad("the arguments of '" + Key + "' are malformed");
  if (const json::Array *Ov = O->getArray("overrides"))
    for (const json::Value &K : *Ov) {
      if (!K.getAsString())
        return bad("an override of '" + Key + "' is not a key");
      S.Overrides.push_back(K.getAsString()->str());
    }
  if (const json::Object *Copies = O->getObject("copiesFields"))
    for (const auto &[FieldKey, FV] : *Copies) {
      std::optional<int64_t> From = FV.getAsInteger();
      if (!From || *From < 0)
        return bad("the copied field '" + FieldKey + "' of '" + Key +
                   "' is malformed");
      S.CopiesFields[FieldKey.str()] = int(*From);
    }
  if (std::optional<StringRef> Tests = O->getString("testsField"))
    S.TestsField = Tests->str();
  if (std::optional<StringRef> Returns = O->getString("returnsField"))
    S.ReturnsField = Returns->str();
  if (const json::Object *Fields = O->getObject("passedFields"))
    for (const auto &[FieldKey, FV] : *Fields) {
      const json::Object *FO = FV.getAsObject();
      PassedFieldFacts F;
      if (!FO || !readCount(*FO, "calls", F.Calls) ||
          !readCount(*FO, "set", F.Set) || F.Set > F.Calls ||
          !factLocFromJSON(FO->get("unsetAt"), F.UnsetAt) ||
          !factLocFromJSON(FO->get("emptyAt"), F.EmptyAt) ||
          !setIfFromJSON(FO->getArray("setIf"), F))
        return bad("the passed field '" + FieldKey + "' of '" + Key +
                   "' is malformed");
      S.PassedFields[FieldKey.str()] = std::move(F);
    }
  if (const json::Array *Cs = O->getArray("constructions"))
    for (const json::Value &CV : *Cs) {
      ConstructionFact C;
      if (!constructionFromJSON(CV, C))
        return bad("a construction of '" + Key + "' is malformed");
      S.Constructions[C.signature()] = std::move(C);
    }
  return Error::success();
}

Expected<ProjectFacts> ProjectFacts::fromJSON(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O || O->getString("format") != "wrapguard-facts")
    return bad("not a wrapguard facts file (no \"format\": "
               "\"wrapguard-facts\")");
  auto Version = O->getInteger("version");
  if (!Version)
    return bad(formatv("no \"version\" number; this wrapguard reads "
                       "version {0}",
                       FormatVersion)
                   .str());
  if (*Version != FormatVersion)
    return bad(formatv("version {0}; this wrapguard reads version {1} "
                       "(regenerate it with 'wrapguard index')",
                       *Version, FormatVersion)
                   .str());
  ProjectFacts Facts;
  if (!readCount(*O, "missingTUs", Facts.MissingTUs))
    return bad("\"missingTUs\" is not a count");
  const json::Value *SrcsValue = O->get("sources");
  if (SrcsValue && !SrcsValue->getAsObject())
    return bad("\"sources\" is not an object");
  if (const json::Object *Srcs = O->getObject("sources"))
    for (const auto &[Key, SV] : *Srcs) {
      SourceFacts S;
      if (Error E = sourceFromJSON(Key, SV, S))
        return std::move(E);
      Facts.Sources[Key.str()] = std::move(S);
    }
  return Facts;
}

Expected<ProjectFacts> ProjectFacts::readFile(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read facts file '" + Path +
                                 "': " + Buffer.getError().message());
  Expected<json::Value> V = json::parse((*Buffer)->getBuffer());
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             "facts file '" + Path +
                                 "' is not JSON: " + toString(V.takeError()));
  auto Facts = fromJSON(*V);
  if (!Facts)
    return createStringError(inconvertibleErrorCode(),
                             "'" + Path + "': " + toString(Facts.takeError()));
  return Facts;
}

Error ProjectFacts::writeFile(StringRef Path) const {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write facts file '" + Path +
                                     "': " + EC.message());
  OS << formatv("{0:2}", toJSON()) << "\n";
  return Error::success();
}

static StringRef lifecycleName(Candidate::Lifecycle L) {
  switch (L) {
  case Candidate::Lifecycle::None:
    return "";
  case Candidate::Lifecycle::Constructor:
    return "constructor";
  case Candidate::Lifecycle::Destructor:
    return "destructor";
  }
  return "";
}

json::Value Candidate::toJSON() const {
  json::Object O{{"name", Name},
                 {"keys", json::Array(Keys)},
                 {"emptyLocally", EmptyLocally},
                 {"policyNames", PolicyNames}};
  if (!Guards.empty())
    O["guards"] = json::Array(Guards);
  if (!Flags.empty())
    O["flags"] = json::Array(Flags);
  if (!Slots.empty())
    O["slots"] = json::Array(Slots);
  if (Construction) {
    O["construction"] = constructionToJSON(*Construction);
    O["constructedClass"] = ConstructedClass;
  }
  if (During != Lifecycle::None) {
    O["during"] = lifecycleName(During);
    O["lifecycleClass"] = LifecycleClass;
  }
  if (!VirtualMethod.empty())
    O["virtualMethod"] = VirtualMethod;
  if (!Function.empty())
    O["function"] = Function;
  if (!Through.empty())
    O["through"] = Through;
  if (!Via.empty())
    O["via"] = Via;
  if (!Requires.empty())
    O["requires"] = Requires;
  if (!Exits.empty())
    O["exits"] = json::Array(Exits);
  if (!Assertions.empty()) {
    json::Array A;
    for (const AssumedAssertion &Each : Assertions)
      A.push_back(assertionToJSON(Each));
    O["assertions"] = std::move(A);
  }
  if (!Getters.empty()) {
    json::Array G;
    for (const AssumedEffect &Each : Getters)
      G.push_back(json::Object{{"method", Each.Method}, {"field", Each.Field}});
    O["getters"] = std::move(G);
  }
  if (Decided)
    O["decided"] = true;
  if (Strict)
    O["strict"] = true;
  if (ModeTested)
    O["modeTested"] = true;
  if (AlwaysReached)
    O["alwaysReached"] = true;
  return O;
}

bool Candidate::fromJSON(const json::Value &V, Candidate &Out) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  Out.Name = O->getString("name").value_or("").str();
  Out.EmptyLocally = O->getBoolean("emptyLocally").value_or(false);
  Out.PolicyNames = O->getString("policyNames").value_or("").str();
  Out.Strict = O->getBoolean("strict").value_or(false);
  Out.ModeTested = O->getBoolean("modeTested").value_or(false);
  Out.AlwaysReached = O->getBoolean("alwaysReached").value_or(false);
  StringRef During = O->getString("during").value_or("");
  for (Lifecycle L :
       {Lifecycle::None, Lifecycle::Constructor, Lifecycle::Destructor})
    if (During == lifecycleName(L))
      Out.During = L;
  Out.LifecycleClass = O->getString("lifecycleClass").value_or("").str();
  Out.ConstructedClass = O->getString("constructedClass").value_or("").str();
  Out.Through = O->getString("through").value_or("").str();
  Out.VirtualMethod = O->getString("virtualMethod").value_or("").str();
  Out.Function = O->getString("function").value_or("").str();
  Out.Via = O->getString("via").value_or("").str();
  Out.Requires = O->getString("requires").value_or("").str();
  if (!FlagValues::parse(Out.Requires))
    return false;
  if (const json::Value *C = O->get("construction")) {
    ConstructionFact F;
    if (!constructionFromJSON(*C, F))
      return false;
    Out.Construction = std::move(F);
  }
  Out.Decided = O->getBoolean("decided").value_or(false);
  if (!readStrings(O->getArray("exits"), Out.Exits))
    return false;
  if (const json::Array *A = O->getArray("assertions"))
    for (const json::Value &Each : *A) {
      AssumedAssertion Read;
      if (!assertionFromJSON(Each.getAsObject(), Read))
        return false;
      Out.Assertions.push_back(std::move(Read));
    }
  if (const json::Array *G = O->getArray("getters"))
    for (const json::Value &Each : *G) {
      const json::Object *E = Each.getAsObject();
      std::optional<StringRef> Method =
          E ? E->getString("method") : std::nullopt;
      std::optional<StringRef> Field = E ? E->getString("field") : std::nullopt;
      if (!Method || Method->empty() || !Field || Field->empty())
        return false;
      Out.Getters.push_back(
          {Method->str(), Field->str(), AssumedEffect::ReturnsField});
    }
  // Every key or none: a candidate missing one of its sources would be
  // decided on the others alone. One the TU decided has none.
  const json::Array *K = O->getArray("keys");
  if (!K || !readStrings(K, Out.Keys) || (Out.Keys.empty() && !Out.Decided))
    return false;
  return readStrings(O->getArray("guards"), Out.Guards) &&
         readStrings(O->getArray("flags"), Out.Flags) &&
         readStrings(O->getArray("slots"), Out.Slots);
}

} // namespace wrapguard
