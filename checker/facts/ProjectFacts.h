//===- ProjectFacts.h - Project-wide evidence on sources -*- C++ -*-===//
//
// What the whole project says about each *source* of nullable callables: a
// function or method returning one, a field holding one, a parameter of a
// function. Facts are keyed by USR-based strings, so the facts of separate
// translation units merge into one picture; the merge is commutative, which
// keeps results independent of scheduling and sharding.
//
// A call whose callable came only from sources the TU cannot judge is a
// *candidate*; `resolve` decides it against the merged facts. Nothing here
// depends on Clang's AST: the scanner's merge step uses it on facts and
// candidates read back from files.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_FACTS_PROJECTFACTS_H
#define WRAPGUARD_FACTS_PROJECTFACTS_H

#include "Emptiness.h"
#include "FlagValues.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace wrapguard {

/// Where a piece of evidence is. Line and Column are 1-based; Offset is the
/// byte offset in File, for tools that point at it (SARIF, clang-tidy notes).
struct FactLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned Offset = 0;
  /// The enclosing function, for messages ("checked in 'run_epoch'").
  std::string Function;

  bool valid() const { return !File.empty(); }
  /// "file.cpp:41": the file's last component, as messages show it.
  std::string shortText() const;
};
bool operator<(const FactLoc &A, const FactLoc &B);
/// Keeps the smaller of two locations, an invalid one counting as largest, so
/// the location a merge keeps does not depend on the order of the merge.
void keepFirst(FactLoc &Mine, const FactLoc &Theirs);
llvm::json::Value factLocToJSON(const FactLoc &L);
/// Reads a location written by factLocToJSON; true when V is null (absent)
/// or a valid location.
bool factLocFromJSON(const llvm::json::Value *V, FactLoc &L);
bool operator==(const FactLoc &A, const FactLoc &B);

/// Two sets of definitions of one function taken together (std::nullopt:
/// none seen, the unit of the join).
std::optional<Emptiness> joinDefinitions(std::optional<Emptiness> A,
                                         std::optional<Emptiness> B);

enum class SourceKind {
  Function,  ///< `f:<USR>`: what a function returns.
  Field,     ///< `m:<USR>`: what a field holds.
  Parameter, ///< `p:<USR of the function>#<index>`: what callers pass.
  Class,     ///< `c:<USR>`: how the project constructs a class.
  Global,    ///< `g:<USR>`: what a global variable or static member holds.
  /// `e:<USR of a container field or global>#<part>`: what the project
  /// stores in the container's elements (ContainerElements.h).
  Element,
};
llvm::StringRef toString(SourceKind K);

/// What a value is where it is passed or stored, as far as the syntax at
/// that place tells: set (a lambda, a function, an address), empty on some
/// path (`nullptr`, `{}`, a default-constructed or moved-from value), of
/// unknown origin, or a value from other sources (a parameter of the
/// function that passes it, a function's result, a field) whose facts
/// decide it.
struct ValueState {
  enum Kind { NotCallable, Set, Empty, Unknown, From };
  Kind What = Unknown;
  /// With From: every source the value may come from.
  std::vector<std::string> Keys;

  static ValueState of(Kind K) { return ValueState{K, {}}; }
  /// "-", "set", "empty", "unknown" or "from(KEY;KEY)": also the JSON form.
  std::string text() const;
  static std::optional<ValueState> parse(llvm::StringRef Text);
  bool operator==(const ValueState &O) const {
    return What == O.What && Keys == O.Keys;
  }
};

/// What one constructor does with one field.
struct CtorFact {
  std::string Name; ///< "Layer(int, int)".
  bool SetsField = false;
  /// The field is initialised from this parameter of the constructor
  /// (SetsField is then true): the argument of each construction decides.
  int FromParameter = -1;
  /// The field is set only when this condition holds (atoms joined by `&`,
  /// see Candidate::Guards); empty when unconditional. ConditionText is how
  /// the source spells it, for the note.
  std::string Condition;
  std::string ConditionText;
  FactLoc Loc;
};

