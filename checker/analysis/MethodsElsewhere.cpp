//===- MethodsElsewhere.cpp - Methods defined elsewhere -------------------===//

#include "MethodsElsewhere.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

using namespace clang;

namespace wrapguard {

/// A method whose calls run this definition: not virtual (an override may
/// do something else), not static, not a constructor, destructor or
/// operator, and of Field's own class.
static bool plainMethodOf(const CXXMethodDecl &M, const FieldDecl &Field) {
  if (M.isStatic() || isa<CXXConstructorDecl, CXXDestructorDecl>(M) ||
      M.isOverloadedOperator() || isa<CXXConversionDecl>(M) ||
      (M.isVirtual() && !M.hasAttr<FinalAttr>() &&
       !M.getParent()->hasAttr<FinalAttr>()))
    return false;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field.getParent());
  return Class &&
         M.getParent()->getCanonicalDecl() == Class->getCanonicalDecl();
}

std::optional<unsigned> setterParameter(const CXXMethodDecl &M,
                                        const FieldDecl &Field) {
  if (!plainMethodOf(M, Field) || !M.getReturnType()->isVoidType() ||
      M.isConst())
    return std::nullopt;
  QualType Want = Field.getType().getCanonicalType().getUnqualifiedType();
  for (const ParmVarDecl *P : M.parameters())
    if (P->getType()
            .getNonReferenceType()
            .getCanonicalType()
            .getUnqualifiedType() == Want)
      return P->getFunctionScopeIndex();
  return std::nullopt;
}

bool mayTestField(const CXXMethodDecl &M, const FieldDecl &Field) {
  return plainMethodOf(M, Field) && M.getReturnType()->isBooleanType() &&
         M.getNumParams() == 0;
}

const FieldDecl *fieldMayReturn(const CXXMethodDecl &M,
                                const CallableTypes &Types) {
  QualType Returned = M.getReturnType();
  if (M.getNumParams() || Returned->isRValueReferenceType() ||
      !Types.isNullable(Returned))
    return nullptr;
  QualType Want =
      Returned.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const FieldDecl *Found = nullptr;
  const CXXRecordDecl *Class = M.getParent()->getDefinition();
  if (!Class)
    return nullptr;
  for (const FieldDecl *F : Class->fields()) {
    if (F->getType().getCanonicalType().getUnqualifiedType() != Want)
      continue;
    if (Found)
      return nullptr; // Which one, only the definition says.
    Found = F;
  }
  return Found && plainMethodOf(M, *Found) ? Found : nullptr;
}

llvm::SmallVector<GetterHypothesis, 4>
gettersDefinedElsewhere(const FunctionDecl &FD, const CallableTypes &Types,
                        unsigned Max) {
  llvm::SmallVector<GetterHypothesis, 4> Out;
  llvm::SmallPtrSet<const CXXMethodDecl *, 8> Seen;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr, BlockExpr>(S) || Out.size() >= Max)
      return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
      if (const CXXMethodDecl *M = MC->getMethodDecl();
          M && !M->hasBody() && Seen.insert(M->getCanonicalDecl()).second)
        if (const FieldDecl *F = fieldMayReturn(*M, Types))
          Out.push_back({cast<CXXMethodDecl>(M->getCanonicalDecl()), F});
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD.getBody());
  return Out;
}

FieldPath AssumedGetters::fieldReturned(const CXXMethodDecl &M) {
  if (FieldPath P = Inner.fieldReturned(M); !P.empty())
    return P;
  auto It = Getters.find(cast<CXXMethodDecl>(M.getCanonicalDecl()));
  if (It == Getters.end() || M.hasBody())
    return {};
  FieldPath P;
  P.push_back(It->second);
  return P;
}

const MethodEffect *AssumedMethods::methodEffect(const CXXMethodDecl &M) {
  if (const MethodEffect *E = Inner.methodEffect(M))
    return E;
  if (!mayAssume(M))
    return nullptr;
  std::optional<unsigned> From = setterParameter(M, Field);
  if (!From)
    return nullptr;
  auto [It, New] = Effects.try_emplace(M.getCanonicalDecl());
  if (New) {
    It->second.FromParameter.push_back({&Field, *From});
    Assumed.push_back(
        {cast<CXXMethodDecl>(M.getCanonicalDecl()), &Field, int(*From)});
  }
  return &It->second;
}

std::optional<AccessorTest>
AssumedMethods::accessorTest(const CXXMethodDecl &M) {
  if (std::optional<AccessorTest> T = Inner.accessorTest(M))
    return T;
  if (!mayAssume(M) || !mayTestField(M, Field))
    return std::nullopt;
  const auto *Canon = cast<CXXMethodDecl>(M.getCanonicalDecl());
  if (llvm::none_of(Assumed, [&](const AssumedMethodEffect &A) {
        return A.Method == Canon;
      }))
    Assumed.push_back({Canon, &Field, -1});
  AccessorTest T;
  T.Fields.push_back(&Field);
  return T;
}

namespace {
class HypothesisFinder : public RecursiveASTVisitor<HypothesisFinder> {
public:
  explicit HypothesisFinder(const FieldDecl &Field) : Field(Field) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    Found = M && !M->hasBody() &&
            (setterParameter(*M, Field) || mayTestField(*M, Field));
    return !Found;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool Found = false;

private:
  const FieldDecl &Field;
};
} // namespace

bool AssumedMethods::assumesSomething(const FunctionDecl &FD,
                                      const FieldDecl &Field) {
  HypothesisFinder F(Field);
  F.TraverseStmt(FD.getBody());
  return F.Found;
}

} // namespace wrapguard
