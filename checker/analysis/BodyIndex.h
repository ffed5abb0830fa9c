//===- BodyIndex.h - What a function body does to its locals ----*- C++ -*-===//
//
// One walk over a function body files every initialisation, assignment,
// move and escape of its local variables under the variable. The questions
// the analysis asks about a local afterwards (where did its value last come
// from, which values can it hold, can a callee change it) are lookups, so
// a function with many findings or many tests stays linear in its body.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_BODYINDEX_H
#define WRAPGUARD_ANALYSIS_BODYINDEX_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <vector>

namespace wrapguard {

class BodyIndex {
public:
  /// Something that gave a local its value.
  struct Event {
    enum Kind {
      Init,        ///< `T v = x;`, `T v(x);`, `T v{x};`
      DefaultInit, ///< `T v;`
      Assign,      ///< `v = x`
      MovedFrom,   ///< `std::move(v)`
    };
    Kind What;
    clang::SourceLocation Loc;
    /// The new value (Init, Assign); null otherwise.
    const clang::Expr *Value = nullptr;
    /// MovedFrom: the `std::move` call; null otherwise.
    const clang::Expr *Move = nullptr;
  };

  struct Local {
    /// In the order of the walk, which is source order.
    std::vector<Event> Events;
    /// Passed by non-const reference or by address: a callee may assign it.
    bool Escapes = false;
  };

  /// Indexes Owner's body; lambdas inside it are functions of their own and
  /// are not entered.
  explicit BodyIndex(const clang::FunctionDecl &Owner);

  /// Null when the body neither declares nor touches V.
  const Local *find(const clang::VarDecl &V) const;

  /// The body's parent map, built on first use.
  clang::ParentMap &parents() const;

  /// The last event before Before (an expansion location) that gave V its
  /// value, in translation-unit order.
  std::optional<Event> latestBefore(const clang::VarDecl &V,
                                    clang::SourceLocation Before,
                                    const clang::SourceManager &SM) const;

private:
  llvm::DenseMap<const clang::VarDecl *, Local> Locals;
  clang::Stmt *Body = nullptr;
  mutable std::unique_ptr<clang::ParentMap> Parents;
};

/// The indexes of one TU's functions, each built the first time the
/// analysis or the facts collector asks, and shared by both.
class BodyIndexes {
public:
  const BodyIndex &of(const clang::FunctionDecl &FD);

private:
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<BodyIndex>> Built;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_BODYINDEX_H