/// Constructions of one class with one constructor and the same argument
/// states: `Backend(&p, [..]{}, nullptr)`, `std::make_shared<Backend>(..)`,
/// `new Backend(..)`, an aggregate `Options{f}`, a static interface table.
struct ConstructionFact {
  /// The constructor's function key, or AggregateInit for an aggregate.
  std::string Ctor;
  std::string CtorName; ///< "Backend(ConvP *, Fn, Fn)", "Options{}".
  /// Per parameter of the constructor (an aggregate: per field), the state
  /// of the argument; NotCallable for the others.
  std::vector<ValueState> Args;
  unsigned Count = 0;
  FactLoc At; ///< The first, in (file, offset) order.
  /// The callable fields (by index in the class) that the function making
  /// the object sets on it, non-empty, on every path from the construction
  /// to the function's exit: a factory's two-phase set-up
  /// (`auto r = std::make_unique<R>(); r->release = f; return r;`). Sorted.
  std::vector<unsigned> SetAfter;
  /// For the base subobject of an object of a derived class: the base's
  /// virtual methods (function keys, sorted) that the derived class
  /// overrides without calling the base's version. A virtual call of one
  /// never runs the base's method on this object (nlopt's `MyGlobal`, whose
  /// `ObjectiveGradient` replaces `Global`'s). Part of the signature.
  std::vector<std::string> Overridden;

  static constexpr llvm::StringLiteral AggregateInit = "aggregate";
  /// The identity of the group: the constructor and the argument states.
  std::string signature() const;
};

/// What the calls of a function pass to one of its parameters.
struct ArgFacts {
  unsigned Set = 0, Empty = 0, Unknown = 0;
  FactLoc EmptyAt; ///< The first call that passes a value empty on some path.
  /// The calls that pass an empty value, by the literals they pass to the
  /// function's boolean parameters (FlagValues::text(), "" for none): the
  /// first call of each. A call whose literals contradict what the use of
  /// the parameter requires cannot reach it.
  std::map<std::string, FactLoc> EmptyWith;
  /// The calls among those that pass an empty value where the value is
  /// empty only if another argument of the same call, which moves from it,
  /// is evaluated first (JSON `siblingMoves`): their notes say so.
  std::set<FactLoc> SiblingMoves;
  /// Values from other sources, with the first call that passes each.
  std::map<std::string, FactLoc> From;
  /// For a value from a parameter of the calling function, what every call
  /// that passes it requires of that function's boolean parameters
  /// (`if (reduce) run(f);`: "4=1"); absent when nothing.
  std::map<std::string, std::string> FromWhen;
  /// Sources of From that a call passes by moving out of them, with the
  /// functions (their keys) where it does: `m_handler(a,
  /// std::move(m_underlying))` passes what the member held and empties it
  /// by the same expression, after the read. In the default mode, that
  /// function's emptyings of the source are no evidence about the value it
  /// passes (Resolve.cpp): its flow analysis saw none reach the read.
  std::map<std::string, std::set<std::string>> MovedOutIn;

  bool empty() const { return !Set && !Empty && !Unknown && From.empty(); }
  /// One call that passes a value a sibling argument moves from: an empty
  /// value (add) whose note names the move.
  void addSiblingMove(const FactLoc &At, const FlagValues &Passed);
  /// One call: Passed, the literals it gives the callee's flags; Required,
  /// what its place requires of the caller's own flags (for a value from
  /// one of the caller's parameters).
  void add(const ValueState &V, const FactLoc &At,
           const FlagValues &Passed = {}, const FlagValues &Required = {});
  void merge(const ArgFacts &Other);
};

