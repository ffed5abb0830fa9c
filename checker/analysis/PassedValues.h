//===- PassedValues.h - A value's state where it is passed on ---*- C++ -*-===//
//
// The facts record what each call passes to a callable parameter. Read off
// the syntax, a parameter handed on is "whatever my callers passed", even
// when the function normalised it first (`if (!f) f = &dflt; run(f);`): the
// evidence would then say the callee may be passed an empty callable where
// no path passes one. This file asks the flow analysis instead: the state of
// the variable or field where the argument reads it, on every path to that
// point, and of the callable fields of an object passed by pointer or
// reference.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_PASSEDVALUES_H
#define WRAPGUARD_ANALYSIS_PASSEDVALUES_H

#include "AnalysisOptions.h"
#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "Emptiness.h"
#include "FlagValues.h"
#include "MethodsElsewhere.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace wrapguard {

class PassedValues {
public:
  /// Oracle and Opts serve the flow analysis, as they serve the check's.
  PassedValues(clang::ASTContext &Ctx, const CallableTypes &Types,
               CallResultOracle &Oracle, const AnalysisOptions &Opts)
      : Ctx(Ctx), Types(Types), Oracle(Oracle), Opts(Opts) {}

  /// The state of the variable that Read (a reference to it in Owner's
  /// body) denotes where Read is evaluated: NonEmpty or AlwaysEmpty when
  /// every path to it proves so, else Unknown (also when the analysis of
  /// Owner was skipped or went over budget). One analysis per function
  /// answers every read in it.
  Emptiness at(const clang::FunctionDecl &Owner,
               const clang::DeclRefExpr &Read);
  /// Likewise for a read of a callable field (`callback` of `*this`,
  /// `debug->before`): `if (d->f) run(d->f);` passes it set. MayBeEmpty
  /// too, where a path empties it before the read (`run(std::move(cb_));
  /// again(cb_);`).
  Emptiness at(const clang::FunctionDecl &Owner, const clang::MemberExpr &Read);

  /// Likewise for callable field Field of the object that Read denotes (a
  /// record variable, a reference to one) or points to (a pointer
  /// variable): `if (q->f) run(q);` passes q with `f` set.
  Emptiness fieldAt(const clang::FunctionDecl &Owner,
                    const clang::DeclRefExpr &Read,
                    const clang::FieldDecl &Field);
  /// Likewise for a callable field of `*this` where This, the object of a
  /// method call (`helper()`, `this->helper()`), is evaluated: `if
  /// (callback) helper();` calls helper with `callback` set.
  Emptiness fieldAt(const clang::FunctionDecl &Owner,
                    const clang::CXXThisExpr &This,
                    const clang::FieldDecl &Field);
  /// Likewise for the object a member read denotes or points to
  /// (`data.cast` in `if (data.cast.has_init()) data.cast.init();`).
  Emptiness fieldAt(const clang::FunctionDecl &Owner,
                    const clang::MemberExpr &Read,
                    const clang::FieldDecl &Field);

  /// Likewise for the object of Call that a call's result denotes or points
  /// to (`ws->run()` through a smart pointer's `operator->`): `if
  /// (ws->registered()) ws->run();` calls run with the field set.
  Emptiness fieldAt(const clang::FunctionDecl &Owner,
                    const clang::CXXMemberCallExpr &Call,
                    const clang::FieldDecl &Field);

  /// Likewise for callable field Field of the object that pointer member
  /// Via of the object at Read (one of the reads above) points to:
  /// `if (priv.task && priv.task->step) helper(priv);` passes priv with
  /// `task->step` set.
  Emptiness fieldThroughAt(const clang::FunctionDecl &Owner,
                           const clang::Expr &Read, const clang::FieldDecl &Via,
                           const clang::FieldDecl &Field);
  /// Whether RD has callable fields, or a pointer member to an object that
  /// has (callablePointee): the objects whose reads are recorded.
  bool holdsCallables(const clang::RecordDecl &RD);
  /// The record with callable fields that F points to, if F is such a
  /// pointer.
  const clang::RecordDecl *callablePointee(const clang::FieldDecl &F);

