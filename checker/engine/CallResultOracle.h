//===- CallResultOracle.h - What a call returning a callable yields C++ -*-===//
//
// The transfer function asks this, at every call whose result is a nullable
// callable, what the result may be. PolicySummaries answers from the callee's
// definition, annotations or name; tests may answer otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ENGINE_CALLRESULTORACLE_H
#define WRAPGUARD_ENGINE_CALLRESULTORACLE_H

#include "Emptiness.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace clang {
class CallExpr;
class CFGElement;
class CXXConstructExpr;
class CXXConstructorDecl;
class CXXMethodDecl;
class FieldDecl;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace wrapguard {

/// Fields from an object to one of its (nested) members, outermost first.
using FieldPath = llvm::SmallVector<const clang::FieldDecl *, 2>;

/// The callable fields of `*this` that every return of a method leaves
/// non-empty (`void reset_to_default() { p_ = dflt; }`), and those it leaves
/// exactly as non-empty as one of its parameters (`void set(const Cb &cb) {
/// std::lock_guard<std::mutex> l(mu_); cb_ = cb; }`).
struct MethodEffect {
  llvm::SmallVector<const clang::FieldDecl *, 2> Set;
  llvm::SmallVector<std::pair<const clang::FieldDecl *, unsigned>, 2>
      FromParameter;
  /// Those it leaves empty (`reset() { cb_ = nullptr; }`), and those it
  /// changes otherwise: unknown after the call.
  llvm::SmallVector<const clang::FieldDecl *, 2> Emptied;
  llvm::SmallVector<const clang::FieldDecl *, 2> Changed;
};

/// What a `bool` accessor tests (AccessorTests.h): the callable fields of
/// `*this` that its result says are set, or, Negated, the one it says is
/// empty. Partial: a predicate whose `true` implies the fields are set and
/// whose `false` says nothing of them (it also tests other state).
struct AccessorTest {
  llvm::SmallVector<const clang::FieldDecl *, 4> Fields;
  bool Negated = false;
  bool Partial = false;
};

class CallResultOracle {
public:
  virtual ~CallResultOracle() = default;
  virtual Emptiness classifyCallResult(const clang::CallExpr &Call) = 0;
  /// Whether Elt calls a function that never returns (a call, a
  /// construction, a destructor at a scope's end): the path ends there.
  virtual bool endsPath(const clang::CFGElement &Elt) { return false; }
  /// The parameter a call's callee returns only when true (an assertion
  /// function of the project's, NeverReturns::returnsOnlyIf): past the
  /// call, the argument holds.
  virtual std::optional<unsigned> returnsOnlyIf(const clang::FunctionDecl &) {
    return std::nullopt;
  }
  /// The state of a callable object of a class outside namespace std right
  /// after Construct, which passes no argument of its own.
  virtual Emptiness afterConstruction(const clang::CXXConstructExpr &) {
    return Emptiness::Unknown;
  }
  /// What a call of Method does to the callable fields of the object it is
  /// called on, as the flow analysis of its body proves at its exit
  /// (ExitEffects.h): empty when it changes none of them, null when that is
  /// not known (no definition, a virtual method, over budget).
  virtual const MethodEffect *methodEffect(const clang::CXXMethodDecl &) {
    return nullptr;
  }
  /// Likewise for a construction by Ctor (not a copy or a move): the fields
  /// it leaves set, empty, as one of its arguments, or changed otherwise
  /// (`Timer t(nullptr);` leaves `cb_` as empty as its argument).
  virtual const MethodEffect *
  constructorEffect(const clang::CXXConstructorDecl &) {
    return nullptr;
  }
  /// What a call of Method tests, when it is an accessor of a callable
  /// field (AccessorTests.h).
  virtual std::optional<AccessorTest>
  accessorTest(const clang::CXXMethodDecl &) {
    return std::nullopt;
  }
  /// For a function returning a reference to a callable, or to an object
  /// with callable fields (a singleton's `instance()`), the static or global
  /// variable every return of its visible body names: its calls denote that
  /// storage (`static Cb &get() { static Cb cb; return cb; }`).
  virtual const clang::VarDecl *storageReturned(const clang::FunctionDecl &) {
    return nullptr;
  }
  /// For a method returning a callable, the member of its object that its
  /// one statement returns (`const Cb &cb() const { return m_cb; }`), or of
  /// a member subobject of it (`return m_data.m_cb;`), as the path of fields
  /// from the object, outermost first. By reference, its calls denote that
  /// member of the object they are called on; by value (`Cb cb() const {
  /// return m_cb; }`, of the member's own type), they give what the member
  /// holds there. Empty when none.
  virtual FieldPath fieldReturned(const clang::CXXMethodDecl &) { return {}; }
  /// Whether FD's visible body reads only its parameters (and what they
  /// point to) and constants, and writes nothing outside itself: two calls
  /// with the same arguments give the same value.
  virtual bool isPure(const clang::FunctionDecl &) { return false; }
  /// Whether FD loads a symbol at run time and returns null when it is
  /// missing: dlsym, dlvsym, GetProcAddress, or a function whose visible
  /// body returns what one of those returns.
  virtual bool isLoader(const clang::FunctionDecl &) { return false; }
  /// Whether Method's visible body returns one pointer member of `*this`
  /// (or what it points to, for a reference) on every return and writes
  /// nothing of `*this`: the `operator->`, `operator*` or `get()` of a
  /// smart pointer of the project's own (`optional_ptr<T>`). Its calls on
  /// an object nothing changes in between denote one object.
  virtual bool isPointerAccessor(const clang::CXXMethodDecl &) { return false; }
  /// Whether Load, a loader's call in Owner, is stored and then tested
  /// through `dlerror()` before any use (see LoaderChecks.h): past the
  /// test, the stored pointer is set.
  virtual bool loadTested(const clang::CallExpr &Load,
                          const clang::FunctionDecl &Owner) {
    return false;
  }
};

/// An oracle that answers as Inner: the base of those that change one
/// answer for an analysis under a hypothesis (AssumedExits,
/// AssumedMethods).
class ForwardingOracle : public CallResultOracle {
public:
  explicit ForwardingOracle(CallResultOracle &Inner) : Inner(Inner) {}