/// What a caller's analysis assumed of a method its TU saw without a
/// definition (MethodsElsewhere.h): that it copies its parameter From into
/// the callable field Field of its object, or (From == TestsField) that its
/// result is the test that Field is set. The facts of the TU that defines
/// the method say whether it does (ProjectFacts::effectHolds).
/// With From == CallersSet, Method is instead a parameter of the calling
/// function (`p:<USR>#<index>`, or `p:<USR>#this` for a method's object):
/// the call hands that object on as the caller received it (`read_field(..)`
/// in a `parse_field` that writes nothing of `*this`), so it passes Field
/// set where every call of the caller does.
/// With From == ReturnsField, that its result is Field of its object, by
/// reference or as a copy (a getter, `Cb cb() const { return m_cb; }`):
/// a candidate's assumption (Candidate::Getters), never a passed field's.
struct AssumedEffect {
  static constexpr int TestsField = -1;
  static constexpr int CallersSet = -2;
  static constexpr int ReturnsField = -3;
  std::string Method;
  std::string Field;
  int From = TestsField;
  bool operator<(const AssumedEffect &O) const {
    return std::tie(Method, Field, From) < std::tie(O.Method, O.Field, O.From);
  }
  bool operator==(const AssumedEffect &O) const {
    return std::tie(Method, Field, From) == std::tie(O.Method, O.Field, O.From);
  }
};

/// A function that a TU saw without its definition, taken to be an
/// assertion function: it returns only when its parameter Parameter is true
/// (Candidate::Assertions; the facts decide, ProjectFacts::returnsOnlyIf).
struct AssumedAssertion {
  std::string Function;
  unsigned Parameter = 0;
  bool operator==(const AssumedAssertion &O) const {
    return Function == O.Function && Parameter == O.Parameter;
  }
  bool operator<(const AssumedAssertion &O) const {
    return std::tie(Function, Parameter) < std::tie(O.Function, O.Parameter);
  }
};

/// What the calls of a function pass for one callable field of the object
/// that one of its parameters points or refers to (`run(q)`, then `q->f`).
struct PassedFieldFacts {
  unsigned Calls = 0;
  /// Calls where the flow analysis of the caller proved the field set.
  unsigned Set = 0;
  FactLoc UnsetAt; ///< The first call that did not prove it.
  /// The first call where the flow analysis of the caller proved the field
  /// empty (`Timer t(nullptr); t.start();`).
  FactLoc EmptyAt;
  /// Calls that proved it set only with effects assumed of methods defined
  /// in other TUs (`ws->setOnMessageCallback(lambda); ws->run();`), counted
  /// per set of assumptions, sorted.
  std::map<std::vector<AssumedEffect>, unsigned> SetIf;
  void merge(const PassedFieldFacts &Other);
};

/// The key of SourceFacts::PassedFields for callable field Field of the
/// object, or, with Via, of the object its pointer member Via points to
/// (Candidate::Via).
std::string passedFieldKey(llvm::StringRef Via, llvm::StringRef Field);

struct SourceFacts {
  SourceKind Kind = SourceKind::Function;
  /// Qualified name of the function, field, global or class; a parameter's
  /// own name.
  std::string Name;
  /// A parameter's function, qualified; a field's class key (`c:...`).
  std::string Owner;

