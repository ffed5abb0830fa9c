//===- CallableSyntax.cpp - What the syntax says about callables ----------===//

#include "CallableSyntax.h"
#include "CallableTypes.h"
#include "HandleConstructors.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace wrapguard {

bool isNullLiteral(const Expr *E, ASTContext &Ctx) {
  E = stripNoise(E);
  if (!E)
    return false;
  if (E->getType()->isNullPtrType())
    return true;
  if (const auto *RD = E->getType()->getAsCXXRecordDecl())
    if (RD->isInStdNamespace() && RD->getName() == "nullopt_t")
      return true;
  return !E->isValueDependent() &&
         E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
             Expr::NPCK_NotNull;
}

std::optional<Equality> equalityOf(const Expr &E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(&E); BO && BO->isEqualityOp())
    return Equality{BO->getLHS(), BO->getRHS(), BO->getOpcode() == BO_EQ};
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&E);
      OC && OC->getNumArgs() == 2 &&
      (OC->getOperator() == OO_EqualEqual ||
       OC->getOperator() == OO_ExclaimEqual))
    return Equality{OC->getArg(0), OC->getArg(1),
                    OC->getOperator() == OO_EqualEqual};
  return std::nullopt;
}

std::optional<NullComparison> nullComparisonOf(const Expr &E, ASTContext &Ctx) {
  std::optional<Equality> Eq = equalityOf(E);
  if (!Eq)
    return std::nullopt;
  if (isNullLiteral(Eq->RHS, Ctx))
    return NullComparison{Eq->LHS, Eq->IsEq};
  if (isNullLiteral(Eq->LHS, Ctx))
    return NullComparison{Eq->RHS, Eq->IsEq};
  return std::nullopt;
}

bool isEmptyValue(const Expr *E, ASTContext &Ctx) {
  E = stripNoise(E);
  if (!E)
    return false;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 0 ||
        llvm::all_of(CE->arguments(),
                     [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); })) {
      // `Fn()`, `std::shared_ptr<F>()`: the standard's types are empty when
      // default-constructed. A functor object (`Acc()`) is a target, not an
      // empty callable; another callable class is what its constructor
      // leaves (HandleConstructors.h).
      const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl();
      if (!RD || RD->isInStdNamespace())
        return true;
      if (!CallableTypes::isNullableCallableClass(*RD))
        return false;
      return HandleConstructors(Ctx).afterConstruction(*CE) ==
             Emptiness::AlwaysEmpty;
    }
    return isEmptyValue(CE->getArg(0), Ctx);
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return ILE->getNumInits() == 0 ||
           (ILE->getNumInits() == 1 && isEmptyValue(ILE->getInit(0), Ctx));
  if (isa<ImplicitValueInitExpr, CXXScalarValueInitExpr>(E))
    return true;
  return isNullLiteral(E, Ctx);
}

/// `std::move(x)` (or std::forward) returns the location of x: the object a
/// move constructor or assignment leaves moved-from.
const Expr *movedFromObject(const Expr *Arg) {
  const auto *Call = dyn_cast_or_null<CallExpr>(stripNoise(Arg));
  if (!Call || Call->getNumArgs() != 1)
    return nullptr;
  if (!isStdFunction(Call->getDirectCallee(), "move"))
    return nullptr;
  return Call->getArg(0);
}

std::optional<Assignment> assignmentOf(const Stmt *S) {
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
      BO && BO->getOpcode() == BO_Assign)
    return Assignment{BO->getLHS(), BO->getRHS()};
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(S);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    return Assignment{OC->getArg(0), OC->getArg(1)};
  return std::nullopt;
}

bool sameStorage(const Expr *A, const Expr *B) {
  A = stripNoise(A);
  B = stripNoise(B);
  if (!A || !B)
    return false;
  if (const auto *MA = dyn_cast<MemberExpr>(A)) {
    const auto *MB = dyn_cast<MemberExpr>(B);
    return MB && MA->getMemberDecl() == MB->getMemberDecl() &&
           MA->isArrow() == MB->isArrow() &&
           sameStorage(MA->getBase(), MB->getBase());
  }
  if (const auto *DA = dyn_cast<DeclRefExpr>(A)) {
    const auto *DB = dyn_cast<DeclRefExpr>(B);
    return DB && DA->getDecl() == DB->getDecl();
  }
  return isa<CXXThisExpr>(A) && isa<CXXThisExpr>(B);
}

bool isStdFunction(const FunctionDecl *FD, StringRef Name) {
  return FD && FD->isInStdNamespace() && FD->getIdentifier() &&
         FD->getName() == Name;
}

//===----------------------------------------------------------------------===//
// Maps of callables: `operator[]` inserts an empty value for a missing key.
//===----------------------------------------------------------------------===//

/// std::map / std::unordered_map whose mapped type is a nullable callable.
bool isCallableMap(QualType T, const CallableTypes &Types) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier())
    return false;
  StringRef N = RD->getName();
  if (N != "map" && N != "unordered_map")
    return false;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() < 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
    return false;
  return Types.isNullable(Spec->getTemplateArgs()[1].getAsType());
}

const Expr *callableMapSubscript(const CallExpr &C,
                                 const CallableTypes &Types) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(&C);
  if (!OC || OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2)
    return nullptr;
  const Expr *M = OC->getArg(0);
  return isCallableMap(M->getType(), Types) ? M : nullptr;
}

std::string mappedTypeName(const Expr &M, ASTContext &Ctx) {
  // The declared type keeps the user's spelling (an alias such as WrapFn);
  // the specialisation's own arguments are canonical.
  QualType T = stripNoise(&M)->getType().getNonReferenceType();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(&M)))
    T = DRE->getDecl()->getType().getNonReferenceType();
  else if (const auto *ME = dyn_cast<MemberExpr>(stripNoise(&M)))
    T = ME->getMemberDecl()->getType().getNonReferenceType();
  PrintingPolicy PP(Ctx.getLangOpts());
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (TST->template_arguments().size() >= 2 &&
        TST->template_arguments()[1].getKind() == TemplateArgument::Type)
      return TST->template_arguments()[1].getAsType().getAsString(PP);
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl()))
    return Spec->getTemplateArgs()[1].getAsType().getAsString(PP);
  return "callable";
}

} // namespace wrapguard