  Emptiness classifyCallResult(const clang::CallExpr &Call) override {
    return Inner.classifyCallResult(Call);
  }
  bool endsPath(const clang::CFGElement &Elt) override {
    return Inner.endsPath(Elt);
  }
  std::optional<unsigned>
  returnsOnlyIf(const clang::FunctionDecl &FD) override {
    return Inner.returnsOnlyIf(FD);
  }
  Emptiness afterConstruction(const clang::CXXConstructExpr &CE) override {
    return Inner.afterConstruction(CE);
  }
  const MethodEffect *methodEffect(const clang::CXXMethodDecl &M) override {
    return Inner.methodEffect(M);
  }
  const MethodEffect *
  constructorEffect(const clang::CXXConstructorDecl &C) override {
    return Inner.constructorEffect(C);
  }
  std::optional<AccessorTest>
  accessorTest(const clang::CXXMethodDecl &M) override {
    return Inner.accessorTest(M);
  }
  const clang::VarDecl *storageReturned(const clang::FunctionDecl &F) override {
    return Inner.storageReturned(F);
  }
  FieldPath fieldReturned(const clang::CXXMethodDecl &M) override {
    return Inner.fieldReturned(M);
  }
  bool isPure(const clang::FunctionDecl &F) override { return Inner.isPure(F); }
  bool isLoader(const clang::FunctionDecl &F) override {
    return Inner.isLoader(F);
  }
  bool isPointerAccessor(const clang::CXXMethodDecl &M) override {
    return Inner.isPointerAccessor(M);
  }
  bool loadTested(const clang::CallExpr &Load,
                  const clang::FunctionDecl &Owner) override {
    return Inner.loadTested(Load, Owner);
  }

protected:
  CallResultOracle &Inner;
};

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CALLRESULTORACLE_H