  // Functions: what the visible definitions say about the returns (for a
  // virtual method, the join over the overrides seen); none when no
  // definition was seen, Unknown when one was but its returns could not be
  // judged.
  std::optional<Emptiness> Definition;
  FactLoc EmptyReturn; ///< A return that may yield an empty callable.
  /// Functions: a definition seen never returns (NeverReturns.h), by its
  /// body alone...
  bool NeverReturns = false;
  /// ...or never returns provided that every one of these functions, which
  /// its TU saw without a definition, never returns either (a logger that
  /// calls the project's `fatal`, defined in another TU). Sorted keys.
  std::vector<std::string> NeverReturnsIf;
  /// Functions: the parameter a definition seen returns only when it is
  /// true (an assertion function, NeverReturns::returnsOnlyIf), by its body
  /// and what its TU sees: past a call in another TU, the argument holds.
  std::optional<unsigned> ReturnsOnlyIf;
  /// ...and the one without which it ends the process (it aborts or exits,
  /// where ReturnsOnlyIf also counts a throw): what makes a test handed to
  /// it an assertion rather than belief (TestedUnless).
  std::optional<unsigned> EndsProcessUnless;
  /// Methods defined out of line: the callable fields of their object that
  /// a call leaves exactly as non-empty as one of its parameters (by index),
  /// the one whose test their `bool` result is, and the one they return
  /// (a getter, PolicySummaries::fieldReturned), each by the flow analysis
  /// or the body of the definition (ExitEffects.h, AccessorTests.h). What
  /// other TUs' assumptions are checked against.
  std::map<std::string, int> CopiesFields;
  std::string TestsField;
  std::string ReturnsField;
  /// Methods that run only where the project calls them (those EmptiedIn
  /// names): some TU calls one or takes its address.
  bool Called = false;

  // Belief: uses that test a value from this source for emptiness, and
  // calls through one with no test on the way.
  unsigned Tested = 0;
  unsigned Untested = 0;
  FactLoc TestedAt; ///< The first tested use, in (file, offset) order.
  /// The first assertion that a value from this source is set (`assert(f)`,
  /// a test whose empty branch ends the process): no belief, but for a
  /// field, the project's statement that whoever makes the object sets it.
  FactLoc AssertedAt;
  /// Tests handed to a function that their TU saw without a definition, as
  /// the argument it would take a condition in (`Assert(h.cb != nullptr,
  /// "..")`, with `Assert` defined in another TU), by that function and
  /// parameter, the first place of each. Belief unless the function's
  /// definition ends the process without that argument
  /// (ProjectFacts::endsProcessUnless); then an assertion, as AssertedAt.
  std::map<AssumedAssertion, FactLoc> TestedUnless;

  // Fields: each constructor seen (by its function key), and one place that
  // empties it in code that may run without the project calling it (a free
  // function, a virtual method, a lambda)... Globals have the members from
  // EmptiedAt to AssignedFrom too: a global is a field of no object, set by
  // its initializer as a field is by its constructors.
  std::map<std::string, CtorFact> Constructors;
  FactLoc EmptiedAt;
  /// ...and, per method that runs only where the project calls it
  /// (`void ClearHandler() { handler_ = nullptr; }`), the first place it
  /// empties the field. Such an emptying is evidence in the default mode
  /// only where some TU calls the method (Called): an emptying nothing runs
  /// says nothing about the calls.
  std::map<std::string, FactLoc> EmptiedIn;
  /// Every emptying above, by the function it is in (its `f:` key, "" for
  /// one without a key), the first place in each: a call is judged without
  /// the emptyings of its own function, whose flow analysis saw them
  /// (Candidate::Function).
  std::map<std::string, FactLoc> EmptiedBy;
  bool emptiedAnywhere() const {
    return EmptiedAt.valid() || !EmptiedIn.empty();
  }
  /// Assignments of a run-time loader's result (`api.init =
  /// (init_fn)dlsym(h, "init");`), null when the symbol is missing: by the
  /// loader's name, the first place.
  std::map<std::string, FactLoc> LoadedFrom;
  /// A non-empty assignment outside the class's constructors (a setter, or
  /// the creator filling in a two-phase object).
  FactLoc SetAt;
  /// Sources that such assignments copy from (`cb_ = f;` in a setter whose
  /// parameter is f), with the first place.
  std::map<std::string, FactLoc> AssignedFrom;
  /// The field's position in its class, for aggregate constructions.
  int Index = -1;
  /// A field that is not a callable but that a condition tests: where it is
  /// assigned outside the class's constructors (then it is no invariant).
  FactLoc ChangedAt;
  /// A flag (a `bool` member, or a bitset-like member's bits): per value a
  /// write sets ("" for a `bool` set true, "N" for bit N, "*" for any bit),
  /// the callable sources that every such write in the project proves
  /// non-empty where it runs (`if (buf->cb) v->flags.set(IsCallback);`,
  /// `has_cb = cb != nullptr;`): the flag, where a call tests it, vouches for
  /// them (Candidate::Flags). A write that proves none leaves the set empty.
  /// JSON `vouches`; the merge intersects the sets of a value.
  std::map<std::string, std::set<std::string>> Vouches;
  /// One write of Value that proves Keys non-empty.
  void noteFlagSet(llvm::StringRef Value, std::set<std::string> Keys);

