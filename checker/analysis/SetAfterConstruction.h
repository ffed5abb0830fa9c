//===- SetAfterConstruction.h - Fields a maker sets on what it made C++ -*-===//
//
// A factory often makes an object whose constructors leave a callable field
// empty and sets the field on the next line:
//
//   auto r = std::make_unique<Resource>();
//   r->release = [] { ... };
//   return r;
//
// Such a construction leaves no object empty outside the factory: the
// project never destroys or uses one before the set. Which fields that holds
// for is a question about the factory's control flow, answered here with
// its CFG: the set must post-dominate the construction (every path from the
// one to the exit passes the other), and the object must not be used in
// between. A `return`, a `throw` or a call that never returns between the
// two leaves the object empty on that path, so the field does not count.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_SETAFTERCONSTRUCTION_H
#define WRAPGUARD_ANALYSIS_SETAFTERCONSTRUCTION_H

#include "BodyIndex.h"
#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <memory>
#include <vector>

namespace wrapguard {

/// Per TU: each function body is read once, the first time one of its
/// constructions is asked about, and its CFG built only when it sets a
/// callable field of a local object.
class SetAfterConstruction {
public:
  /// Whether Value is non-empty where Owner assigns it.
  using IsSetFn = std::function<bool(const clang::Expr &Value,
                                     const clang::FunctionDecl &Owner)>;

  SetAfterConstruction(clang::ASTContext &Ctx, const CallableTypes &Types,
                       BodyIndexes &Indexes, IsSetFn IsSet);
  ~SetAfterConstruction();

  /// The callable fields of RD (their indexes, sorted) that Owner sets to a
  /// non-empty value on the object that E constructs, on every path from E
  /// to Owner's exit, with no other use of the object before the set. E is
  /// a construction of RD in Owner's body that initialises a local variable
  /// (the object, a pointer to it, or a smart pointer; a static local too);
  /// anything else gives none.
  std::vector<unsigned> fieldsSetAfter(const clang::Expr &E,
                                       const clang::CXXRecordDecl &RD,
                                       const clang::FunctionDecl &Owner);

  /// The callable fields of RD (indexes, sorted) set on G, a global of
  /// internal linkage (`static Loader loader;`), before anything can reach
  /// it: every function of the TU that names G takes its address into a
  /// local pointer and sets the field through it as fieldsSetAfter asks
  /// (`Loader *l = &loader; l->load = f; return l;`), or only reads and
  /// writes its other data members. Anything else gives none.
  std::vector<unsigned> fieldsSetBeforeReached(const clang::VarDecl &G,
                                               const clang::CXXRecordDecl &RD);

  /// What one body does to its local objects (defined in the .cpp).
  struct Body;
  /// Where the TU names its globals of internal linkage.
  struct GlobalRefs;

private:
  Body &body(const clang::FunctionDecl &Owner);
  const GlobalRefs &globalRefs();

  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  BodyIndexes &Indexes;
  IsSetFn IsSet;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Body>> Bodies;
  std::unique_ptr<GlobalRefs> Globals;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_SETAFTERCONSTRUCTION_H
