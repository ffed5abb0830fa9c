//===- SiblingSlots.cpp - What a call says of its table's other slots -----===//

#include "SiblingSlots.h"
#include "CallableSyntax.h"
#include "Guards.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace wrapguard {

/// The signature of a callable field's type: a pointer to a function, or a
/// class template whose first argument is a function type
/// (`std::function<R(A..)>`).
static const FunctionProtoType *signatureOf(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    return PT->getPointeeType()->getAs<FunctionProtoType>();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Spec->getTemplateArgs()[0].getAsType()->getAs<FunctionProtoType>();
}

/// The class T points or refers to (once), or that T is; null for any other
/// type. An opaque handle (`typedef struct ev *ev_t;`) gives its struct.
static const RecordDecl *classBehind(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const RecordDecl *RD = T->getAsRecordDecl();
  return RD ? cast<RecordDecl>(RD->getCanonicalDecl()) : nullptr;
}

/// Whether a slot of signature Sig makes objects of class RD: it returns a
/// pointer to one, or hands one out through a pointer to a pointer
/// (`int (*create)(dev *, ev_t *out)`).
static bool makes(const FunctionProtoType &Sig, const RecordDecl &RD) {
  QualType Ret = Sig.getReturnType();
  if (Ret->isPointerType() && classBehind(Ret) == &RD)
    return true;
  return llvm::any_of(Sig.getParamTypes(), [&](QualType P) {
    const auto *Out = P->getAs<PointerType>();
    return Out && Out->getPointeeType()->isPointerType() &&
           classBehind(Out->getPointeeType()) == &RD;
  });
}

std::vector<std::string> siblingSlotAtoms(const CallSite &Site, ParentMap &PM,
                                          const CallableTypes &Types,
                                          ASTContext &Ctx) {
  std::vector<std::string> Out;
  const auto *ME = dyn_cast_or_null<MemberExpr>(stripNoise(Site.Callable));
  const auto *Called = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!Called || !Site.Call)
    return Out;
  const RecordDecl *Table = Called->getParent();
  auto IsSlot = [&](const FieldDecl &Slot) {
    return &Slot != Called && Slot.getParent() == Table &&
           Types.isNullable(Slot.getType());
  };
  // Tests of the same object's other slots on the way to the call.
  for (const CallableTest &T : callableTestsAt(*Site.Call, PM, Types, Ctx)) {
    const auto *Tested = dyn_cast_or_null<MemberExpr>(T.Tested);
    const auto *Slot =
        Tested ? dyn_cast<FieldDecl>(Tested->getMemberDecl()) : nullptr;
    if (!Slot || !IsSlot(*Slot) ||
        !sameStorage(Tested->getBase(), ME->getBase()))
      continue;
    if (std::optional<std::string> Key = fieldKey(*Slot))
      Out.push_back(T.NonEmpty ? *Key : negateAtom(*Key));
  }
  // An object passed that sibling slots make: one of them is set.
  for (const Expr *Arg : Site.Args) {
    const RecordDecl *Made =
        Arg ? classBehind(Arg->IgnoreParenImpCasts()->getType()) : nullptr;
    if (!Made)
      continue;
    std::vector<std::string> Makers;
    for (const FieldDecl *Slot : Table->fields())
      if (const FunctionProtoType *Sig = signatureOf(Slot->getType());
          Sig && IsSlot(*Slot) && makes(*Sig, *Made))
        if (std::optional<std::string> Key = fieldKey(*Slot))
          Makers.push_back(*Key);
    if (!Makers.empty())
      Out.push_back(llvm::join(Makers, "|"));
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

} // namespace wrapguard
