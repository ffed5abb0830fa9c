//===- Constructions.h - How the project builds classes with callables C++ -*-//
//
// A class with callable fields is often built in several modes, each
// constructor setting the callables its mode uses. Whether a call through a
// field can find it empty depends on which constructors the project really
// calls, with which arguments. This file recognises constructions (`T(..)`,
// `new T(..)`, `std::make_shared<T>(..)`, `v.emplace_back(..)`, aggregates,
// interface tables) and says what each constructor does with each field:
// sets it, leaves it empty, sets it from one of its parameters, or sets it
// only under a condition.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_CONSTRUCTIONS_H
#define WRAPGUARD_ANALYSIS_CONSTRUCTIONS_H

#include "AnalysisOptions.h"
#include "BodyIndex.h"
#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "ExitEffects.h"
#include "PassedValues.h"
#include "ProjectFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

/// One construction of a class with callable fields.
struct Construction {
  const clang::CXXRecordDecl *Class = nullptr;
  std::string ClassKey;
  /// Count 1, placed where the construction is written.
  ConstructionFact Fact;
};

/// Per TU: recognises constructions and constructors' effects, with the
/// caches that keep it linear.
class Constructions {
public:
  /// Oracle and Opts serve the flow analysis of constructors' bodies;
  /// Passed judges the variables a construction passes.
  Constructions(clang::ASTContext &Ctx, const CallableTypes &Types,
                BodyIndexes &Indexes, CallResultOracle &Oracle,
                const AnalysisOptions &Opts, PassedValues &Passed)
      : Ctx(Ctx), Types(Types), Indexes(Indexes), Oracle(Oracle), Opts(Opts),
        Passed(Passed) {}

  /// Whether RD (outside system headers) declares a nullable-callable field.
  bool hasCallableFields(const clang::CXXRecordDecl &RD);
  /// The same for RD or one of its bases (a few levels up).
  bool buildsCallableFields(const clang::CXXRecordDecl &RD, unsigned Depth = 0);

  /// If E constructs a class with callable fields (not a copy or a move),
  /// the construction; Owner is the function E is in (null: a global's
  /// initializer). E may be a CXXConstructExpr, an InitListExpr of an
  /// aggregate, `new T(..)`, or a call of a standard factory that forwards
  /// its arguments to a constructor (`std::make_shared<T>`,
  /// `std::make_unique<T>`, `emplace_back`, `emplace`, `try_emplace`).
  std::optional<Construction> at(const clang::Expr &E,
                                 const clang::FunctionDecl *Owner);

  /// The base-class subobjects with callable fields that E's construction
  /// builds through constructors the compiler wrote (implicit or defaulted:
  /// `struct CpuBuf : Buffer {}; std::make_unique<CpuBuf>()`), each as a
  /// construction of its base class placed at E, in Owner, and named by the
  /// derived constructor. A constructor the user wrote is not followed: its
  /// base initializers are constructions in its own body, recorded with it.
  std::vector<Construction> baseConstructions(const clang::Expr &E,
                                              const clang::FunctionDecl *Owner);

  /// The virtual methods of Base (function keys, sorted) that Derived, a
  /// class derived from it, overrides where the overrider's definition is
  /// here and names no version of the method of Base (`Base::run()` runs
  /// it): the base subobject of a Derived never runs them through a virtual
  /// call (ConstructionFact::Overridden).
  std::vector<std::string> overriddenIn(const clang::CXXRecordDecl &Derived,
                                        const clang::CXXRecordDecl &Base);

  /// What Ctor does with F; nullopt when Ctor's definition is not in this
  /// TU (the TU that has it records it), or when the flow analysis of its
  /// body shows that what its statements say would claim too much (see
  /// exitEffect).
  std::optional<CtorFact> effectOn(const clang::CXXConstructorDecl &Ctor,
                                   const clang::FieldDecl &F);

  /// `Layer(int, int)`: how a constructor is named in notes.
  static std::string constructorName(const clang::CXXConstructorDecl &C);

private:
  /// The effect as the init list and the body's statements write it.
  std::optional<CtorFact> writtenEffectOn(const clang::CXXConstructorDecl &Ctor,
                                          const clang::FieldDecl &F);
  std::optional<Construction> ofConstructor(const clang::CXXConstructExpr &CE,
                                            const clang::FunctionDecl *Owner);
  /// Indeterminate: a default-initialisation (`T x;`, `new T`) that leaves
  /// the scalar fields nothing initialises indeterminate, not empty.
  std::optional<Construction> ofAggregate(const clang::CXXRecordDecl &RD,
                                          const clang::InitListExpr *Init,
                                          clang::SourceLocation Loc,
                                          const clang::FunctionDecl *Owner,
                                          bool Indeterminate = false);
  /// Object: the constructor of the object's own class, the most derived
  /// (Ctor itself when null).
  void addBaseConstructions(const clang::CXXConstructorDecl &Ctor,
                            bool ZeroInit, clang::SourceLocation Loc,
                            const clang::FunctionDecl *Owner,
                            const std::string &Name, unsigned Depth,
                            std::vector<Construction> &Out,
                            const clang::CXXConstructorDecl *Object = nullptr);
  std::optional<Construction> ofFactory(const clang::CallExpr &Call,
                                        const clang::FunctionDecl *Owner);
  /// The construction a standard function template's instantiation performs
  /// with its forwarded arguments, found in its body or its callees'.
  const clang::CXXConstructExpr *
  forwardedConstruction(const clang::FunctionDecl &FD);
  Construction make(const clang::CXXRecordDecl &RD, std::string Ctor,
                    std::string CtorName, clang::SourceLocation Loc,
                    const clang::FunctionDecl *Owner);
  ValueState stateOf(const clang::Expr *Arg, const clang::FunctionDecl *Owner);

  /// What the flow analysis of a constructor's init list and body proves
  /// of its callable fields at its exit (ExitEffects.h).
  const ExitEffect &exitEffect(const clang::CXXConstructorDecl &Def);

  clang::ASTContext &Ctx;
  const CallableTypes &Types;
  BodyIndexes &Indexes;
  CallResultOracle &Oracle;
  const AnalysisOptions &Opts;
  PassedValues &Passed;
  llvm::DenseMap<const clang::CXXRecordDecl *, bool> HasCallables;
  llvm::DenseMap<const clang::CXXConstructorDecl *, ExitEffect> AtExit;
  llvm::DenseMap<const clang::FunctionDecl *, const clang::CXXConstructExpr *>
      Forwarded;
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_CONSTRUCTIONS_H
