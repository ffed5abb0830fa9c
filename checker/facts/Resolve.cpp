//===- Resolve.cpp - Deciding candidates against the project's facts ------===//
//
// judge() answers, for one source, what the facts say (MayBeEmpty, NonEmpty
// or Unknown) and the notes that say why. It is one-sided on purpose: a
// source may be empty only on positive evidence, never empty only on a
// complete picture, and unknown otherwise, which keeps the call quiet. The
// user-facing rules are in docs/checks/unchecked-policy-call.md.
//
//===----------------------------------------------------------------------===//

#include "ProjectFacts.h"
#include "Wording.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace wrapguard {
namespace {

/// How far a value is followed from one source to the next (a parameter
/// passed a parameter passed a function's result...).
constexpr unsigned MaxDepth = 4;
/// Constructions named in the note of a field no construction sets.
constexpr unsigned MaxConstructionNotes = 3;

/// What one construction leaves in one field.
enum class FieldState { Set, Empty, Unknown, Conditional };

/// Counts of FieldState over a class's constructions, with the ones that
/// leave the field empty (for the notes).
struct Tally {
  unsigned Set = 0, Empty = 0, Unknown = 0, Conditional = 0;
  std::vector<const ConstructionFact *> Empties;
  unsigned total() const { return Set + Empty + Unknown + Conditional; }
  bool onlyEmpty() const { return Empty && total() == Empty; }
  bool allSet() const { return Set && total() == Set; }
};

/// The member key an atom tests: `m:K` of `!m:K==V`.
StringRef memberOfAtom(StringRef Atom) {
  return Atom.ltrim('!').split("==").first;
}

StringRef shortName(StringRef Qualified) {
  StringRef Short = Qualified.rsplit("::").second;
  return Short.empty() ? Qualified : Short;
}

class Resolver {
public:
  Resolver(const ProjectFacts &Facts, const Candidate &C,
           const Regex &PolicyNames)
      : Facts(Facts), C(C), PolicyNames(PolicyNames) {}

  /// What the facts say of Key for a value called Subject; Why receives the
  /// notes when the answer is MayBeEmpty. For a parameter, Required is what
  /// the place that uses it requires of its function's flags.
  Emptiness judge(StringRef Key, StringRef Subject, std::vector<Evidence> &Why,
                  unsigned Depth, const FlagValues &Required = {}) {
    if (!C.Strict && vouchedFor(Key))
      return Emptiness::NonEmpty;
    const SourceFacts *S = Facts.find(Key);
    if (!S || Depth > MaxDepth || !Visiting.insert(Key).second)
      return Emptiness::Unknown;
    Emptiness E = Emptiness::Unknown;
    switch (S->Kind) {
    case SourceKind::Function:
      E = judgeFunction(*S, Subject, Why);
      break;
    case SourceKind::Field:
      E = judgeField(Key, *S, Why, Depth);
      break;
    case SourceKind::Parameter:
      E = judgeParameter(*S, Why, Depth, Required);
      break;
    case SourceKind::Global:
      // A global has no constructions to count: only what the project
      // assigns it, as for a field after construction. Its initializer
      // decides nothing by itself, since a registration may come first.
      E = judgeEmpties(*S, Why, Depth);
      break;
    case SourceKind::Element:
      E = judgeElement(*S, Why, Depth);
      break;
    case SourceKind::Class:
      break;
    }
    Visiting.erase(Key);
    return E;
  }

private:
  /// Whether a flag true at the call vouches for Key: every write in the
  /// project that sets it (that bit of it) proves Key non-empty where it
  /// runs. The author keeps the flag as the callable's witness (`if
  /// (buf->cb) v->flags.set(IsCallback);`, then `if
  /// (v.flags.test(IsCallback)) item->cb(..)`), whatever else empties the
  /// source elsewhere. So it does for a field that takes its values only by
  /// copies of such sources (`item.cb = buf->cb;`) and that nothing
  /// empties: the copy is what the flag's test saw.
  bool vouchedFor(StringRef Key) const {
    if (C.Flags.empty())
      return false;
    if (vouchedDirectly(Key))
      return true;
    const SourceFacts *S = Facts.find(Key);
    return S && S->Kind == SourceKind::Field && !S->AssignedFrom.empty() &&
           !S->emptiedAnywhere() && S->LoadedFrom.empty() &&
           all_of(S->AssignedFrom, [&](const auto &Entry) {
             return vouchedDirectly(Entry.first);
           });
  }

  bool vouchedDirectly(StringRef Key) const {
    return any_of(C.Flags, [&](StringRef Atom) {
      auto [Member, Value] = flagAtomParts(Atom);
      const SourceFacts *F = Facts.find(Member);
      if (!F)
        return false;
      auto Proves = [&](StringRef V, bool IfNone) {
        auto It = F->Vouches.find(V.str());
        return It == F->Vouches.end() ? IfNone
                                      : It->second.count(Key.str()) > 0;
      };
      // A write that may set any bit (`flags.set()`) must prove it too.
      return Proves(Value, false) && (Value.empty() || Proves("*", true));
    });
  }

  Emptiness belief(const SourceFacts &S, std::vector<Evidence> &Why) {
    const FactLoc *At = testedAt(S);
    if (!At)
      return Emptiness::Unknown;
    Why.push_back(
        {checkedElsewhereNote(S.Name, At->Function, At->shortText()), *At});
    return Emptiness::MayBeEmpty;
  }

