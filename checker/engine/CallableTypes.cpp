//===- CallableTypes.cpp - Which types are nullable callables -------------===//

#include "CallableTypes.h"
#include "EmptyObjectCalls.h"
#include "HandleWitnesses.h"
#include "SingleReturn.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace wrapguard {

QualifiedNameMatcher::QualifiedNameMatcher(
    const std::vector<std::string> &Patterns) {
  for (const std::string &R : Patterns) {
    auto Re = std::make_unique<llvm::Regex>("^(" + R + ")$");
    std::string Err;
    if (Re->isValid(Err))
      Res.push_back(std::move(Re));
  }
}

bool QualifiedNameMatcher::matches(const NamedDecl &D) const {
  if (Res.empty())
    return false;
  std::string Name = "::" + D.getQualifiedNameAsString();
  return llvm::any_of(Res, [&](const auto &Re) { return Re->match(Name); });
}

CallableTypes::CallableTypes(const std::vector<std::string> &ExtraTypeRegexes,
                             const std::vector<std::string> &InvokeMethods)
    : Extra(ExtraTypeRegexes), Invoke(InvokeMethods) {}

static const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  return T.getNonReferenceType()->getAsCXXRecordDecl();
}

/// The record's name when it is declared in namespace std (inline namespaces
/// such as libc++'s std::__1 included), else "".
static StringRef stdName(const CXXRecordDecl &RD) {
  if (!RD.isInStdNamespace() || !RD.getIdentifier())
    return "";
  return RD.getName();
}

StringRef stdRecordName(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD ? stdName(*RD) : "";
}

static QualType firstTemplateArg(const CXXRecordDecl &RD) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&RD);
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return QualType();
  const TemplateArgument &Arg = Spec->getTemplateArgs()[0];
  if (Arg.getKind() != TemplateArgument::Type)
    return QualType();
  return Arg.getAsType();
}

bool CallableTypes::hasCallOperator(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  if (RD->isLambda())
    return true;
  DeclarationName Call =
      RD->getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
  // Only a call operator the class's users can call: a private one, or one
  // inherited through a protected or private base, is an implementation
  // detail (openal-soft's `intrusive_ref<T, Deleter> : protected Deleter`,
  // which would make every pointer to a ref-counted context a callable).
  for (const NamedDecl *D : RD->lookup(Call))
    if (D->getAccess() == AS_public || D->getAccess() == AS_none)
      return true;
  // Inherited call operators (e.g. a functor deriving from a base functor).
  for (const CXXBaseSpecifier &B : RD->bases())
    if (B.getAccessSpecifier() == AS_public && hasCallOperator(B.getType()))
      return true;
  return false;
}

CallableKind CallableTypes::classify(QualType T) const {
  if (T.isNull())
    return CallableKind::None;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (T->isDependentType())
    return CallableKind::None;

  if (const auto *PT = T->getAs<PointerType>()) {
    QualType Pointee = PT->getPointeeType();
    if (Pointee->isFunctionType())
      return CallableKind::FunctionPointer;
    if (hasCallOperator(Pointee))
      return CallableKind::RawPointer;
    return CallableKind::None;
  }
  if (const auto *MPT = T->getAs<MemberPointerType>())
    return MPT->isMemberFunctionPointer() ? CallableKind::MemberFunctionPointer
                                          : CallableKind::None;

  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return CallableKind::None;
  StringRef Std = stdName(*RD);
  if (Std == "function" || Std == "move_only_function")
    return CallableKind::FunctionObject;
  if (Std == "shared_ptr" || Std == "unique_ptr") {
    QualType Pointee = firstTemplateArg(*RD);
    return !Pointee.isNull() && hasCallOperator(Pointee)
               ? CallableKind::SmartPointer
               : CallableKind::None;
  }
  if (Std == "optional") {
    QualType Inner = firstTemplateArg(*RD);
    if (Inner.isNull())
      return CallableKind::None;
    Inner = Inner.getCanonicalType();
    if (hasCallOperator(Inner) || Inner->isFunctionPointerType())
      return CallableKind::Optional;
    return CallableKind::None;
  }
  if (Extra.matches(*RD))
    return CallableKind::FunctionObject;
  if (!RD->hasDefinition() || RD->isLambda() || RD->isInStdNamespace())
    return CallableKind::None;
  RD = RD->getDefinition();
  auto [It, New] = ClassCache.try_emplace(RD, false);
  if (New)
    It->second = isNullableCallableClass(*RD);
  return It->second ? CallableKind::FunctionObject : CallableKind::None;
}

