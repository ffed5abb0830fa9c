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
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

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
  /// `debug->before`): `if (d->f) run(d->f);` passes it set.
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
    /// Undecided reads of the function's callable parameters.
    llvm::DenseMap<const clang::DeclRefExpr *, FlagValues> Required;
  };
  /// Owner's reads, analysed on first use.
  const Reads &of(const clang::FunctionDecl &Owner);
  bool hasCallableFields(const clang::RecordDecl &RD);
  Emptiness lookup(const clang::FunctionDecl &Owner, const clang::Expr &Read);
  Emptiness fieldLookup(const clang::FunctionDecl &Owner,
                        const clang::Expr &Read, const clang::FieldDecl &Field);

  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  CallResultOracle &Oracle;
  const AnalysisOptions &Opts;
  llvm::DenseMap<const clang::FunctionDecl *, Reads> Analysed;
  llvm::DenseMap<const clang::RecordDecl *, bool> CallableRecords;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_PASSEDVALUES_H
