//===- BeliefTests.h - Which tests of a source are belief ------*- C++ -*-===//
//
// Code that tests a value for emptiness believes it can be empty: the seed's
// sibling checks the policy before it calls it. That holds where the test's
// function also acts on the value. A gate that only rejects an object
// without the value (`if (!info.update) return Error;` before registering
// it) keeps empty values out, which says no use meets one. The facts
// collector asks one FunctionBelief per function it walks, and records the
// tests it keeps (docs/checks/unchecked-policy-call.md, "Belief").
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_BELIEFTESTS_H
#define WRAPGUARD_ANALYSIS_BELIEFTESTS_H

#include "BodyIndex.h"
#include "CallableTypes.h"
#include "ProjectFacts.h"
#include "ValueSources.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <utility>
#include <vector>

namespace wrapguard {

/// Whether a function's visible body calls through a field, per function and
/// field: shared by the functions of one TU.
using CallsMemberCache = llvm::DenseMap<
    std::pair<const clang::FunctionDecl *, const clang::FieldDecl *>, bool>;

/// The tests of one function, and what it does with values.
class FunctionBelief {
public:
  FunctionBelief(const clang::FunctionDecl &Owner, clang::ASTContext &Ctx,
                 const CallableTypes &Types, const BodyIndex &Index,
                 CallsMemberCache &Cache)
      : Owner(Owner), Ctx(Ctx), Types(Types), Index(Index), Cache(Cache) {}

  /// Test (`if (f)`, `!q->f`, `f != nullptr`) tests Tested, a value from
  /// Sources, at At; Unless when it is handed to a function defined
  /// elsewhere that may be an assertion function (SourceFacts::TestedUnless).
  void test(const clang::Expr &Test, const clang::Expr &Tested,
            std::vector<SourceUse> Sources, const FactLoc &At,
            std::optional<AssumedAssertion> Unless = std::nullopt);

  /// What E does with callable values as a use, not as a test: what a call
  /// calls through, what a call, a construction, an initializer list or an
  /// assignment is given, the objects calls are handed.
  void see(const clang::Expr &E);
  /// A static's initializer keeps the value; a local's only names it.
  void seeVar(const clang::VarDecl &VD);
  void seeReturn(const clang::ReturnStmt &RS);
  /// What a lambda captures is read where it is made.
  void seeCaptures(const clang::LambdaExpr &L);

  /// A test that is belief, or is unless Unless is an assertion function.
  struct Belief {
    SourceUse Source;
    FactLoc At;
    std::optional<AssumedAssertion> Unless;
  };
  /// The tests that are belief, in the order they were seen.
  std::vector<Belief> belief() const;

private:
  void use(const clang::Expr *E);
  void handed(const clang::Expr *E, const clang::FunctionDecl *Callee);
  bool initialisesLocal(const clang::Expr &E) const;
  bool reported(const clang::Expr &Test) const;
  bool callsMember(const clang::FunctionDecl &Callee,
                   const clang::FieldDecl &FD) const;

  const clang::FunctionDecl &Owner;
  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  const BodyIndex &Index;
  CallsMemberCache &Cache;

  struct Test {
    SourceUse Source;
    FactLoc At;
    /// The object whose member is tested, and the member, if any.
    const clang::Expr *Object;
    const clang::FieldDecl *Field;
    /// The test is what the function returns.
    bool Reported;
    std::optional<AssumedAssertion> Unless;
  };
  std::vector<Test> Tests;
  /// Sources the function uses.
  llvm::StringSet<> Used;
  /// Objects handed to calls, with the function called.
  std::vector<std::pair<const clang::Expr *, const clang::FunctionDecl *>>
      Handed;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_BELIEFTESTS_H
