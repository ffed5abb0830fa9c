//===- TraversalScope.cpp - What each TU's checks walk --------------------===//

#include "TraversalScope.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MD5.h"
#include <set>

using namespace clang;

namespace wrapguard {

bool ClaimSet::claim(llvm::StringRef Key) {
  std::lock_guard<std::mutex> Guard(Lock);
  return Claimed.insert(Key).second;
}

void ClaimSet::release(llvm::ArrayRef<std::string> Keys) {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const std::string &Key : Keys)
    Claimed.erase(Key);
}

namespace {

std::optional<std::string> usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(D, Buf))
    return std::nullopt;
  return std::string(Buf);
}

/// What a unit's analysis can see in this TU beyond its own text: the
/// template instantiations inside it, and the definitions outside it (not in
/// system headers) of the functions it uses and of its own members.
class SignatureWalker : public RecursiveASTVisitor<SignatureWalker> {
public:
  SignatureWalker(const SourceManager &SM, const Decl &Unit) : SM(SM) {
    SourceRange R = Unit.getSourceRange();
    Begin = SM.getDecomposedExpansionLoc(R.getBegin());
    End = SM.getDecomposedExpansionLoc(R.getEnd());
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isTemplateInstantiation() && FD->doesThisDeclarationHaveABody())
      add("i:", *FD);
    // A member declared here and defined elsewhere in this TU.
    if (const FunctionDecl *Def = FD->getDefinition(); Def && Def != FD)
      used(Def);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    used(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    used(E->getMemberDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    used(E->getConstructor());
    return true;
  }

  std::set<std::string> Seen;

private:
  void used(const Decl *D) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(D);
    const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
    if (Def && !inside(*Def) && !SM.isInSystemHeader(Def->getLocation()))
      add("d:", *Def);
  }
  bool inside(const Decl &D) const {
    std::pair<FileID, unsigned> L =
        SM.getDecomposedExpansionLoc(D.getLocation());
    return L.first == Begin.first && L.second >= Begin.second &&
           L.second <= End.second;
  }
  void add(llvm::StringRef Kind, const Decl &D) {
    if (std::optional<std::string> USR = usrOf(&D))
      Seen.insert((Kind + *USR).str());
  }

  const SourceManager &SM;
  std::pair<FileID, unsigned> Begin, End;
};

/// Whether \p D holds code to analyse or facts to collect: a definition
/// (with a body, an initializer). A forward declaration shares its USR with
/// the definition, so it must not claim it under the definition's key (but
/// see holdsInstantiations).
bool isDefinition(const Decl &D) {
  if (const auto *T = dyn_cast<TemplateDecl>(&D))
    return T->getTemplatedDecl() && isDefinition(*T->getTemplatedDecl());
  if (const auto *F = dyn_cast<FunctionDecl>(&D))
    return F->doesThisDeclarationHaveABody();
  if (const auto *T = dyn_cast<TagDecl>(&D))
    return T->isThisDeclarationADefinition();
  if (const auto *V = dyn_cast<VarDecl>(&D))
    return V->hasInit();
  return false;
}

/// Whether \p D is the first declaration of a template that this TU
/// instantiated, without being its definition: tiny-dnn's
/// `template <typename NetType> class network;` ahead of the class, or a
/// function template declared before it is defined. RecursiveASTVisitor,
/// and so the checks' matchers and the facts collector, visits a template's
/// instantiations at its first declaration only (TraverseTemplateInstantiations
/// runs for the canonical declaration), never at a later definition: such a
/// declaration holds the code of every instantiation, and is a unit of its
/// own. Not when the definition is in a system header (a project header
/// that declares a library's template ahead of it): that code is never
/// walked under the scope.
bool holdsInstantiations(const Decl &D, const SourceManager &SM) {
  if (!D.isCanonicalDecl())
    return false;
  const Decl *Definition = nullptr;
  bool Instantiated = false;
  if (const auto *C = dyn_cast<ClassTemplateDecl>(&D)) {
    Definition = C->getTemplatedDecl()->getDefinition();
    Instantiated = !C->specializations().empty();
  } else if (const auto *F = dyn_cast<FunctionTemplateDecl>(&D)) {
    Definition = F->getTemplatedDecl()->getDefinition();
    Instantiated = !F->specializations().empty();
  } else if (const auto *V = dyn_cast<VarTemplateDecl>(&D)) {
    Definition = V->getTemplatedDecl()->getDefinition();
    Instantiated = !V->specializations().empty();
  }
  return Instantiated && Definition &&
         !SM.isInSystemHeader(Definition->getLocation());
}

/// The claim key of a unit in this TU; none when it has no USR, and is
/// then walked by every TU that has it, as before claims.
std::optional<std::string> claimKey(const Decl &Unit, const SourceManager &SM,
                                    llvm::StringRef FlagsKey) {
  std::optional<std::string> USR = usrOf(&Unit);
  if (!USR || USR->empty())
    return std::nullopt;
  // The walker sees the instantiations where the visitors do: through the
  // first declaration, so they are in its key (a TU that instantiates the
  // template with other types sees it otherwise).
  SignatureWalker Walker(SM, Unit);
  Walker.TraverseDecl(const_cast<Decl *>(&Unit));
  llvm::MD5 Hash;
  Hash.update(FlagsKey);
  // A first declaration shares its USR with the template's definition, a
  // unit of its own: the role keeps their keys apart.
  if (!isDefinition(Unit)) {
    Hash.update(llvm::ArrayRef<uint8_t>{0});
    Hash.update("first declaration");
  }
  for (const std::string &S : Walker.Seen) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  }
  llvm::MD5::MD5Result Digest;
  Hash.final(Digest);
  return *USR + "#" + Digest.digest().str().str();
}

} // namespace

void ScopeConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  std::vector<Decl *> Scope;
  // A TU that does not compile is not analysed (the check skips it): it
  // claims nothing, so that another TU analyses the headers it shares.
  bool Claiming = !Ctx.getDiagnostics().hasUncompilableErrorOccurred();

  // Units: top-level declarations of project headers, looked into through
  // namespaces and linkage specifications.
  std::function<void(DeclContext &)> Walk = [&](DeclContext &DC) {
    for (Decl *D : DC.decls()) {
      SourceLocation Loc = D->getLocation();
      if (Loc.isInvalid())
        continue;
      if (SM.getFileID(SM.getExpansionLoc(Loc)) == Main) {
        Scope.push_back(D);
        continue;
      }
      if (SM.isInSystemHeader(Loc)) {
        if (!Restrict)
          Scope.push_back(D);
        continue;
      }
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
        Walk(*cast<DeclContext>(D));
        continue;
      }
      if (!Claiming || !(isDefinition(*D) || holdsInstantiations(*D, SM))) {
        if (!Restrict)
          Scope.push_back(D);
        continue;
      }
      std::optional<std::string> Key = claimKey(*D, SM, FlagsKey);
      if (!Key) {
        Scope.push_back(D);
        continue;
      }
      Record.Contained.push_back(*Key);
      if (Claims.claim(*Key)) {
        Record.Owned.push_back(*Key);
        Scope.push_back(D);
      }
    }
  };
  Walk(*Ctx.getTranslationUnitDecl());
  Ctx.setTraversalScope(Scope);
}

} // namespace wrapguard
