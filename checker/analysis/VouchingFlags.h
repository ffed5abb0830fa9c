//===- VouchingFlags.h - Flags set only where a callable is set -*- C++ -*-===//
//
// Code that keeps a flag beside a callable often sets the flag exactly where
// it has seen the callable set, and later tests the flag instead of the
// callable, on another object and in another function:
//
//   if (buffer->callback) voice->flags.set(IsCallback);   // InitVoice
//   ...
//   if (voice.flags.test(IsCallback)) item->callback(..); // the mixer
//
// The facts record, for each flag (a `bool` member, or one bit of a
// bitset-like member), the callable sources that *every* write setting it
// proves non-empty where it runs (SourceFacts::Vouches); a call records the
// flags true where it runs (Candidate::Flags). Resolution then takes a
// source that such a flag vouches for as non-empty, in the default mode.
// A flag set anywhere without such a test (`ready = true;`, `flags.set()`,
// `ready = x;`) vouches for nothing.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_VOUCHINGFLAGS_H
#define WRAPGUARD_ANALYSIS_VOUCHINGFLAGS_H

#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

/// A write that sets a flag, of any object.
struct FlagWrite {
  const clang::FieldDecl *Field = nullptr;
  /// What it sets (SourceFacts::Vouches): "" a `bool` member true, "N" bit
  /// N of a bitset-like member, "*" any of its bits (`set()`, `flip(..)`,
  /// an assignment of another value).
  std::string Value;
  /// The value written is a test of a callable (`has_cb = cb != nullptr;`):
  /// the tested expression, non-empty wherever the flag is set.
  const clang::Expr *Tested = nullptr;
  /// It sets the flag whatever holds: no test around it vouches
  /// (`ready = x;`, an assignment of the whole bitset).
  bool Unknown = false;
};

/// The flag write that E is, if any: `o.b = true` (or a callable test, or
/// another value), `o.bits.set(K)`, `o.bits.set()`, `o.bits = x`, a compound
/// assignment. Writes that clear a flag (`= false`, `reset(..)`,
/// `set(K, false)`) set nothing and are none.
std::optional<FlagWrite> flagWriteOf(const clang::Expr &E,
                                     const CallableTypes &Types,
                                     clang::ASTContext &Ctx);

/// The flag write that initialising F with Init is (a constructor's
/// member initializer, a default member initializer), if any.
std::optional<FlagWrite> flagInitOf(const clang::FieldDecl &F,
                                    const clang::Expr *Init,
                                    const CallableTypes &Types,
                                    clang::ASTContext &Ctx);

/// The flag atoms (flagAtom) of the flags true where S is evaluated, by the
/// enclosing `if`s and `?:` on the branch taken and the early exits before
/// it: `o.b`, `p->b`, `b_`, `o.bits.test(K)`, and the conjuncts of `&&`.
std::vector<std::string> flagsTrueAt(const clang::Stmt &S, clang::ParentMap &PM,
                                     clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_VOUCHINGFLAGS_H