  /// The first test of S that is belief: of those its TUs decided, and of
  /// those handed to a function defined elsewhere whose definition does not
  /// end the process without them (`LogUnless(f != nullptr, "..")`, or one
  /// that throws, which a caller may catch and go on).
  const FactLoc *testedAt(const SourceFacts &S) const {
    const FactLoc *First =
        S.Tested && S.TestedAt.valid() ? &S.TestedAt : nullptr;
    for (const auto &[A, At] : S.TestedUnless)
      if (!Facts.endsProcessUnless(A) && (!First || At < *First))
        First = &At;
    return First;
  }

  /// Whether some code states that S is set where it runs: an assertion of
  /// its TU (AssertedAt), or a test handed to an assertion function that
  /// another TU defines.
  bool asserted(const SourceFacts &S) const {
    return S.AssertedAt.valid() ||
           any_of(S.TestedUnless, [&](const auto &Entry) {
             return Facts.endsProcessUnless(Entry.first);
           });
  }

  Emptiness judgeFunction(const SourceFacts &S, StringRef Subject,
                          std::vector<Evidence> &Why) {
    if (S.Definition && mayBeEmpty(*S.Definition)) {
      Why.push_back({returnsEmptyNote(Subject, S.Name,
                                      *S.Definition == Emptiness::AlwaysEmpty,
                                      S.EmptyReturn.shortText()),
                     S.EmptyReturn});
      return Emptiness::MayBeEmpty;
    }
    // A definition that never returns empty wins over belief and name.
    if (S.Definition == Emptiness::NonEmpty)
      return Emptiness::NonEmpty;
    StringRef Short = shortName(S.Name);
    if (PolicyNames.match(Short)) {
      Why.push_back({comesFromNote(Subject, Short, /*Always=*/false), {}});
      return Emptiness::MayBeEmpty;
    }
    return belief(S, Why);
  }

  /// A value stored or passed somewhere, as NonEmpty, MayBeEmpty or Unknown.
  Emptiness judgeValue(const ValueState &V, StringRef Subject,
                       std::vector<Evidence> &Why, unsigned Depth) {
    switch (V.What) {
    case ValueState::Set:
      return Emptiness::NonEmpty;
    case ValueState::Empty:
      return Emptiness::MayBeEmpty;
    case ValueState::NotCallable:
    case ValueState::Unknown:
      return Emptiness::Unknown;
    case ValueState::From:
      break;
    }
    bool AllSet = true;
    for (const std::string &K : V.Keys) {
      Emptiness E = judge(K, Subject, Why, Depth + 1);
      if (mayBeEmpty(E))
        return Emptiness::MayBeEmpty;
      AllSet &= E == Emptiness::NonEmpty;
    }
    return AllSet ? Emptiness::NonEmpty : Emptiness::Unknown;
  }

  /// A condition under which a constructor sets a field (atoms joined by
  /// `&`) holds at the call, and nothing changes its members after
  /// construction.
  bool holds(StringRef Condition) {
    for (StringRef Atom : split(Condition, '&')) {
      if (!is_contained(C.Guards, Atom))
        return false;
      const SourceFacts *M = Facts.find(memberOfAtom(Atom));
      if (M && M->ChangedAt.valid())
        return false;
    }
    return true;
  }

  /// What construction K leaves in field F.
  FieldState stateIn(const ConstructionFact &K, const SourceFacts &F,
                     std::vector<Evidence> &Why, unsigned Depth) {
    // The function that made the object set the field right after, on
    // every path: the object never leaves that function empty.
    if (F.Index >= 0 && is_contained(K.SetAfter, unsigned(F.Index)))
      return FieldState::Set;
    if (K.Ctor != ConstructionFact::AggregateInit) {
      auto It = F.Constructors.find(K.Ctor);
      if (It == F.Constructors.end())
        return FieldState::Unknown; // Defined where no TU recorded it.
      const CtorFact &Ctor = It->second;
      if (!Ctor.SetsField)
        return FieldState::Empty;
      if (!Ctor.Condition.empty() && !holds(Ctor.Condition))
        return FieldState::Conditional;
      if (Ctor.FromParameter < 0)
        return FieldState::Set;
    }
    // The aggregate's member, or the parameter the constructor sets it from.
    const ValueState *Arg = argumentFor(K, F);
    if (!Arg)
      return FieldState::Unknown;
    switch (judgeValue(*Arg, F.Name, Why, Depth)) {
    case Emptiness::NonEmpty:
      return FieldState::Set;
    case Emptiness::MayBeEmpty:
    case Emptiness::AlwaysEmpty:
      return FieldState::Empty;
    case Emptiness::Unknown:
      return FieldState::Unknown;
    }
    return FieldState::Unknown;
  }

  /// The constructions that decide field F: only the one in the
  /// candidate's function when it has one, else all the project performs,
  /// in (file, offset) order.
  std::vector<const ConstructionFact *> constructionsFor(const SourceFacts &F) {
    std::vector<const ConstructionFact *> Ks;
    if (C.Construction && C.ConstructedClass == F.Owner) {
      Ks.push_back(&*C.Construction);
    } else if (const SourceFacts *Class = Facts.find(F.Owner)) {
      for (const auto &Entry : Class->Constructions)
        if (!runsElsewhere(Entry.second))
          Ks.push_back(&Entry.second);
      // The notes name the first constructions.
      llvm::sort(Ks, [](const ConstructionFact *A, const ConstructionFact *B) {
        return A->At < B->At;
      });
    }
    return Ks;
  }

