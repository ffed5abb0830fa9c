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
#include "SkipReason.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include <map>
#include <string>
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

enum class SourceKind { Function, Field, Parameter };
llvm::StringRef toString(SourceKind K);

/// What one constructor does with one field.
struct CtorFact {
  std::string Name; ///< "Layer(int, int)".
  bool SetsField = false;
  FactLoc Loc;
};

struct SourceFacts {
  SourceKind Kind = SourceKind::Function;
  /// Qualified name of the function or field; a parameter's own name.
  std::string Name;

  // Functions: what the visible definitions say about the returns (for a
  // virtual method, the join over the overrides seen); none when no
  // definition was seen, Unknown when one was but its returns could not be
  // judged.
  std::optional<Emptiness> Definition;
  FactLoc EmptyReturn; ///< A return that may yield an empty callable.

  // Belief: uses that test a value from this source for emptiness, and
  // calls through one with no test on the way.
  unsigned Tested = 0;
  unsigned Untested = 0;
  FactLoc TestedAt; ///< The first tested use, in (file, offset) order.

  // Fields: each constructor seen (by USR), and one place that empties it.
  std::map<std::string, CtorFact> Constructors;
  FactLoc EmptiedAt;
  /// A non-empty assignment outside the class's constructors (a setter, or
  /// the creator filling in a two-phase object): constructors that leave
  /// the field empty are then no evidence.
  FactLoc SetAt;

  void merge(const SourceFacts &Other);
};

class ProjectFacts {
public:
  /// The facts of Key, created with Kind and Name when new.
  SourceFacts &get(llvm::StringRef Key, SourceKind Kind, llvm::StringRef Name);
  const SourceFacts *find(llvm::StringRef Key) const;
  void merge(const ProjectFacts &Other);
  bool empty() const { return Sources.empty(); }
  size_t size() const { return Sources.size(); }
  const std::map<std::string, SourceFacts> &sources() const { return Sources; }

  /// The versioned, documented format of docs/checks/unchecked-policy-call.md.
  llvm::json::Value toJSON() const;
  static llvm::Expected<ProjectFacts> fromJSON(const llvm::json::Value &V);
  static llvm::Expected<ProjectFacts> readFile(llvm::StringRef Path);
  llvm::Error writeFile(llvm::StringRef Path) const;

  static constexpr unsigned FormatVersion = 1;

private:
  std::map<std::string, SourceFacts> Sources;
};

/// A call through a callable that may be empty on some path, whose value came
/// only from sources the TU could not judge.
struct Candidate {
  /// The callable as spelled at the call ("f", "hooks.after_step").
  std::string Name;
  /// Every source the value may come from; all must be judged by the facts.
  std::vector<std::string> Keys;
  /// Some path makes the value empty locally (e.g. `Fn f = nullptr;`), so a
  /// source that is merely known, not only one that may be empty, suffices.
  bool EmptyLocally = false;
  /// The PolicyNames option in force where the call is.
  std::string PolicyNames;

  llvm::json::Value toJSON() const;
  static bool fromJSON(const llvm::json::Value &V, Candidate &Out);
};

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
/// value is emptied locally. PolicyNames applies to functions with no
/// definition anywhere (or none that could be judged).
Resolution resolve(const ProjectFacts &Facts, const Candidate &C,
                   const llvm::Regex &PolicyNames);
/// The same, with the candidate's own PolicyNames.
Resolution resolve(const ProjectFacts &Facts, const Candidate &C);

/// What one TU hands the scanner, which decides candidates only once every
/// TU's facts are in: the TU's facts, and its candidates in the order their
/// diagnostics were emitted, each diagnostic's message prefixed with
/// candidateMarker(index) so that clang-tidy's own filtering (NOLINT, header
/// filters) still applies to it.
struct TUEvidence {
  ProjectFacts Facts;
  std::vector<Candidate> Candidates;
  /// Where each candidate's notes go when the facts have no place of their
  /// own for them.
  std::vector<FactLoc> Origins;
  /// Functions the check analysed to the end in this TU.
  unsigned Analysed = 0;
  /// Functions not analysed to the end, because a budget ran out or for a
  /// construct the engine does not analyse, in the order met. The scanner
  /// reports each as a SARIF tool-execution notification and counts them in
  /// its summary line, so "no finding" is never "not analysed".
  struct Skip {
    /// The function's name in its definition; Where.Function is its
    /// qualified name, e.g. `ns::Trainer::step`.
    FactLoc Where;
    /// Why: the budget's option (`MaxBlockVisits`, `MaxSolverIterations`)
    /// or the construct.
    SkipReason Reason;
  };
  std::vector<Skip> Skipped;
};

/// Set by the scanner, on the thread that runs one TU, for that TU's
/// duration; null otherwise (clang-tidy, clangd), and the check then decides
/// candidates itself at the end of the TU.
TUEvidence *&scannerEvidence();

std::string candidateMarker(size_t Index);
/// Strips a candidate marker from the front of Message; false when none.
bool consumeCandidateMarker(std::string &Message, size_t &Index);

} // namespace wrapguard

#endif // WRAPGUARD_FACTS_PROJECTFACTS_H
