//===- ProjectFacts.cpp - Project-wide evidence about callable sources ----===//

#include "ProjectFacts.h"
#include "Wording.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
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
  }
  return "function";
}

static std::optional<SourceKind> parseSourceKind(StringRef S) {
  for (SourceKind K :
       {SourceKind::Function, SourceKind::Field, SourceKind::Parameter})
    if (toString(K) == S)
      return K;
  return std::nullopt;
}

void SourceFacts::merge(const SourceFacts &Other) {
  if (Name.empty())
    Name = Other.Name;
  Definition = joinDefinitions(Definition, Other.Definition);
  keepFirst(EmptyReturn, Other.EmptyReturn);
  Tested += Other.Tested;
  Untested += Other.Untested;
  keepFirst(TestedAt, Other.TestedAt);
  for (const auto &[Usr, Ctor] : Other.Constructors) {
    auto [It, New] = Constructors.try_emplace(Usr, Ctor);
    // A constructor is defined once, but a TU that saw only its declaration
    // records nothing; two that saw it agree unless one could not tell.
    if (New)
      continue;
    It->second.SetsField = It->second.SetsField && Ctor.SetsField;
    keepFirst(It->second.Loc, Ctor.Loc);
  }
  keepFirst(EmptiedAt, Other.EmptiedAt);
  keepFirst(SetAt, Other.SetAt);
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

void ProjectFacts::merge(const ProjectFacts &Other) {
  for (const auto &[Key, S] : Other.Sources) {
    auto [It, New] = Sources.try_emplace(Key, S);
    if (!New)
      It->second.merge(S);
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

static json::Value sourceToJSON(const SourceFacts &S) {
  json::Object O{{"kind", toString(S.Kind)}, {"name", S.Name}};
  if (S.Definition)
    O["definition"] = toString(*S.Definition);
  if (S.EmptyReturn.valid())
    O["emptyReturn"] = factLocToJSON(S.EmptyReturn);
  if (S.Tested)
    O["tested"] = S.Tested;
  if (S.Untested)
    O["untested"] = S.Untested;
  if (S.TestedAt.valid())
    O["testedAt"] = factLocToJSON(S.TestedAt);
  if (!S.Constructors.empty()) {
    json::Object Ctors;
    for (const auto &[Usr, C] : S.Constructors) {
      json::Object CO{{"name", C.Name}, {"setsField", C.SetsField}};
      if (C.Loc.valid())
        CO["at"] = factLocToJSON(C.Loc);
      Ctors[Usr] = std::move(CO);
    }
    O["constructors"] = std::move(Ctors);
  }
  if (S.EmptiedAt.valid())
    O["emptiedAt"] = factLocToJSON(S.EmptiedAt);
  if (S.SetAt.valid())
    O["setAt"] = factLocToJSON(S.SetAt);
  return O;
}

json::Value ProjectFacts::toJSON() const {
  json::Object Srcs;
  for (const auto &[Key, S] : Sources)
    Srcs[Key] = sourceToJSON(S);
  return json::Object{{"format", "wrapguard-facts"},
                      {"version", FormatVersion},
                      {"sources", std::move(Srcs)}};
}

static Error bad(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid wrapguard facts: " + Why);
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
  if (auto D = O->getString("definition")) {
    auto Parsed = parseEmptiness(*D);
    if (!Parsed)
      return bad("source '" + Key + "' has definition '" + *D + "'");
    S.Definition = *Parsed;
  }
  for (auto [Name, Count] :
       {std::pair<StringRef, unsigned *>{"tested", &S.Tested},
        {"untested", &S.Untested}}) {
    const json::Value *V = O->get(Name);
    if (!V)
      continue;
    std::optional<int64_t> N = V->getAsInteger();
    if (!N || *N < 0 || *N > std::numeric_limits<unsigned>::max())
      return bad("source '" + Key + "' has a bad '" + Name + "' count");
    *Count = static_cast<unsigned>(*N);
  }
  if (!factLocFromJSON(O->get("emptyReturn"), S.EmptyReturn) ||
      !factLocFromJSON(O->get("testedAt"), S.TestedAt) ||
      !factLocFromJSON(O->get("emptiedAt"), S.EmptiedAt) ||
      !factLocFromJSON(O->get("setAt"), S.SetAt))
    return bad("source '" + Key + "' has a malformed location");
  if (const json::Object *Ctors = O->getObject("constructors")) {
    for (const auto &[Usr, CV] : *Ctors) {
      const json::Object *CO = CV.getAsObject();
      if (!CO)
        return bad("constructor of '" + Key + "' is not an object");
      CtorFact C;
      C.Name = CO->getString("name").value_or("").str();
      C.SetsField = CO->getBoolean("setsField").value_or(false);
      if (!factLocFromJSON(CO->get("at"), C.Loc))
        return bad("constructor of '" + Key + "' has a malformed location");
      S.Constructors[Usr.str()] = std::move(C);
    }
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
    return bad(formatv("version {0}; this wrapguard reads version {1}",
                       *Version, FormatVersion)
                   .str());
  ProjectFacts Facts;
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

json::Value Candidate::toJSON() const {
  json::Array K;
  for (const std::string &Key : Keys)
    K.push_back(Key);
  return json::Object{{"name", Name},
                      {"keys", std::move(K)},
                      {"emptyLocally", EmptyLocally},
                      {"policyNames", PolicyNames}};
}

bool Candidate::fromJSON(const json::Value &V, Candidate &Out) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  Out.Name = O->getString("name").value_or("").str();
  Out.EmptyLocally = O->getBoolean("emptyLocally").value_or(false);
  Out.PolicyNames = O->getString("policyNames").value_or("").str();
  const json::Array *K = O->getArray("keys");
  if (!K)
    return false;
  // Every key or none: a candidate missing one of its sources would be
  // decided on the others alone.
  for (const json::Value &Key : *K) {
    auto S = Key.getAsString();
    if (!S || S->empty())
      return false;
    Out.Keys.push_back(S->str());
  }
  return !Out.Keys.empty();
}

TUEvidence *&scannerEvidence() {
  static thread_local TUEvidence *Current = nullptr;
  return Current;
}

static constexpr StringLiteral MarkerPrefix = "[wrapguard-candidate ";

std::string candidateMarker(size_t Index) {
  return (MarkerPrefix + Twine(Index) + "] ").str();
}

bool consumeCandidateMarker(std::string &Message, size_t &Index) {
  StringRef M = Message;
  if (!M.consume_front(MarkerPrefix))
    return false;
  auto [Number, Rest] = M.split("] ");
  if (Number.getAsInteger(10, Index))
    return false;
  Message = Rest.str();
  return true;
}

//===----------------------------------------------------------------------===//
// Resolution.
//===----------------------------------------------------------------------===//

namespace {
/// What the facts say of one source (MayBeEmpty, NonEmpty or Unknown), and
/// the note that says why.
Emptiness judge(const SourceFacts &S, const Candidate &C,
                const Regex &PolicyNames, Evidence &Why) {
  auto Belief = [&] {
    Why.Message = checkedElsewhereNote(S.Name, S.TestedAt.Function,
                                       S.TestedAt.shortText());
    Why.Loc = S.TestedAt;
    return Emptiness::MayBeEmpty;
  };
  switch (S.Kind) {
  case SourceKind::Function: {
    if (S.Definition && mayBeEmpty(*S.Definition)) {
      Why.Message = returnsEmptyNote(C.Name, S.Name,
                                     *S.Definition == Emptiness::AlwaysEmpty,
                                     S.EmptyReturn.shortText());
      Why.Loc = S.EmptyReturn;
      return Emptiness::MayBeEmpty;
    }
    // A definition that never returns empty wins over belief and name.
    if (S.Definition == Emptiness::NonEmpty)
      return Emptiness::NonEmpty;
    StringRef Short = StringRef(S.Name).rsplit("::").second;
    if (Short.empty())
      Short = S.Name;
    if (PolicyNames.match(Short)) {
      Why.Message = comesFromNote(C.Name, Short, /*Always=*/false);
      return Emptiness::MayBeEmpty;
    }
    if (S.Tested && S.TestedAt.valid())
      return Belief();
    return Emptiness::Unknown;
  }
  case SourceKind::Field: {
    // Set from outside (two-phase setup, a setter): a constructor that
    // leaves it empty says nothing about the objects that are called.
    auto Unset = llvm::find_if(S.Constructors, [](const auto &Entry) {
      return !Entry.second.SetsField;
    });
    bool AllSet = Unset == S.Constructors.end();
    if (!AllSet && !S.SetAt.valid()) {
      const CtorFact &Ctor = Unset->second;
      Why.Message =
          notSetByConstructorNote(S.Name, Ctor.Name, Ctor.Loc.shortText());
      Why.Loc = Ctor.Loc;
      return Emptiness::MayBeEmpty;
    }
    if (S.EmptiedAt.valid()) {
      Why.Message =
          emptiedInNote(S.Name, S.EmptiedAt.Function, S.EmptiedAt.shortText());
      Why.Loc = S.EmptiedAt;
      return Emptiness::MayBeEmpty;
    }
    // Set by every constructor and never emptied: not a source, even if
    // some code tests it defensively.
    if (!S.Constructors.empty() && AllSet)
      return Emptiness::NonEmpty;
    if (S.Tested && S.TestedAt.valid())
      return Belief();
    return Emptiness::Unknown;
  }
  case SourceKind::Parameter:
    if (S.Tested && S.TestedAt.valid())
      return Belief();
    return Emptiness::Unknown;
  }
  return Emptiness::Unknown;
}
} // namespace

Resolution resolve(const ProjectFacts &Facts, const Candidate &C,
                   const Regex &PolicyNames) {
  Resolution R;
  bool AnyMayBeEmpty = false;
  for (const std::string &Key : C.Keys) {
    const SourceFacts *S = Facts.find(Key);
    if (!S)
      return {};
    Evidence Why;
    Emptiness V = judge(*S, C, PolicyNames, Why);
    if (V == Emptiness::Unknown)
      return {};
    if (mayBeEmpty(V)) {
      AnyMayBeEmpty = true;
      R.Notes.push_back(std::move(Why));
    }
  }
  R.Report = AnyMayBeEmpty || C.EmptyLocally;
  if (!R.Report)
    R.Notes.clear();
  return R;
}

Resolution resolve(const ProjectFacts &Facts, const Candidate &C) {
  return resolve(Facts, C, Regex(C.PolicyNames, Regex::IgnoreCase));
}

} // namespace wrapguard