  /// Whether the call's virtual method never runs on the objects K makes:
  /// K is the base subobject of a class that overrides it.
  bool runsElsewhere(const ConstructionFact &K) const {
    return !C.VirtualMethod.empty() &&
           llvm::is_contained(K.Overridden, C.VirtualMethod);
  }

  /// Whether objects of F's class reach code no TU shows, by pointer or
  /// non-const reference (SourceFacts::HandedThrough). Not the object
  /// the calling function constructs itself: its flow analysis saw what
  /// happened to that one.
  bool handedToUnseen(const SourceFacts &F) const {
    if (C.Construction && C.ConstructedClass == F.Owner)
      return false;
    const SourceFacts *Class = Facts.find(F.Owner);
    return Class && Class->handedToUnseen();
  }

  /// Whether the project constructs F's class, but only as the base of
  /// classes that override the call's virtual method: no object it makes
  /// runs the call, and the constructors are no evidence either.
  bool constructedOnlyOverriding(const SourceFacts &F) const {
    const SourceFacts *Class = Facts.find(F.Owner);
    return Class && !Class->Constructions.empty() &&
           llvm::all_of(Class->Constructions, [&](const auto &Entry) {
             return runsElsewhere(Entry.second);
           });
  }

  /// The field's state over the class's constructions.
  Tally tally(const SourceFacts &F, unsigned Depth) {
    Tally T;
    for (const ConstructionFact *K : constructionsFor(F)) {
      // Evidence found while following arguments belongs to the
      // constructions that leave the field empty, which are named instead.
      std::vector<Evidence> Ignored;
      switch (stateIn(*K, F, Ignored, Depth)) {
      case FieldState::Set:
        T.Set += K->Count;
        break;
      case FieldState::Empty:
        T.Empty += K->Count;
        T.Empties.push_back(K);
        break;
      case FieldState::Unknown:
        T.Unknown += K->Count;
        break;
      case FieldState::Conditional:
        T.Conditional += K->Count;
        break;
      }
    }
    return T;
  }

  /// The argument construction K gives field F: an aggregate's member, or
  /// the constructor's parameter F is set from; null when none.
  const ValueState *argumentFor(const ConstructionFact &K,
                                const SourceFacts &F) {
    if (K.Ctor == ConstructionFact::AggregateInit)
      return F.Index >= 0 && size_t(F.Index) < K.Args.size() ? &K.Args[F.Index]
                                                             : nullptr;
    auto It = F.Constructors.find(K.Ctor);
    if (It == F.Constructors.end() || !It->second.SetsField ||
        It->second.FromParameter < 0 ||
        size_t(It->second.FromParameter) >= K.Args.size())
      return nullptr;
    return &K.Args[It->second.FromParameter];
  }

  /// Names construction K, one that leaves F empty. One that passes on a
  /// value from another source leaves it empty only as that source may be:
  /// the note says so, and the source's evidence follows it.
  void addConstructionNote(const ConstructionFact &K, const SourceFacts &F,
                           std::vector<Evidence> &Why) {
    const SourceFacts *Class = Facts.find(F.Owner);
    StringRef ClassName = Class ? StringRef(Class->Name) : "";
    const ValueState *Arg = argumentFor(K, F);
    if (!Arg || Arg->What != ValueState::From) {
      Why.push_back(
          {constructionLeavesEmptyNote(ClassName, K.CtorName, F.Name,
                                       K.At.Function, K.At.shortText()),
           K.At});
      return;
    }
    Why.push_back(
        {constructionMayLeaveEmptyNote(ClassName, K.CtorName, F.Name,
                                       K.At.Function, K.At.shortText()),
         K.At});
    std::vector<Evidence> Inner;
    judgeValue(*Arg, F.Name, Inner, /*Depth=*/1);
    append_range(Why, Inner);
  }

  /// Whether F's class declares no constructor and gives F no value of its
  /// own: its implicit constructor leaves F to the class's makers.
  static bool onlyImplicitConstructor(const SourceFacts &F) {
    auto It = F.Constructors.find(ConstructionFact::AggregateInit.str());
    return F.Constructors.size() == 1 && It != F.Constructors.end() &&
           !It->second.SetsField;
  }

