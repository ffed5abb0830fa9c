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

namespace clang {
class CallExpr;
class CFGElement;
class CXXConstructExpr;
class CXXMethodDecl;
class FieldDecl;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace wrapguard {

class CallResultOracle {
public:
  virtual ~CallResultOracle() = default;
  virtual Emptiness classifyCallResult(const clang::CallExpr &Call) = 0;
  /// Whether Elt calls a function that never returns (a call, a
  /// construction, a destructor at a scope's end): the path ends there.
  virtual bool endsPath(const clang::CFGElement &Elt) { return false; }
  /// The state of a callable object of a class outside namespace std right
  /// after Construct, which passes no argument of its own.
  virtual Emptiness afterConstruction(const clang::CXXConstructExpr &) {
    return Emptiness::Unknown;
  }
  /// The callable fields of `*this` that every return of Method leaves
  /// non-empty (`void reset_to_default() { p_ = dflt; }`), for a call of it
  /// on `this`.
  virtual llvm::ArrayRef<const clang::FieldDecl *>
  fieldsSetBy(const clang::CXXMethodDecl &) {
    return {};
  }
  /// For a function returning a reference to a callable, the static or
  /// global variable every return of its visible body names: its calls
  /// denote that storage (`static Cb &get() { static Cb cb; return cb; }`).
  virtual const clang::VarDecl *storageReturned(const clang::FunctionDecl &) {
    return nullptr;
  }
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

} // namespace wrapguard

#endif // WRAPGUARD_ENGINE_CALLRESULTORACLE_H
