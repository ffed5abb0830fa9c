//===- HandleConstructors.h - Is a freshly built handle empty? --*- C++ -*-===//
//
// A callable class of a project or library (LibTorch's module holders,
// packed-function handles, folly::Function) says what "empty" means in its
// `operator bool` or its comparison with nullptr: the fields those read are
// the handle's *witnesses*. Whether a construction leaves the handle empty is
// read from the constructor that runs: how it (and the base constructors it
// calls) initialises the witnesses, following visible callees' returns.
// Never from the class's name, and never from "a callable class, default
// constructed": `torch::nn::Linear l;` constructs its module, while
// `Linear l{nullptr};` is empty.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_HANDLECONSTRUCTORS_H
#define WRAPGUARD_ENGINE_HANDLECONSTRUCTORS_H

#include "Emptiness.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace wrapguard {

class HandleConstructors {
public:
  explicit HandleConstructors(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The state of a handle of a class outside namespace std right after
  /// Construct runs: NonEmpty or AlwaysEmpty when the constructor's
  /// definitions decide every witness, else Unknown.
  Emptiness afterConstruction(const clang::CXXConstructExpr &Construct);

private:
  /// The fields that say whether an object of RD is empty.
  llvm::SmallVector<const clang::FieldDecl *, 2>
  witnesses(const clang::CXXRecordDecl &RD);
  /// What Ctor, called with Args, leaves in F (a field of its class or of a
  /// base).
  Emptiness fieldAfter(const clang::CXXConstructorDecl &Ctor,
                       llvm::ArrayRef<const clang::Expr *> Args,
                       const clang::FieldDecl &F, unsigned Depth);
  /// What E evaluates to, as a pointer-like value; Params/Args say what the
  /// parameters of the constructor being read were passed.
  Emptiness valueOf(const clang::Expr *E, const clang::FunctionDecl *Callee,
                    llvm::ArrayRef<const clang::Expr *> Args, unsigned Depth);
  Emptiness returnsOf(const clang::FunctionDecl &FD, unsigned Depth);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::CXXRecordDecl *,
                 llvm::SmallVector<const clang::FieldDecl *, 2>>
      Witnesses;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
};

/// True when a move from an object of type T leaves it as it was, by the
/// definitions of its class (outside namespace std): the move is a copy (no
/// move constructor, a copy constructor declared); or it is memberwise
/// (implicit or defaulted) and every field the class's emptiness test reads
/// is a scalar, so a moved-from raw pointer still points. Op, when given,
/// is the constructor or assignment of T's class that does the move. Then
/// `H o(std::move(h));` is no evidence that `h` is empty.
bool moveLeavesSource(clang::QualType T,
                      const clang::CXXMethodDecl *Op = nullptr);

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_HANDLECONSTRUCTORS_H