  /// A field set only after construction (every constructor leaves it
  /// empty, something sets it later), called while the object is being
  /// constructed or destroyed. In the destructor, only when some
  /// construction the project performs is not followed by the set on every
  /// path (T): where each one is, no object reaches its destructor empty.
  /// A class the project constructs nowhere (a library scanned alone) may be
  /// constructed by anyone.
  Emptiness judgeLifecycle(const SourceFacts &F, const Tally &T,
                           std::vector<Evidence> &Why) {
    if (C.During == Candidate::Lifecycle::None || C.LifecycleClass != F.Owner ||
        !F.SetAt.valid() || F.Constructors.empty() ||
        any_of(F.Constructors,
               [](const auto &E) { return E.second.SetsField; }))
      return Emptiness::Unknown;
    // A class without constructors (Constructors holds only AggregateInit)
    // is set at construction by an aggregate initializer that gives the
    // field a value: only constructions that leave it empty are "before".
    for (const ConstructionFact *K : constructionsFor(F)) {
      const ValueState *Arg = K->Ctor == ConstructionFact::AggregateInit
                                  ? argumentFor(*K, F)
                                  : nullptr;
      if (Arg && Arg->What != ValueState::Empty)
        return Emptiness::Unknown;
    }
    bool InDestructor = C.During == Candidate::Lifecycle::Destructor;
    if (InDestructor && T.total() && T.Empties.empty())
      return Emptiness::Unknown;
    // Nor is one the project makes nowhere: its clients may well give the
    // field its value in the initializer.
    if (!T.total() && onlyImplicitConstructor(F))
      return Emptiness::Unknown;
    Why.push_back(
        {setOnlyAfterConstructionNote(F.Name, F.SetAt.Function,
                                      F.SetAt.shortText(), InDestructor),
         F.SetAt});
    if (InDestructor && !T.Empties.empty())
      addConstructionNote(*T.Empties.front(), F, Why);
    return Emptiness::MayBeEmpty;
  }

  /// Empties anywhere in the project, and values from sources that may be
  /// empty assigned to it after construction.
  Emptiness judgeEmpties(const SourceFacts &F, std::vector<Evidence> &Why,
                         unsigned Depth) {
    // A loader's result, which nothing in the project tests (else belief
    // would say so first, with the test's place).
    if (!F.LoadedFrom.empty()) {
      auto First = std::min_element(
          F.LoadedFrom.begin(), F.LoadedFrom.end(),
          [](const auto &A, const auto &B) { return A.second < B.second; });
      Why.push_back({loadedInNote(F.Name, First->first, First->second.Function,
                                  First->second.shortText()),
                     First->second});
      return Emptiness::MayBeEmpty;
    }
    // Emptied somewhere. When nothing outside the constructors sets the
    // field again, an object stays empty from then on, and a later call
    // fails. When something does (a pooled object's reset for reuse, a
    // controller's reset between calls, a list head whose null means
    // "none"), the emptying is one phase of a lifecycle whose next set
    // precedes the calls, and the default mode also needs the project to
    // test the field somewhere (the seed's story); StrictMode reports on
    // the emptying alone.
    const FactLoc *Emptied = emptying(F, Depth);
    if (Emptied && (C.Strict || !F.SetAt.valid() || testedAt(F))) {
      Why.push_back(
          {emptiedInNote(F.Name, Emptied->Function, Emptied->shortText()),
           *Emptied});
      if (!C.Strict && F.SetAt.valid())
        belief(F, Why);
      return Emptiness::MayBeEmpty;
    }
    for (const auto &[Key, At] : F.AssignedFrom) {
      std::vector<Evidence> Inner;
      if (!mayBeEmpty(judge(Key, F.Name, Inner, Depth + 1)))
        continue;
      const SourceFacts *Src = Facts.find(Key);
      Why.push_back({assignedFromNote(F.Name, Src ? Src->Name : Key,
                                      At.Function, At.shortText()),
                     At});
      append_range(Why, Inner);
      return Emptiness::MayBeEmpty;
    }
    return Emptiness::Unknown;
  }

  /// The first place that empties F and counts: one in code that may run
  /// without the project calling it, or in a method that some TU calls. An
  /// emptying only in methods nothing calls (evpp's public `ClearHandler()`,
  /// which no code of the project runs) says nothing about the calls: the
  /// default mode sets it aside, StrictMode counts it.
  const FactLoc *emptying(const SourceFacts &F, unsigned Depth) {
    // The default mode leaves out the emptyings of the calling function
    // itself (Candidate::Function): its flow analysis already judged them.
    // Likewise those of the functions that passed the value by moving out
    // of F, which come after the read (MovedOutIn): a one-shot handler
    // reaches them only in a second run. StrictMode counts both.
    bool OwnSeen = !C.Strict && !C.Function.empty();
    auto Moved = MovedOutAt.find(Depth);
    const std::set<std::string> *MovedOut =
        C.Strict || Moved == MovedOutAt.end() ? nullptr : Moved->second;
    if ((OwnSeen || MovedOut) && !F.EmptiedBy.empty()) {
      const FactLoc *First = nullptr;
      for (const auto &[Fn, At] : F.EmptiedBy) {
        if ((OwnSeen && Fn == C.Function) || (MovedOut && MovedOut->count(Fn)))
          continue;
        if (F.EmptiedIn.count(Fn))
          if (const SourceFacts *M = Facts.find(Fn); !M || !M->Called)
            continue;
        if (!First || At < *First)
          First = &At;
      }
      return First;
    }
    const FactLoc *First = F.EmptiedAt.valid() ? &F.EmptiedAt : nullptr;
    for (const auto &[Method, At] : F.EmptiedIn) {
      const SourceFacts *M = Facts.find(Method);
      if (!C.Strict && (!M || !M->Called))
        continue;
      if (!First || At < *First)
        First = &At;
    }
    return First;
  }

