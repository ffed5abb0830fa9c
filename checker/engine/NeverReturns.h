//===- NeverReturns.h - Functions no call of which comes back ---*- C++ -*-===//
//
// A function never returns when no path through its body reaches a normal
// return: every path ends in a `throw` that nothing in it catches, in a
// call to a `[[noreturn]]` function, or in a call to another function that
// never returns. Loggers that format a message and throw, and the macros
// that call them, are the common case; they are found from their bodies,
// never from a list of names. The engine treats the code after such a call
// as dead, so a `return nullptr;` behind it is no evidence and a call behind
// it is no finding.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_NEVERRETURNS_H
#define WRAPGUARD_ENGINE_NEVERRETURNS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>
#include <optional>

namespace clang {
class CFGElement;
} // namespace clang

namespace wrapguard {

class NeverReturns {
public:
  /// Whether a project function without a definition here (defined in
  /// another TU) is taken to never return: the hypotheses whose truth the
  /// project's facts decide (see PolicyCallAnalysis, `exitsNeeded`). Each
  /// one taken is added to Assumed.
  using AssumeFn = std::function<bool(const clang::FunctionDecl &)>;

  explicit NeverReturns(clang::ASTContext &Ctx, AssumeFn Assume = nullptr)
      : Ctx(Ctx), Assume(std::move(Assume)) {}

  /// The functions without a definition here taken to never return by the
  /// answers so far (with Assume).
  llvm::SmallPtrSet<const clang::FunctionDecl *, 4> Assumed;

  /// Whether no call of FD returns: declared noreturn, or a visible,
  /// non-virtual definition none of whose paths returns.
  bool operator()(const clang::FunctionDecl &FD);

  /// Whether every call of FD ends the process: it neither returns nor
  /// throws. Declared noreturn and non-throwing (`abort`, `exit`,
  /// `__assert_fail`, a `noexcept` or C-linkage function), or a visible
  /// definition every path of which ends in such a call. What `assert`
  /// and aborting `CHECK` macros call on failure, unlike a function that
  /// throws, which a caller may catch.
  bool endsProcess(const clang::FunctionDecl &FD);

  /// The index of a `bool` parameter of FD that FD returns only when it is
  /// true: on every path where it is false, FD's visible body ends in a call
  /// that never returns (or passes it to such a function of its own). A
  /// project's assertion function, `void Assert(bool ok, const std::string
  /// &msg) { if (!ok) Fail(msg); }` with `Fail` exiting: past a call of it
  /// its argument holds. An integer parameter read as a truth value (`void
  /// check(int ok) { if (!ok) abort(); }`, or `ok == 0`, in C-style code)
  /// counts too: a condition handed to it is its truth. Read from the body,
  /// never from a name.
  /// With Process, on those paths FD ends the process (it neither returns
  /// nor throws): an assertion, where a throw would be a test.
  std::optional<unsigned> returnsOnlyIf(const clang::FunctionDecl &FD,
                                        bool Process = false);

  /// The function a CFG element calls that never returns (a call, a
  /// construction, a destructor run at a scope's or a temporary's end), or
  /// null. With Process, one that ends the process.
  const clang::FunctionDecl *stopsAt(const clang::CFGElement &Elt,
                                     bool Process = false);

private:
  /// The two questions share the walk: Process asks endsProcess.
  bool ask(const clang::FunctionDecl &FD, bool Process);
  bool ofDefinition(const clang::FunctionDecl &Def, bool Process);
  /// FD's definition when it is one these questions read: returning
  /// nothing (a function that returns a value has a reason to), visible,
  /// not a template pattern, not in a system header (whose functions say
  /// so in their declarations), and no virtual method an override may
  /// replace; else null.
  const clang::FunctionDecl *definitionToRead(const clang::FunctionDecl &FD);
  /// Whether a path through Def's body returns, where Falsified (one of
  /// its parameters, when given) is false.
  bool mayReturn(const clang::FunctionDecl &Def, bool Process,
                 const clang::ParmVarDecl *Falsified);
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
                 std::optional<unsigned>>
      OnlyIfCache;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> OnlyIfInProgress;

  clang::ASTContext &Ctx;
  AssumeFn Assume;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Cache;
  llvm::DenseMap<const clang::FunctionDecl *, bool> ProcessCache;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
  /// Set when an answer in progress met the depth bound or a recursion:
  /// such answers ("returns") are not cached, so that the order functions
  /// are asked in cannot change a later answer.
  bool Truncated = false;
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_NEVERRETURNS_H
