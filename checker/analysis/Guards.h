//===- Guards.h - Conditions over members that hold at a call ---*- C++ -*-===//
//
// A class may set a callable field only under a condition in its
// constructor, and keep that condition in a member nothing changes later:
//
//   Sampler(bool use, Fn f) : use_(use) { if (use_) cb_ = f; }
//   void step() { if (use_) cb_(); }
//
// The constructor's facts record the condition, and a candidate records the
// conditions that hold where it calls, both as the same *atoms*: `m:<USR>`
// (the member is true), `m:<USR>==VALUE` (it equals an enumerator or an
// integer), each possibly negated with a leading `!`. Resolution matches
// them (facts/Resolve.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_GUARDS_H
#define WRAPGUARD_ANALYSIS_GUARDS_H

#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

/// Constructor parameters stored in members by the mem-initializers
/// (`use_(use)`): a test of the parameter in the body is a test of the
/// member.
using ParamMembers =
    llvm::DenseMap<const clang::ParmVarDecl *, const clang::FieldDecl *>;

/// The atoms Cond asserts when it is true (Negated: false): one for a
/// member test, several for a conjunction (`a_ && b_`), none when Cond is
/// not over members of `this`.
std::vector<std::string> conditionAtoms(const clang::Expr &Cond, bool Negated,
                                        const ParamMembers *Params = nullptr);

/// The atoms that hold where S is evaluated in Body: the conditions of the
/// enclosing `if`s and `?:` on the branch taken, and of the early exits
/// (`if (!use_) return;`) that precede it in an enclosing block.
std::vector<std::string> guardsAt(const clang::Stmt &S, clang::ParentMap &PM);

/// A test of a nullable callable that holds where a statement is evaluated:
/// the tested expression, and whether the test proves it non-empty (else
/// empty).
struct CallableTest {
  const clang::Expr *Tested = nullptr;
  bool NonEmpty = true;
};

/// Calls Visit(Cond, Holds) for each condition that holds (Holds: is true)
/// where S is evaluated: the enclosing `if`s and `?:` on the branch taken,
/// and the early exits before S in an enclosing block.
void forEachConditionAt(
    const clang::Stmt &S, clang::ParentMap &PM,
    llvm::function_ref<void(const clang::Expr &, bool)> Visit);

/// The tests of callables that Cond proves when it evaluates to Holds: `f`
/// of `f != nullptr` true (non-empty), of `!f` true (empty), both of `a &&
/// b` true.
std::vector<CallableTest> callableTestsOf(const clang::Expr &Cond, bool Holds,
                                          const CallableTypes &Types,
                                          clang::ASTContext &Ctx);

/// The tests of callables that the enclosing `if`s and `?:` on the branch
/// taken, and the early exits before S, prove where S is evaluated: `f` of
/// `if (f)` (non-empty), `o.a` in the `else` of `if (o.a)` (empty).
std::vector<CallableTest> callableTestsAt(const clang::Stmt &S,
                                          clang::ParentMap &PM,
                                          const CallableTypes &Types,
                                          clang::ASTContext &Ctx);

/// The variables that the enclosing `if`s and `?:` on the branch taken, and
/// the early exits before S (`if (!f) return;`), prove non-empty callables
/// where S is evaluated.
std::vector<const clang::VarDecl *> nonEmptyVarsAt(const clang::Stmt &S,
                                                   clang::ParentMap &PM,
                                                   const CallableTypes &Types,
                                                   clang::ASTContext &Ctx);

/// Whether an enclosing test on the branch taken, or an early exit before
/// Call, proves Callable (the expression Call calls through) non-empty by
/// testing the very same expression (`if (p->cfg.init) p->cfg.init(x);`,
/// `if (const auto &f = p->cfg.init) f(x);`), with nothing between the
/// test and Call that may change it: no call, assignment, increment or
/// `delete` evaluated in between (by source order within Body). For a
/// callable whose storage the flow analysis does not follow.
bool testedSameExpressionAt(const clang::Stmt &Call,
                            const clang::Expr &Callable,
                            const clang::Stmt &Body, clang::ParentMap &PM,
                            const CallableTypes &Types, clang::ASTContext &Ctx);

/// Whether S is evaluated only where a test of another state of the object
/// that holds the callable field Callable (`o.f`, `p->f`, `f` of `this`)
/// holds, by the enclosing `if`s and `?:` on the branch taken and the early
/// exits before S: another member of that object that can be null (a
/// pointer, a smart pointer) as a truth value or against null (`if (ptr)`,
/// `if (_message)`), or a `bool` method of it called without arguments whose
/// one statement returns such a test (`if (!o.is_empty())`). Flags,
/// comparisons with other values (`n == size_`) and sibling callables are
/// not such tests: the constructors' conditions decide flags (guardsAt), the
/// correlated-slot rule sibling callables (siblingSlotAtoms).
bool objectStateTestedAt(const clang::Stmt &S,
                         const clang::MemberExpr &Callable,
                         clang::ParentMap &PM, const CallableTypes &Types,
                         clang::ASTContext &Ctx);

/// Whether S runs on every path from its function's entry that does not
/// throw: no enclosing branch, loop, `switch`, `catch` or short circuit, and
/// no statement before it in an enclosing block that may leave early (a
/// `return`, `break`, `continue` or `goto` inside it). What a caller passes
/// then reaches S as it is.
bool alwaysReached(const clang::Stmt &S, const clang::Stmt &Body,
                   clang::ParentMap &PM);

/// The fields (of any object) that the enclosing `if`s and `?:` on the
/// branch taken, and the early exits before S, prove non-empty where S is
/// evaluated (`if (io.get_fn != NULL) install(...)`).
std::vector<const clang::FieldDecl *>
nonEmptyFieldsAt(const clang::Stmt &S, clang::ParentMap &PM,
                 const CallableTypes &Types, clang::ASTContext &Ctx);

/// If E tests a nullable callable for emptiness (`if (f)`, `f != nullptr`,
/// `o.has_value()`, `static_cast<bool>(p)`), the tested expression.
const clang::Expr *testedCallable(const clang::Expr &E,
                                  const CallableTypes &Types,
                                  clang::ASTContext &Ctx);

/// Whether Test, a test of a nullable callable (see testedCallable), is an
/// assertion: the branch an empty value takes (of an `if`, a `?:`, or what
/// `assert` and `CHECK` expand to) ends the process, by a call (or a
/// temporary's destructor) for which Terminates holds (NeverReturns'
/// endsProcess). A branch that throws makes no assertion: a caller may catch
/// the exception and go on, so that code treats an empty value as one that
/// can occur.
/// Likewise an assertion function's argument (`AssertIn(f != nullptr,
/// "..")`), where OnlyIf gives the parameter a callee ends the process
/// unless it is true (NeverReturns::returnsOnlyIf with Process).
bool assertsNonEmpty(
    const clang::Expr &Test, clang::ParentMap &PM,
    llvm::function_ref<bool(const clang::FunctionDecl &)> Terminates,
    llvm::function_ref<std::optional<unsigned>(const clang::FunctionDecl &)>
        OnlyIf = nullptr);

/// Negates an atom.
std::string negateAtom(llvm::StringRef Atom);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_GUARDS_H