  /// Where a caller's flow analysis proved field Key empty on the object it
  /// hands the calling function (C.Through: a parameter, or a method's own
  /// object): `Ops a{nullptr}; exec(&a);` with exec calling `o->run`. Only
  /// for a call that runs on every path through the function
  /// (C.AlwaysReached), where the caller's state reaches it as it is: under
  /// a condition (a flag, a `switch` on a kind, a loop), the caller may have
  /// chosen a path that does not call it.
  const FactLoc *emptyWherePassed(StringRef Key) {
    if (C.Through.empty() || !C.Via.empty() || !C.AlwaysReached ||
        !C.Guards.empty() || !C.Requires.empty() || !C.Slots.empty() ||
        C.ModeTested)
      return nullptr;
    const SourceFacts *P = Facts.find(C.Through);
    if (!P || !P->Overrides.empty())
      return nullptr;
    auto It = P->PassedFields.find(Key.str());
    return It != P->PassedFields.end() && It->second.EmptyAt.valid()
               ? &It->second.EmptyAt
               : nullptr;
  }

  /// The field's own evidence first (its notes stay as they were); where it
  /// gives none, a caller that passes the object with the field proven
  /// empty decides, whatever the constructions say.
  Emptiness judgeField(StringRef Key, const SourceFacts &F,
                       std::vector<Evidence> &Why, unsigned Depth) {
    Emptiness E = judgeFieldFacts(F, Why, Depth);
    if (E == Emptiness::MayBeEmpty || Depth != 0)
      return E;
    const FactLoc *At = emptyWherePassed(Key);
    if (!At)
      return E;
    const SourceFacts *P = Facts.find(C.Through);
    Why.push_back({passedObjectEmptyNote(P->Name, P->Owner, F.Name,
                                         At->Function, At->shortText()),
                   *At});
    return Emptiness::MayBeEmpty;
  }

  Emptiness judgeFieldFacts(const SourceFacts &F, std::vector<Evidence> &Why,
                            unsigned Depth) {
    // The call runs only where the function tested another state of the
    // object (`if (ptr) del(ptr);`): which constructions, emptyings or tests
    // elsewhere meet that state, the facts do not say. A construction in the
    // calling function, a value emptied on the way, and a loader's result
    // (whose load a test of the object does not check) still decide.
    if (!C.Strict && C.ModeTested && Depth == 0 && !C.EmptyLocally &&
        F.LoadedFrom.empty() &&
        !(C.Construction && C.ConstructedClass == F.Owner))
      return Emptiness::Unknown;
    Tally T = tally(F, Depth);
    if (judgeLifecycle(F, T, Why) == Emptiness::MayBeEmpty)
      return Emptiness::MayBeEmpty;
    // No construction sets it, and nothing sets it afterwards: unless the
    // project hands its objects to code no TU shows, which may.
    if (T.onlyEmpty() && !F.SetAt.valid() && !handedToUnseen(F)) {
      const SourceFacts *Class = Facts.find(F.Owner);
      if (!C.Construction || C.ConstructedClass != F.Owner)
        Why.push_back(
            {neverSetNote(F.Name, Class ? Class->Name : "", T.total(),
                          /*Surely=*/
                          none_of(T.Empties,
                                  [&](const ConstructionFact *K) {
                                    const ValueState *A = argumentFor(*K, F);
                                    return A && A->What == ValueState::From;
                                  })),
             T.Empties.front()->At});
      for (size_t I = 0; I < T.Empties.size() && I < MaxConstructionNotes; ++I)
        addConstructionNote(*T.Empties[I], F, Why);
      return Emptiness::MayBeEmpty;
    }
    if (judgeEmpties(F, Why, Depth) == Emptiness::MayBeEmpty)
      return Emptiness::MayBeEmpty;
    if (!T.total())
      return constructedOnlyOverriding(F) ? Emptiness::Unknown
                                          : judgeByConstructors(F, Why, Depth);
    if (T.allSet())
      return Emptiness::NonEmpty;
    if (!T.Empty && !T.Conditional)
      return belief(F, Why); // Set, or of unknown state.
    if (!C.Strict && Depth == 0 && setWithSiblings(F, Depth))
      return Emptiness::NonEmpty;
    // Per mode: some constructions set it and some do not (or only under a
    // condition the call does not test). Only more evidence ties the call to
    // an empty one; the construction is named either way, for StrictMode.
    if (!T.Empties.empty())
      addConstructionNote(*T.Empties.front(), F, Why);
    return belief(F, Why) == Emptiness::MayBeEmpty ? Emptiness::MayBeEmpty
                                                   : Emptiness::Unknown;
  }

  /// Correlated slots: whether every construction of F's class that agrees
  /// with what the call proves of the object's other slots (C.Slots: `if
  /// (o.a) .. else o.b(..)`, or an object passed that slot `a` makes) sets
  /// F, and one does. Tables fill such slots together (`event_new` with
  /// `event_free`), so per-mode evidence against F does not reach this call.
  /// Only for slots that nothing assigns after construction: an assignment
  /// elsewhere breaks the pairing the constructions show. A correlation is
  /// no proof: StrictMode keeps the construction's note.
  /// Each premise: alternatives (field, set), one of which holds.
  using Premise = std::vector<std::pair<const SourceFacts *, bool>>;

