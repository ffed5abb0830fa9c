//===- CallableTypes.cpp - Which types are nullable callables -------------===//

#include "CallableTypes.h"
#include "clang/AST/DeclCXX.h"
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
  return CallableKind::None;
}

} // namespace wrapguard