  /// When the field-at reads above do not prove Field set at Read (one of
  /// those reads' expressions): whether Owner's analysis proves it under
  /// assumptions about the methods of Field's class that this TU sees
  /// without a definition (MethodsElsewhere.h), and those the proof needs.
  /// None when it does not, or when Owner already had its share of such
  /// analyses.
  std::optional<std::vector<AssumedMethodEffect>>
  fieldAssuming(const clang::FunctionDecl &Owner, const clang::Expr &Read,
                const clang::FieldDecl &Field);

  /// For a read of one of Owner's own callable parameters that the flow
  /// leaves undecided (the callers decide it): what every path to the read
  /// requires of Owner's boolean parameters (`if (reduce) run(f);`).
  FlagValues requiredAt(const clang::FunctionDecl &Owner,
                        const clang::DeclRefExpr &Read);

private:
  struct Reads {
    /// Reads of callable variables and of callable fields of `*this`.
    llvm::DenseMap<const clang::Expr *, Emptiness> Values;
    /// Fields of the object a variable read or `this` denotes.
    llvm::DenseMap<std::pair<const clang::Expr *, const clang::FieldDecl *>,
                   Emptiness>
        Fields;
    /// Fields of the object that a pointer member of such an object points
    /// to, keyed by the read, the pointer member and the field.
    std::map<std::tuple<const clang::Expr *, const clang::FieldDecl *,
                        const clang::FieldDecl *>,
             Emptiness>
        Through;
    /// Undecided reads of the function's callable parameters.
    llvm::DenseMap<const clang::DeclRefExpr *, FlagValues> Required;
  };
  /// Owner's reads, analysed on first use.
  const Reads &of(const clang::FunctionDecl &Owner);
  Reads analyse(const clang::FunctionDecl &Owner, CallResultOracle &Oracle);
  /// Owner's reads under the hypothesis for one field (fieldAssuming).
  struct Assuming {
    /// With every assumption.
    Reads All;
    /// The assumptions made, by the first call of their methods.
    std::vector<AssumedMethodEffect> Assumed;
    /// With only these methods assumed.
    std::map<std::vector<const clang::CXXMethodDecl *>, Reads> BySubset;
  };
  void assume(const clang::FunctionDecl &Owner, const clang::FieldDecl &Field,
              Assuming &Out);
  bool hasCallableFields(const clang::RecordDecl &RD);
  Emptiness lookup(const clang::FunctionDecl &Owner, const clang::Expr &Read);
  Emptiness fieldLookup(const clang::FunctionDecl &Owner,
                        const clang::Expr &Read, const clang::FieldDecl &Field);

  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  const AnalysisOptions &Opts;
  llvm::DenseMap<const clang::FunctionDecl *, Reads> Analysed;
  std::map<std::pair<const clang::FunctionDecl *, const clang::FieldDecl *>,
           Assuming>
      AssumedAnalyses;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> AssumedFieldsOf;
  llvm::DenseMap<const clang::RecordDecl *, bool> CallableRecords;
};

/// The fields a function's body names (through any object).
using NamedFields = llvm::SmallPtrSet<const clang::FieldDecl *, 8>;

/// Whether Call, a call of a method on Owner's own object (`helper()`,
/// `this->helper()`), hands that object on as Owner received it: Owner (a
/// method, not a constructor, a destructor or a lambda's) calls no other
/// non-const method of its object, hands `this` to nothing, and does not
/// run Call in a loop. Then, for each field Owner names nowhere, Call
/// passes it set wherever every call of Owner does (the facts follow the
/// callers, AssumedEffect::CallersSet). The fields Owner names when it
/// does, none when it does not; Parents is the map of Owner's body. One
/// walk of the body answers for every field.
std::optional<NamedFields>
handsOnItsObject(const clang::CXXMethodDecl &Owner,
                 const clang::CXXMemberCallExpr &Call,
                 clang::ParentMap &Parents);

/// Likewise for Read, a read of Owner's own pointer or reference parameter
/// that a call passes on (`void step(Ctx *c) { run(c); }`): Owner uses the
/// parameter otherwise only to name members of its object (no non-const
/// method, no assignment, no other hand-off), and does not pass it in a
/// loop.
std::optional<NamedFields> handsOnParameter(const clang::FunctionDecl &Owner,
                                            const clang::DeclRefExpr &Read,
                                            clang::ParentMap &Parents);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_PASSEDVALUES_H
