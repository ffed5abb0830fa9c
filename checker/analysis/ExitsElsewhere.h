//===- ExitsElsewhere.h - Functions that may never return, elsewhere -*- C++
//-*-===//
//
// A project's fatal logger is often declared in a header and defined in one
// `.cpp`: `void fatal(const char *msg);`. In every other TU the flow
// analysis sees a call that returns, so `if (!f) fatal("no f"); f(x);` is a
// finding there, and a factory's `fatal("unknown"); return nullptr;` a
// `return` that yields empty, although the TU that defines `fatal` proves
// that it never returns (NeverReturns.h).
//
// The one-pass scan cannot give one TU's analysis another's facts, so the
// question is turned round and the facts answer it at the end:
//  - the facts collector records, per definition, that it never returns
//    (`neverReturns`), or that it does provided that the functions its TU
//    sees without a definition never return (`neverReturnsIf`: a logger that
//    calls `fatal`), for transitive chains across TUs;
//  - a finding whose call the analysis proves unreachable with an empty
//    value once one of the functions its function calls without a visible
//    definition is taken to never return records that function's key
//    (`Candidate::Exits`), and waits for the facts: if the project defines
//    it so that it never returns, the call is dead there and no finding.
//  - likewise for an assertion function defined in another TU, `void
//    Assert(bool ok, const char *what);`: a finding whose call the analysis
//    proves unreachable with an empty value once the function is taken to
//    return only when its condition is true records it with that parameter
//    (`Candidate::Assertions`); the facts record which parameter each
//    definition returns only on (`returnsOnlyIf`), by its flow analysis.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_EXITSELSEWHERE_H
#define WRAPGUARD_ANALYSIS_EXITSELSEWHERE_H

#include "CallResultOracle.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace wrapguard {

/// Whether FD is a project function this TU sees without a definition that
/// another TU may define so that it never returns: declared outside system
/// headers, visible outside its TU, returning void (what can end a path, as
/// NeverReturns reads), not virtual, not declared noreturn, and keyed.
bool mayBeDefinedElsewhere(const clang::FunctionDecl &FD,
                           const clang::SourceManager &SM);

/// The functions FD's body calls directly (lambdas are functions of their
/// own) for which mayBeDefinedElsewhere holds, in order of first call; at
/// most Max.
llvm::SmallVector<const clang::FunctionDecl *, 4>
calledDefinedElsewhere(const clang::FunctionDecl &FD,
                       const clang::SourceManager &SM, unsigned Max);

/// A cheap test that Def may never return, before its CFG is built: its
/// body has no `return` (outside lambdas) and does not end in a statement
/// that surely falls through (a declaration, an assignment, an empty one).
bool mayNeverReturn(const clang::FunctionDecl &Def);

/// When Def, a definition, never returns provided that the functions it
/// calls, directly or through other definitions here, that the TU sees
/// without a definition never return: their keys, sorted. Empty otherwise,
/// and when Def never returns by itself.
std::vector<std::string> neverReturnsIf(const clang::FunctionDecl &Def,
                                        clang::ASTContext &Ctx);

/// The parameter of FD, a function for which mayBeDefinedElsewhere holds,
/// that it would take a condition in if it were an assertion function: its
/// first `bool` parameter, else its first integer one (`void check(int ok,
/// const char *what)`, in C-style code). None when it has neither.
std::optional<unsigned> truthParameter(const clang::FunctionDecl &FD);

/// A function taken to return only when its parameter is true.
using AssertionHypothesis = std::pair<const clang::FunctionDecl *, unsigned>;

/// An oracle that answers as Inner, but also ends the paths at calls of
/// the functions in Exits, and takes each function of Assertions to return
/// only when its parameter is true: the analysis of a function under those
/// hypotheses. Callee summaries are still Inner's, computed without them.
class AssumedExits : public ForwardingOracle {
public:
  AssumedExits(CallResultOracle &Inner,
               llvm::ArrayRef<const clang::FunctionDecl *> Exits,
               llvm::ArrayRef<AssertionHypothesis> Assertions = {});

  bool endsPath(const clang::CFGElement &Elt) override;
  std::optional<unsigned> returnsOnlyIf(const clang::FunctionDecl &FD) override;

private:
  llvm::SmallPtrSet<const clang::FunctionDecl *, 4> Exits;
  llvm::SmallDenseMap<const clang::FunctionDecl *, unsigned, 4> Assertions;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_EXITSELSEWHERE_H
