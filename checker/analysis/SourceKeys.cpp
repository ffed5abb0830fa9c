//===- SourceKeys.cpp - Keys of the sources of callables ------------------===//

#include "SourceKeys.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace wrapguard {

static std::optional<std::string> usrOf(const Decl &D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(&D, Buf) || Buf.empty())
    return std::nullopt;
  return std::string(Buf);
}

std::optional<std::string> functionKey(const FunctionDecl &FD) {
  const FunctionDecl *Canon = &FD;
  // An instantiation is keyed by its template's pattern, so facts about a
  // template member meet whichever instantiation a TU sees.
  if (const FunctionDecl *Pattern = FD.getTemplateInstantiationPattern())
    Canon = Pattern;
  if (auto U = usrOf(*Canon->getCanonicalDecl()))
    return "f:" + *U;
  return std::nullopt;
}

std::optional<std::string> fieldKey(const FieldDecl &FD) {
  // Which member of a union holds a value is decided by a tag the facts do
  // not see (`kind == kGenFunc ? help.gen_func() : help.literal`): a
  // construction that sets the other member leaves this one no emptier.
  if (FD.getParent()->isUnion())
    return std::nullopt;
  if (auto U = usrOf(FD))
    return "m:" + *U;
  return std::nullopt;
}

std::optional<std::string> globalKey(const VarDecl &V) {
  if (!V.hasGlobalStorage() || V.isStaticLocal() || V.isLocalVarDecl() ||
      isa<ParmVarDecl>(V))
    return std::nullopt;
  // Each specialization of a class template has a static member of its own,
  // with a USR of its own: unlike a function's code, its storage is not
  // shared with the template's.
  if (auto U = usrOf(*V.getCanonicalDecl()))
    return "g:" + *U;
  return std::nullopt;
}

/// Whether D is declared inside a specialization of a class template
/// (`Outer<0>::Impl<T>::Impl(T *, Fn)`).
static bool inClassTemplateSpecialization(const Decl &D) {
  for (const DeclContext *DC = D.getDeclContext(); DC; DC = DC->getParent())
    if (isa<ClassTemplateSpecializationDecl>(DC))
      return true;
  return false;
}

std::optional<std::string> parameterKey(const ParmVarDecl &P) {
  const auto *Fn = dyn_cast<FunctionDecl>(P.getDeclContext());
  if (!Fn)
    return std::nullopt;
  // A member of a class template's specialization has parameters of its own
  // in each specialization, as the class has fields of its own (classKey):
  // what the calls of `Impl<Null>::Impl` pass says nothing of
  // `Impl<Real>::Impl`'s parameter (dlib's member_function_pointer, whose
  // null specialization passes 0 where the others pass a member pointer).
  if (inClassTemplateSpecialization(*Fn))
    if (auto U = usrOf(*Fn->getCanonicalDecl()))
      return "p:" + *U + "#" + std::to_string(P.getFunctionScopeIndex());
  auto K = functionKey(*Fn);
  if (!K)
    return std::nullopt;
  return "p:" + K->substr(2) + "#" + std::to_string(P.getFunctionScopeIndex());
}

std::optional<std::string> objectParameterKey(const CXXMethodDecl &M) {
  // A virtual method is also reached through the calls of the methods it
  // overrides, which the facts do not count for it.
  if (M.isStatic() || M.isVirtual() ||
      isa<CXXConstructorDecl, CXXDestructorDecl>(M))
    return std::nullopt;
  auto K = functionKey(M);
  if (!K)
    return std::nullopt;
  return "p:" + K->substr(2) + "#this";
}

std::optional<std::string> classKey(const CXXRecordDecl &RD) {
  // Each specialization of a class template is its own class, as its
  // fields are (fieldKey): `Op<true>()` may set a field that `Op<false>()`
  // leaves empty, so their constructions must not be counted together.
  if (auto U = usrOf(*RD.getCanonicalDecl()))
    return "c:" + *U;
  return std::nullopt;
}

const FunctionDecl *namedFunction(const FunctionDecl &FD) {
  const FunctionDecl *F = &FD;
  while (const auto *MD = dyn_cast<CXXMethodDecl>(F)) {
    if (!MD->getParent()->isLambda())
      break;
    const DeclContext *DC = MD->getParent()->getDeclContext();
    while (DC && !isa<FunctionDecl>(DC))
      DC = DC->getParent();
    if (!DC)
      break;
    F = cast<FunctionDecl>(DC);
  }
  return F;
}

FactLoc factLoc(SourceLocation Loc, const SourceManager &SM,
                const FunctionDecl *Owner) {
  FactLoc L;
  SourceLocation E = SM.getExpansionLoc(Loc);
  if (E.isInvalid())
    return L;
  FileID FID = SM.getFileID(E);
  if (OptionalFileEntryRef F = SM.getFileEntryRefForID(FID)) {
    StringRef Real = F->getFileEntry().tryGetRealPathName();
    llvm::SmallString<256> Path(Real.empty() ? F->getName() : Real);
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    L.File = std::string(Path);
  }
  L.Offset = SM.getFileOffset(E);
  L.Line = SM.getExpansionLineNumber(E);
  L.Column = SM.getExpansionColumnNumber(E);
  if (Owner)
    L.Function = namedFunction(*Owner)->getQualifiedNameAsString();
  return L;
}
} // namespace wrapguard