  // Parameters: what the calls pass, and the parameters of the methods the
  // function overrides (whose calls dispatch here too). Elements: what the
  // writes store, counted the same way.
  ArgFacts Args;
  std::vector<std::string> Overrides;
  /// A parameter that points or refers to an object with callable fields:
  /// per field (its key), what the calls pass.
  std::map<std::string, PassedFieldFacts> PassedFields;

  // Classes: how the project constructs them, by signature.
  std::map<std::string, ConstructionFact> Constructions;
  /// Classes: calls through function pointers given a pointer or a
  /// non-const reference to an object of the class (or to one holding it as
  /// a member or base), by the pointer's signature (`int(Plugin *)`), the
  /// first place of each; and the signatures of the project's functions
  /// whose address some TU takes (what such a pointer may call) that take
  /// one so. A signature handed through that no such function has calls
  /// code no TU shows (a plugin's
  /// registration function found with `dlsym`, `regfcn(&plugin)`), which
  /// may set the fields where no fact records it (handedToUnseen).
  std::map<std::string, FactLoc> HandedThrough;
  std::set<std::string> DefinedWith;
  bool handedToUnseen() const {
    return llvm::any_of(HandedThrough, [&](const auto &Entry) {
      return !DefinedWith.count(Entry.first);
    });
  }

  void merge(const SourceFacts &Other);
};

class ProjectFacts {
public:
  /// The facts of Key, created with Kind and Name when new.
  SourceFacts &get(llvm::StringRef Key, SourceKind Kind, llvm::StringRef Name);
  const SourceFacts *find(llvm::StringRef Key) const;
  void merge(const ProjectFacts &Other);
  /// The same, taking Other's sources where they are new here (the scanner's
  /// merge of TUs it no longer needs).
  void merge(ProjectFacts &&Other);
  /// Whether no call of the function Key returns, by its definition
  /// somewhere in the project: NeverReturns, or NeverReturnsIf with every
  /// function named there never returning (followed to a bounded depth,
  /// cycles cut).
  bool neverReturns(llvm::StringRef Key) const;
  /// Whether the function Key, by its definition somewhere in the
  /// project, returns only when its parameter Parameter is true.
  bool returnsOnlyIf(const AssumedAssertion &A) const;
  /// Whether it ends the process unless that parameter is true (a throw
  /// does not count: its caller may go on).
  bool endsProcessUnless(const AssumedAssertion &A) const;
  /// Whether the definition of A.Method, seen by some TU, has the effect
  /// that A assumes; for CallersSet, whether every call of the caller
  /// passes the field set (Depth: the callers followed so far).
  bool effectHolds(const AssumedEffect &A, unsigned Depth = 0) const;
  /// The calls of F that proved its field set, with those whose
  /// assumptions hold.
  unsigned provedSet(const PassedFieldFacts &F, unsigned Depth = 0) const;
  bool empty() const { return Sources.empty(); }
  size_t size() const { return Sources.size(); }
  const std::map<std::string, SourceFacts> &sources() const { return Sources; }

  /// The versioned, documented format of docs/checks/unchecked-policy-call.md.
  llvm::json::Value toJSON() const;
  static llvm::Expected<ProjectFacts> fromJSON(const llvm::json::Value &V);
  static llvm::Expected<ProjectFacts> readFile(llvm::StringRef Path);
  llvm::Error writeFile(llvm::StringRef Path) const;