  /// What the call proves of F's object's other slots (C.Slots), over slots
  /// that nothing assigns after construction; none when F itself is emptied
  /// or loaded after it.
  std::vector<Premise> slotPremises(const SourceFacts &F) {
    std::vector<Premise> Premises;
    if (C.Slots.empty() || F.emptiedAnywhere() || !F.LoadedFrom.empty())
      return Premises;
    for (StringRef Atom : C.Slots) {
      Premise P;
      for (StringRef Alt : split(Atom, '|')) {
        const SourceFacts *A = Facts.find(memberOfAtom(Alt));
        if (!A || A == &F || A->Owner != F.Owner || A->SetAt.valid() ||
            A->emptiedAnywhere() || !A->LoadedFrom.empty() ||
            !A->AssignedFrom.empty()) {
          P.clear();
          break;
        }
        P.push_back({A, !Alt.starts_with("!")});
      }
      if (!P.empty())
        Premises.push_back(std::move(P));
    }
    return Premises;
  }

  bool setWithSiblings(const SourceFacts &F, unsigned Depth) {
    std::vector<Premise> Premises = slotPremises(F);
    if (Premises.empty())
      return false;
    bool Agrees = false;
    std::vector<Evidence> Ignored;
    for (const ConstructionFact *K : constructionsFor(F)) {
      bool Consistent = all_of(Premises, [&](const Premise &P) {
        return any_of(P, [&](const auto &Alt) {
          FieldState S = stateIn(*K, *Alt.first, Ignored, Depth);
          return Alt.second ? S != FieldState::Empty : S != FieldState::Set;
        });
      });
      if (!Consistent)
        continue;
      if (stateIn(*K, F, Ignored, Depth) != FieldState::Set)
        return false;
      Agrees = true;
    }
    return Agrees;
  }

  /// The rule when the project constructs the class nowhere (a library
  /// scanned alone): the constructors it has decide. Not when TUs are
  /// missing from the facts: their constructions may be the ones that
  /// count.
  Emptiness judgeByConstructors(const SourceFacts &F,
                                std::vector<Evidence> &Why, unsigned Depth) {
    if (Facts.missingTUs())
      return belief(F, Why);
    // The implicit constructor of a class without constructors leaves the
    // field to whoever makes the object (an aggregate's initializer, the
    // client's set-up): with no construction to read, it says nothing.
    if (onlyImplicitConstructor(F))
      return belief(F, Why);
    // Correlated slots, by the constructors: `if (o.a) o.a(x); else
    // o.b(x);` runs `b` only on objects whose constructor left `a` empty.
    // A constructor that sets `a` (outright, or from its parameter, which
    // no construction here shows empty) made no object this call meets.
    // A correlation, as with constructions: not in StrictMode.
    std::vector<Premise> Premises;
    if (!C.Strict && Depth == 0)
      Premises = slotPremises(F);
    auto Meets = [&](StringRef Ctor) {
      return all_of(Premises, [&](const Premise &P) {
        return any_of(P, [&](const auto &Alt) {
          auto It = Alt.first->Constructors.find(Ctor.str());
          if (It == Alt.first->Constructors.end())
            return true;
          bool Set = It->second.SetsField && It->second.Condition.empty();
          return Alt.second ? It->second.SetsField : !Set;
        });
      });
    };
    auto Unset = find_if(F.Constructors, [&](const auto &Entry) {
      const CtorFact &Ctor = Entry.second;
      return (!Ctor.SetsField ||
              (!Ctor.Condition.empty() && !holds(Ctor.Condition))) &&
             Meets(Entry.first);
    });
    bool AllSet = Unset == F.Constructors.end();
    // Only where some constructor the premises admit sets the field.
    if (AllSet && !Premises.empty() &&
        none_of(F.Constructors, [&](const auto &Entry) {
          return Entry.second.SetsField && Meets(Entry.first);
        }))
      return belief(F, Why);
    // Set from outside (two-phase setup, a setter), or asserted set where
    // the objects come in (imgui's `AddContextHook` asserts the hook's
    // callback): a constructor that leaves it empty says nothing about the
    // objects that are called.
    if (!AllSet && !F.SetAt.valid() && !asserted(F)) {
      const CtorFact &Ctor = Unset->second;
      Why.push_back(
          {Ctor.SetsField
               ? setOnlyWhenNote(F.Name, Ctor.Name, Ctor.ConditionText,
                                 Ctor.Loc.shortText())
               : notSetByConstructorNote(F.Name, Ctor.Name,
                                         Ctor.Loc.shortText()),
           Ctor.Loc});
      return Emptiness::MayBeEmpty;
    }
    // Set by every constructor and never emptied: not a source, even if
    // some code tests it defensively.
    if (!F.Constructors.empty() && AllSet)
      return Emptiness::NonEmpty;
    return belief(F, Why);
  }

  /// The first call that passes an empty value and can reach the use: its
  /// literal flags do not contradict what the use requires.
  static const FactLoc *reachingEmpty(const ArgFacts &Args,
                                      const FlagValues &Required) {
    const FactLoc *First = nullptr;
    for (const auto &[Passed, At] : Args.EmptyWith) {
      std::optional<FlagValues> V = FlagValues::parse(Passed);
      if ((!V || V->compatible(Required)) && (!First || At < *First))
        First = &At;
    }
    // Facts made by hand may count empties without their contexts.
    if (!First && Args.Empty && Args.EmptyWith.empty())
      First = &Args.EmptyAt;
    return First;
  }

