//===- CallableTypes.cpp - Which types are nullable callables -------------===//

#include "CallableTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace wrapguard {

CallableTypes::CallableTypes(const std::vector<std::string> &ExtraTypeRegexes) {
  for (const std::string &R : ExtraTypeRegexes) {
    // Anchored: "::llvm::unique_function" must not also match
    // "::llvm::unique_function_ref".
    auto Re = std::make_unique<llvm::Regex>("^(" + R + ")$");
    std::string Err;
    if (Re->isValid(Err))
      Extra.push_back(std::move(Re));
  }
}

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
  if (!RD->lookup(Call).empty())
    return true;
  // Inherited call operators (e.g. a functor deriving from a base functor).
  for (const CXXBaseSpecifier &B : RD->bases())
    if (hasCallOperator(B.getType()))
      return true;
  return false;
}

bool CallableTypes::matchesExtra(const CXXRecordDecl &RD) const {
  if (Extra.empty())
    return false;
  std::string Name = "::" + RD.getQualifiedNameAsString();
  for (const auto &Re : Extra)
    if (Re->match(Name))
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
  if (matchesExtra(*RD))
    return CallableKind::FunctionObject;
  if (!RD->hasDefinition() || RD->isLambda() || RD->isInStdNamespace())
    return CallableKind::None;
  RD = RD->getDefinition();
  auto [It, New] = ClassCache.try_emplace(RD, false);
  if (New)
    It->second = isNullableCallableClass(*RD);
  return It->second ? CallableKind::FunctionObject : CallableKind::None;
}

/// A parameter of type std::nullptr_t.
static bool takesNullptr(const FunctionDecl &FD) {
  for (const ParmVarDecl *P : FD.parameters())
    if (P->getType().getNonReferenceType()->isNullPtrType())
      return true;
  return false;
}

static bool isNullComparison(const FunctionDecl &FD) {
  OverloadedOperatorKind Op = FD.getOverloadedOperator();
  return (Op == OO_EqualEqual || Op == OO_ExclaimEqual) && takesNullptr(FD);
}

bool CallableTypes::isNullableCallableClass(const CXXRecordDecl &RD) {
  if (!hasCallOperator(RD.getASTContext().getRecordType(&RD)))
    return false;
  for (const NamedDecl *D : RD.getVisibleConversionFunctions()) {
    const auto *Conv =
        dyn_cast<CXXConversionDecl>(D->getUnderlyingDecl()->getAsFunction());
    if (Conv && Conv->getConversionType()->isBooleanType())
      return true;
  }
  for (const CXXMethodDecl *M : RD.methods())
    if (isNullComparison(*M))
      return true;
  // Hidden friends: `friend bool operator==(const F&, std::nullptr_t)`.
  for (const FriendDecl *F : RD.friends())
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(F->getFriendDecl()))
      if (isNullComparison(*FD))
        return true;
  return false;
}

} // namespace wrapguard