  static constexpr unsigned FormatVersion = 4;

  /// TUs of the project whose facts are missing: they did not parse, or
  /// their scan crashed. Evidence that rests on something being absent from
  /// the project (no construction of a class anywhere) is then not used.
  /// JSON: "missingTUs", left out when 0; merged by sum.
  unsigned missingTUs() const { return MissingTUs; }
  void noteMissingTUs(unsigned N) { MissingTUs += N; }

private:
  std::map<std::string, SourceFacts> Sources;
  unsigned MissingTUs = 0;
};

/// A call through a callable that may be empty on some path, whose value came
/// only from sources the TU could not judge.
struct Candidate {
  /// The callable as spelled at the call ("f", "hooks.after_step").
  std::string Name;
  /// Every source the value may come from; all must be judged.
  std::vector<std::string> Keys;
  /// Some path makes the value empty locally (e.g. `Fn f = nullptr;`), so a
  /// source that is merely known, not only one that may be empty, suffices.
  bool EmptyLocally = false;
  /// The PolicyNames option in force where the call is.
  std::string PolicyNames;
  /// Conditions that hold at the call (the enclosing `if`s and the early
  /// exits before it), as atoms: `m:<USR>` (a member flag is true), `!m:<USR>`
  /// (false), `m:<USR>==VALUE`, `m:<USR>!=VALUE`. A field its constructor
  /// sets under one of them, kept in a member nothing changes afterwards,
  /// is set here.
  std::vector<std::string> Guards;
  /// Flags of any object that are true at the call (`if (v.flags.test(K))`,
  /// `if (o->ready)`), as flag atoms (flagAtom): a flag that the project
  /// sets only where a source of the callable is non-empty vouches for that
  /// source here, in the default mode (SourceFacts::Vouches).
  std::vector<std::string> Flags;
  /// When the callable is a field of a record (a slot of an interface
  /// table), what holds at the call of the same object's other callable
  /// fields: `m:<USR>` (set), `!m:<USR>` (empty), from a test on the way
  /// (`else` of `if (o.a)`), or `m:<USR>|m:<USR>` (one of them set), from
  /// an object passed that those slots make (analysis/SiblingSlots.h). Where
  /// every construction of the class that agrees with them sets the called
  /// field, it is set here.
  std::vector<std::string> Slots;
  /// When the callable is a field of an object constructed in the same
  /// function, that construction (of the class ConstructedClass, a `c:`
  /// key): it decides the class's fields, whatever its other constructions
  /// do.
  std::optional<ConstructionFact> Construction;
  std::string ConstructedClass;
  /// The call runs in a constructor or the destructor of LifecycleClass and
  /// calls through one of that object's own fields: a field set only after
  /// construction is empty there.
  enum class Lifecycle { None, Constructor, Destructor };
  Lifecycle During = Lifecycle::None;
  std::string LifecycleClass;
  /// The call runs in this virtual method (an `f:` key) of the field's own
  /// class, through a field of `*this`: a construction of the class as the
  /// base of a class that overrides the method (ConstructionFact::
  /// Overridden) makes no object it runs on.
  std::string VirtualMethod;
  /// The function the call is in (an `f:` key), when nothing in it before
  /// the call may write the called storage and no loop holds the call: its
  /// own emptyings of the source then come after the call (`cb_(x); cb_ =
  /// nullptr;`, a one-shot callback) and reach it only in another run on the
  /// same object, which nothing shows. They are no evidence against it.
  std::string Function;
  /// The callable is a field of the object that this parameter (a `p:`
  /// key) of the calling function points or refers to, and the function
  /// does not assign the parameter: the callers may have tested the field
  /// (SourceFacts::PassedFields).
  std::string Through;
  /// With Through: the callable is a field of the object that this pointer
  /// member (an `m:` key) of Through's object points to (`priv.task->step`
  /// with `priv` the parameter), and the function writes no such member.
  std::string Via;
  /// What every path to the call requires of the calling function's
  /// boolean parameters (FlagValues::text()): the calls that pass its
  /// parameters empty with other literals cannot reach it.
  std::string Requires;
  /// Functions the TU saw without a definition (`f:` keys) such that, if
  /// any of them never returns, the call cannot be reached with an empty
  /// value: `if (!f) fatal("no f"); f(x);` with `fatal` defined in another
  /// TU. The facts decide them first; see PolicyCallAnalysis, exitsNeeded.
  std::vector<std::string> Exits;
  /// Likewise for assertion functions: the call cannot be reached with an
  /// empty value if one of these returns only when its argument is true
  /// (`Assert(f != nullptr, "no f"); f(x);` with `Assert` defined in
  /// another TU).
  std::vector<AssumedAssertion> Assertions;
  /// Likewise for getters (AssumedEffect::ReturnsField): the call is
  /// guarded if one of these methods, which the TU saw without a
  /// definition, returns the field it is paired with (`if (rec->func() !=
  /// nullptr) rec->func()(x);` with `func` defined in another TU).
  std::vector<AssumedEffect> Getters;
  /// The TU decided the finding (it stands whatever the facts say of its
  /// sources): it waits for the facts only for Exits, Assertions and
  /// Getters.
  bool Decided = false;
  /// StrictMode: reported whatever the facts say, with whatever evidence
  /// they give.
  bool Strict = false;
  /// The callable is a field, and the call runs only where a test of
  /// another state of the same object holds (`if (ptr) del(ptr);`,
  /// `if (ready())`; Guards.h, objectStateTestedAt): the author chose the
  /// object's mode here, and evidence about the field from elsewhere does not
  /// say which mode leaves it empty.
  bool ModeTested = false;
  /// The call runs on every path from its function's entry that does not
  /// throw (Guards.h, alwaysReached): what a caller passes reaches it as it
  /// is, so a caller that proves the field empty on the object it passes
  /// (SourceFacts::PassedFields, EmptyAt) is evidence.
  bool AlwaysReached = false;