  /// The values a parameter is passed, or a container part is given, from
  /// other sources (Args.From), each under the flags its call passes: at the
  /// first that may be empty, MayBeEmpty with the note NoteFor writes (from
  /// that source's name and where it is handed on) and that source's own
  /// evidence; else NonEmpty when every one is set, Unknown otherwise.
  Emptiness
  judgeFrom(const ArgFacts &Args, StringRef Name, unsigned Depth,
            std::vector<Evidence> &Why,
            function_ref<std::string(StringRef, const FactLoc &)> NoteFor) {
    Emptiness All = Emptiness::NonEmpty;
    for (const auto &[Key, At] : Args.From) {
      std::vector<Evidence> Inner;
      auto When = Args.FromWhen.find(Key);
      std::optional<FlagValues> Next = When == Args.FromWhen.end()
                                           ? FlagValues()
                                           : FlagValues::parse(When->second);
      // Where the calls move out of the source, its emptyings in their own
      // functions come after the read (ArgFacts::MovedOutIn).
      auto Moved = Args.MovedOutIn.find(Key);
      MovedOutAt[Depth + 1] =
          Moved == Args.MovedOutIn.end() ? nullptr : &Moved->second;
      Emptiness E =
          judge(Key, Name, Inner, Depth + 1, Next.value_or(FlagValues()));
      MovedOutAt.erase(Depth + 1);
      if (mayBeEmpty(E)) {
        const SourceFacts *Src = Facts.find(Key);
        Why.push_back(
            {NoteFor(Src ? StringRef(Src->Name) : StringRef(Key), At), At});
        append_range(Why, Inner);
        return Emptiness::MayBeEmpty;
      }
      if (E != Emptiness::NonEmpty)
        All = Emptiness::Unknown;
    }
    return All;
  }

  Emptiness judgeParameter(const SourceFacts &P, std::vector<Evidence> &Why,
                           unsigned Depth, const FlagValues &Required) {
    // Calls through the methods it overrides dispatch here too.
    ArgFacts Args = P.Args;
    for (const std::string &O : P.Overrides)
      if (const SourceFacts *Base = Facts.find(O))
        Args.merge(Base->Args);
    if (const FactLoc *EmptyAt = reachingEmpty(Args, Required)) {
      Why.push_back(
          {Args.SiblingMoves.count(*EmptyAt)
               ? passedMovedBySiblingNote(P.Name, P.Owner, EmptyAt->Function,
                                          EmptyAt->shortText())
               : passedEmptyNote(P.Name, P.Owner, EmptyAt->Function,
                                 EmptyAt->shortText()),
           *EmptyAt});
      return Emptiness::MayBeEmpty;
    }
    Emptiness From = judgeFrom(
        Args, P.Name, Depth, Why, [&](StringRef Src, const FactLoc &At) {
          return passedFromNote(P.Name, P.Owner, Src, At.Function,
                                At.shortText());
        });
    if (From == Emptiness::MayBeEmpty)
      return From;
    bool AllSet =
        (Args.Set || !Args.From.empty()) && From == Emptiness::NonEmpty;
    // Every call sets it: that wins over a defensive test.
    if (AllSet && !Args.Unknown)
      return Emptiness::NonEmpty;
    return belief(P, Why);
  }

  /// A part of a container's elements: what the project's writes store
  /// there, as for a parameter what the calls pass.
  Emptiness judgeElement(const SourceFacts &S, std::vector<Evidence> &Why,
                         unsigned Depth) {
    const ArgFacts &Stores = S.Args;
    if (Stores.EmptyAt.valid()) {
      Why.push_back({storedEmptyNote(S.Name, Stores.EmptyAt.Function,
                                     Stores.EmptyAt.shortText()),
                     Stores.EmptyAt});
      return Emptiness::MayBeEmpty;
    }
    Emptiness From = judgeFrom(
        Stores, S.Name, Depth, Why, [&](StringRef Src, const FactLoc &At) {
          return storedFromNote(S.Name, Src, At.Function, At.shortText());
        });
    if (From == Emptiness::MayBeEmpty)
      return From;
    bool AllSet =
        (Stores.Set || !Stores.From.empty()) && From == Emptiness::NonEmpty;
    if (AllSet && !Stores.Unknown)
      return Emptiness::NonEmpty;
    return belief(S, Why);
  }

  const ProjectFacts &Facts;
  const Candidate &C;
  const Regex &PolicyNames;
  /// Keys being judged, to cut cycles (a parameter passed on to itself).
  StringSet<> Visiting;
  /// By depth, the functions whose emptyings of the source judged there
  /// are set aside: those that passed its value by moving out of it
  /// (judgeFrom, emptying).
  std::map<unsigned, const std::set<std::string> *> MovedOutAt;
};

/// The keys S's judgement may consult.
void referencedKeys(const SourceFacts &S, std::vector<std::string> &Out) {
  if (!S.Owner.empty() && S.Kind == SourceKind::Field)
    Out.push_back(S.Owner);
  for (const auto &Entry : S.Args.From)
    Out.push_back(Entry.first);
  for (const auto &Entry : S.AssignedFrom)
    Out.push_back(Entry.first);
  for (const auto &Entry : S.EmptiedIn)
    Out.push_back(Entry.first);
  append_range(Out, S.Overrides);
  for (const auto &Entry : S.Constructions)
    for (const ValueState &V : Entry.second.Args)
      append_range(Out, V.Keys);
  for (const auto &Entry : S.Constructors)
    for (StringRef Atom : split(Entry.second.Condition, '&'))
      Out.push_back(memberOfAtom(Atom).str());
  append_range(Out, S.NeverReturnsIf);
  for (const auto &Entry : S.TestedUnless)
    Out.push_back(Entry.first.Function);
  for (const auto &Entry : S.PassedFields)
    for (const auto &Set : Entry.second.SetIf)
      for (const AssumedEffect &A : Set.first)
        Out.push_back(A.Method);
}

} // namespace