/// Whether Conv, a `bool` conversion of RD, gives the object's value and
/// not whether it can be called: its body returns the same expression as
/// RD's `bool operator()()` (ompl's PlannerTerminationCondition, `operator
/// bool() const { return eval(); }` beside `bool operator()() const {
/// return eval(); }`), or calls that operator. `if (!ptc)` then asks "must
/// the planner stop?", and the class is a predicate, not a handle.
static bool convertsToValue(const CXXConversionDecl &Conv,
                            const CXXRecordDecl &RD) {
  const Expr *Value = onlyReturned(Conv);
  if (!Value)
    return false;
  Value = Value->IgnoreParenImpCasts();
  // `return (*this)();`
  if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(Value);
      Call && Call->getOperator() == OO_Call && Call->getNumArgs() == 1)
    if (const auto *Deref =
            dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts());
        Deref && Deref->getOpcode() == UO_Deref &&
        isa<CXXThisExpr>(Deref->getSubExpr()->IgnoreParenImpCasts()))
      return true;
  ASTContext &Ctx = RD.getASTContext();
  DeclarationName CallName = Ctx.DeclarationNames.getCXXOperatorName(OO_Call);
  for (const NamedDecl *D : RD.lookup(CallName)) {
    const auto *Op = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl());
    if (!Op || Op->getNumParams() != 0 || !Op->getReturnType()->isBooleanType())
      continue;
    const Expr *Called = onlyReturned(*Op);
    if (!Called)
      continue;
    Called = Called->IgnoreParenImpCasts();
    llvm::FoldingSetNodeID A, B;
    Value->Profile(A, Ctx, /*Canonical=*/true);
    Called->Profile(B, Ctx, /*Canonical=*/true);
    if (A == B)
      return true;
  }
  return false;
}

/// Whether RD says if an object of it is empty: a conversion to bool that
/// is not the object's value, or a comparison with nullptr.
static bool testsItsEmptiness(const CXXRecordDecl &RD) {
  for (const NamedDecl *D : RD.getVisibleConversionFunctions()) {
    const auto *Conv =
        dyn_cast<CXXConversionDecl>(D->getUnderlyingDecl()->getAsFunction());
    if (Conv && Conv->getConversionType()->isBooleanType() &&
        !convertsToValue(*Conv, RD))
      return true;
  }
  for (const CXXMethodDecl *M : RD.methods())
    if (comparesWithNullptr(*M))
      return true;
  // Hidden friends: `friend bool operator==(const F&, std::nullptr_t)`.
  for (const FriendDecl *F : RD.friends())
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(F->getFriendDecl()))
      if (comparesWithNullptr(*FD))
        return true;
  return false;
}

bool CallableTypes::isNullableCallableClass(const CXXRecordDecl &RD) {
  // A class that can be empty but whose operator() does nothing that fails
  // when it is (a list of callbacks) is no nullable callable.
  return hasCallOperator(RD.getASTContext().getRecordType(&RD)) &&
         testsItsEmptiness(RD) && !callingEmptyIsHarmless(RD);
}

//===----------------------------------------------------------------------===//
// Methods that invoke the callable by name.
//===----------------------------------------------------------------------===//

namespace {

/// In one method's body: which of the object's own callables (the object
/// itself, `(*this)(..)`, or a nullable field, `body_(..)`) are called, and
/// which are tested for emptiness.
class OwnCallables : public RecursiveASTVisitor<OwnCallables> {
public:
  OwnCallables(const CXXRecordDecl &RD, const CallableTypes &Types)
      : RD(RD), Types(Types) {}

  bool VisitCallExpr(CallExpr *C) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C))
      if (OC->getOperator() == OO_Call && OC->getNumArgs() > 0)
        called(OC->getArg(0));
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (M && M->getOverloadedOperator() == OO_Call)
        called(MC->getImplicitObjectArgument());
      if (isa_and_nonnull<CXXConversionDecl>(M))
        tested(MC->getImplicitObjectArgument());
    } else if (!C->getDirectCallee()) {
      called(C->getCallee()); // A function-pointer field.
    }
    return true;
  }
  bool VisitExpr(Expr *E) {
    for (const Expr *Operand : emptinessTestOperands(*E))
      tested(Operand);
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  /// Some own callable is called and never tested.
  bool callsUnchecked() const {
    return llvm::any_of(Called,
                        [&](const void *C) { return !Tested.count(C); });
  }

private:
  /// The own callable E denotes: the object (`*this`, `this`), or a
  /// nullable field of it; null otherwise.
  const void *own(const Expr *E) {
    E = stripNoise(E);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      E = stripNoise(UO->getSubExpr());
    if (isa_and_nonnull<CXXThisExpr>(E))
      return &RD;
    const auto *ME = dyn_cast_or_null<MemberExpr>(E);
    if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
        !Types.isNullable(ME->getType()))
      return nullptr;
    return ME->getMemberDecl();
  }
  void called(const Expr *E) {
    if (const void *C = own(E))
      Called.insert(C);
  }
  void tested(const Expr *E) {
    if (const void *C = own(E))
      Tested.insert(C);
  }

  const CXXRecordDecl &RD;
  const CallableTypes &Types;
  llvm::SmallPtrSet<const void *, 4> Called, Tested;
};

} // namespace

bool CallableTypes::isInvokeMethod(const CXXMethodDecl &M) const {
  if (!M.getIdentifier() || M.isStatic() ||
      classify(M.getASTContext().getRecordType(M.getParent())) !=
          CallableKind::FunctionObject)
    return false;
  auto [It, New] = InvokeCache.try_emplace(&M, false);
  if (!New)
    return It->second;
  if (Invoke.matches(M))
    return It->second = true;
  // Only user classes are read: a library's handle is named by the option.
  if (M.getParent()->isInStdNamespace())
    return false;
  const FunctionDecl *Def = nullptr;
  if (!M.hasBody(Def) || !Def || Def->isDependentContext())
    return false;
  OwnCallables Uses(*M.getParent(), *this);
  Uses.TraverseStmt(Def->getBody());
  return It->second = Uses.callsUnchecked();
}

} // namespace wrapguard
