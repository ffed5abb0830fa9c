//===- MethodsElsewhere.h - Methods defined elsewhere -----------*- C++ -*-===//
//
// A class's setters and accessors are often defined in its own `.cpp`:
// `void setOnMessageCallback(const OnMessageCallback &cb);`, `bool
// isOnMessageCallbackRegistered() const;`. In every other TU the flow
// analysis sees calls whose effect on the object it does not know, so
// IXWebSocket's server, which either tests the callback after the
// connection hook and returns without one, or sets it through the setter,
// does not prove it set where it calls the method that calls it.
//
// The one-pass scan cannot give one TU's analysis another's facts, so, as
// for functions that never return (ExitsElsewhere.h), the question is turned
// round and the facts answer it at the end:
//  - the facts collector records, per method defined out of line, the
//    callable fields of its object that it leaves exactly as its parameter
//    (`copiesFields`, ExitEffects.h) and the field whose test its `bool`
//    result is (`testsField`, AccessorTests.h);
//  - where a caller's analysis does not prove a field set at a call that
//    passes the object on (PassedValues), it analyses the caller again,
//    assuming that the methods of the field's class that its TU sees
//    without a definition and whose signature allows it copy their
//    parameter into the field or test it (AssumedMethods). A call proved
//    set then records those assumptions (`PassedFieldFacts::SetIf`), which
//    count at the end only if the defining TUs' facts say they hold;
//  - getters likewise: the facts record the field a method returns
//    (`returnsField`, PolicySummaries::fieldReturned), and a finding that
//    a test of the same getter's result guards once the methods its TU sees
//    without a definition are taken to return their field (AssumedGetters:
//    amrex's `if (rec->derFuncFab() != nullptr) .. rec->derFuncFab()(..)`)
//    records each that alone does it (`Candidate::Getters`), for the facts
//    to decide.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_METHODSELSEWHERE_H
#define WRAPGUARD_ANALYSIS_METHODSELSEWHERE_H

#include "CallResultOracle.h"
#include "CallableTypes.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>
#include <vector>

namespace wrapguard {

/// The parameter through which M, a non-virtual void method of Field's
/// class, could set Field: the first whose type is Field's (references and
/// qualifiers aside). None when M cannot be such a setter.
std::optional<unsigned> setterParameter(const clang::CXXMethodDecl &M,
                                        const clang::FieldDecl &Field);

/// Whether M, a method of Field's class, could be an accessor of it: a
/// non-virtual `bool` method with no parameters.
bool mayTestField(const clang::CXXMethodDecl &M, const clang::FieldDecl &Field);

/// The callable field of M's class that M, a non-virtual method with no
/// parameters, could be a getter of (`Cb func() const;`, `const Cb
/// &func() const;`): the one field of the type M returns. None when M
/// cannot be one, or when several fields have that type.
const clang::FieldDecl *fieldMayReturn(const clang::CXXMethodDecl &M,
                                       const CallableTypes &Types);

/// A method taken to be a getter of the field (canonical declarations).
using GetterHypothesis =
    std::pair<const clang::CXXMethodDecl *, const clang::FieldDecl *>;

/// The methods FD's body calls on an object (lambdas are functions of their
/// own) that the TU sees without a definition and that could be getters
/// (fieldMayReturn), each with its field, in order of first call; at most
/// Max.
llvm::SmallVector<GetterHypothesis, 4>
gettersDefinedElsewhere(const clang::FunctionDecl &FD,
                        const CallableTypes &Types, unsigned Max);

/// An oracle that answers as Inner, and for Getters' methods (canonical
/// declarations, without a definition in this TU) that they return their
/// field (CallResultOracle::fieldReturned): a candidate's hypothesis,
/// which the facts of the defining TU decide (Candidate::Getters).
class AssumedGetters : public ForwardingOracle {
public:
  AssumedGetters(CallResultOracle &Inner,
                 llvm::ArrayRef<GetterHypothesis> Getters)
      : ForwardingOracle(Inner), Getters(Getters.begin(), Getters.end()) {}

  FieldPath fieldReturned(const clang::CXXMethodDecl &M) override;

private:
  llvm::DenseMap<const clang::CXXMethodDecl *, const clang::FieldDecl *>
      Getters;
};

/// One effect assumed of a method without a definition in this TU: it
/// copies parameter From into Field, or (From < 0) its result is the test
/// that Field is set.
struct AssumedMethodEffect {
  const clang::CXXMethodDecl *Method;
  const clang::FieldDecl *Field;
  int From;
};

/// An oracle that answers as Inner, and for the methods of Field's class
/// that this TU sees without a definition, answers that they copy their
/// parameter into Field (setterParameter) or test it (mayTestField),
/// recording each such answer it gives.
class AssumedMethods : public ForwardingOracle {
public:
  AssumedMethods(CallResultOracle &Inner, const clang::FieldDecl &Field)
      : ForwardingOracle(Inner), Field(Field) {}

  const MethodEffect *methodEffect(const clang::CXXMethodDecl &M) override;
  std::optional<AccessorTest>
  accessorTest(const clang::CXXMethodDecl &M) override;

  /// Restricts the hypothesis to Methods (canonical declarations).
  void restrictTo(llvm::ArrayRef<const clang::CXXMethodDecl *> Methods) {
    Only.emplace(Methods.begin(), Methods.end());
  }

  /// The answers given that Inner would not have given, in order.
  const std::vector<AssumedMethodEffect> &assumed() const { return Assumed; }

  /// Whether some call in FD's body (lambdas aside) is of a method that the
  /// hypothesis answers for: without one, an analysis under it proves
  /// nothing new.
  static bool assumesSomething(const clang::FunctionDecl &FD,
                               const clang::FieldDecl &Field);

private:
  const clang::FieldDecl &Field;
  llvm::DenseMap<const clang::CXXMethodDecl *, MethodEffect> Effects;
  std::vector<AssumedMethodEffect> Assumed;
  std::optional<llvm::SmallPtrSet<const clang::CXXMethodDecl *, 4>> Only;
  /// Whether the hypothesis may answer for M.
  bool mayAssume(const clang::CXXMethodDecl &M) const {
    return !M.hasBody() && (!Only || Only->count(M.getCanonicalDecl()));
  }
};

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_METHODSELSEWHERE_H