ProjectFacts relevantFacts(ArrayRef<const ProjectFacts *> From,
                           ArrayRef<Candidate> Cs) {
  std::vector<std::string> Work;
  for (const Candidate &C : Cs) {
    append_range(Work, C.Keys);
    for (StringRef G : C.Guards)
      Work.push_back(memberOfAtom(G).str());
    for (StringRef F : C.Flags)
      Work.push_back(flagAtomParts(F).first.str());
    for (StringRef S : C.Slots)
      for (StringRef Alt : split(S, '|'))
        Work.push_back(memberOfAtom(Alt).str());
    if (C.Construction)
      for (const ValueState &V : C.Construction->Args)
        append_range(Work, V.Keys);
    Work.push_back(C.Through);
    append_range(Work, C.Exits);
    for (const AssumedAssertion &A : C.Assertions)
      Work.push_back(A.Function);
    for (const AssumedEffect &G : C.Getters)
      Work.push_back(G.Method);
  }
  ProjectFacts Out;
  for (const ProjectFacts *F : From)
    if (F)
      Out.noteMissingTUs(F->missingTUs());
  StringSet<> Seen;
  while (!Work.empty()) {
    std::string Key = Work.back();
    Work.pop_back();
    if (Key.empty() || !Seen.insert(Key).second)
      continue;
    for (const ProjectFacts *F : From)
      if (const SourceFacts *S = F ? F->find(Key) : nullptr) {
        Out.get(Key, S->Kind, S->Name).merge(*S);
        referencedKeys(*S, Work);
      }
  }
  return Out;
}

/// Whether every call of the function that the project makes passes, for
/// the parameter C's callable is read through, an object whose field the
/// caller proved set (`if (q->f) run(q);`). A function reached through
/// the methods it overrides has calls the facts do not count.
static bool guardedByEveryCaller(const ProjectFacts &Facts,
                                 const Candidate &C) {
  const SourceFacts *P = C.Through.empty() ? nullptr : Facts.find(C.Through);
  if (!P || !P->Overrides.empty())
    return false;
  return all_of(C.Keys, [&](const std::string &Key) {
    auto It = P->PassedFields.find(passedFieldKey(C.Via, Key));
    return It != P->PassedFields.end() && It->second.Calls > 0 &&
           Facts.provedSet(It->second) == It->second.Calls;
  });
}

Resolution resolve(const ProjectFacts &Facts, const Candidate &C,
                   const Regex &PolicyNames) {
  Resolution R;
  // A call behind a function that never returns (defined in another TU)
  // cannot be reached with an empty value, in every mode: it is dead code.
  // So is one behind an assertion function that returns only when what it
  // was handed holds. A call whose callable a test of the same getter's
  // result guards, the getter returning the field (defined in another TU),
  // is guarded.
  if (any_of(C.Exits,
             [&](const std::string &K) { return Facts.neverReturns(K); }) ||
      any_of(
          C.Assertions,
          [&](const AssumedAssertion &A) { return Facts.returnsOnlyIf(A); }) ||
      any_of(C.Getters,
             [&](const AssumedEffect &G) { return Facts.effectHolds(G); }))
    return R;
  if (C.Decided) {
    R.Report = true;
    return R;
  }
  if (!C.Strict && guardedByEveryCaller(Facts, C))
    return R;
  Resolver Judge(Facts, C, PolicyNames);
  // The candidate's parameter keys are its own function's.
  FlagValues Required = FlagValues::parse(C.Requires).value_or(FlagValues());
  bool AnyMayBeEmpty = false, AllJudged = true;
  for (const std::string &Key : C.Keys) {
    std::vector<Evidence> Why;
    Emptiness E = Judge.judge(Key, C.Name, Why, 0, Required);
    AllJudged &= E != Emptiness::Unknown;
    AnyMayBeEmpty |= mayBeEmpty(E);
    // StrictMode names whatever evidence there is, also where it does not
    // suffice on its own.
    if (mayBeEmpty(E) || C.Strict)
      append_range(R.Notes, Why);
  }
  // StrictMode reports every call of unknown origin, whatever the facts.
  R.Report = C.Strict || (AllJudged && (AnyMayBeEmpty || C.EmptyLocally));
  if (!R.Report)
    R.Notes.clear();
  return R;
}

Resolution resolve(const ProjectFacts &Facts, const Candidate &C) {
  return resolve(Facts, C, Regex(C.PolicyNames, Regex::IgnoreCase));
}

} // namespace wrapguard