  llvm::json::Value toJSON() const;
  static bool fromJSON(const llvm::json::Value &V, Candidate &Out);
};

/// The atom of a flag: the `m:` key of a `bool` member (Value ""), or of a
/// bitset-like member with one bit ("m:<USR>[N]").
std::string flagAtom(llvm::StringRef Member, llvm::StringRef Value);
/// The member key and the value of a flag atom.
std::pair<llvm::StringRef, llvm::StringRef> flagAtomParts(llvm::StringRef Atom);

/// The facts that deciding C can consult, from each of From, merged: its
/// keys' and every source they refer to (a field's class, the sources a
/// parameter is passed from, the members its guards test, ...). A project's
/// facts file may hold a hundred thousand sources; a TU's candidates need a
/// few.
ProjectFacts relevantFacts(llvm::ArrayRef<const ProjectFacts *> From,
                           llvm::ArrayRef<Candidate> Cs);

/// One note that explains a finding.
struct Evidence {
  std::string Message;
  FactLoc Loc; ///< Invalid when the evidence has no place of its own.
};

struct Resolution {
  bool Report = false;
  std::vector<Evidence> Notes;
};

/// Decides a candidate: reported when every source is judged by the facts
/// (may be empty, or never empty) and either some source may be empty or the
/// value is emptied locally; a Strict candidate is always reported. Notes
/// name the evidence. PolicyNames applies to functions with no definition
/// anywhere (or none that could be judged). See Resolve.cpp for the rules.
Resolution resolve(const ProjectFacts &Facts, const Candidate &C,
                   const llvm::Regex &PolicyNames);
/// The same, with the candidate's own PolicyNames.
Resolution resolve(const ProjectFacts &Facts, const Candidate &C);

} // namespace wrapguard

#endif // WRAPGUARD_FACTS_PROJECTFACTS_H
