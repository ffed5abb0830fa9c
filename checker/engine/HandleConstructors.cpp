//===- HandleConstructors.cpp - Is a freshly built handle empty? ----------===//

#include "HandleConstructors.h"
#include "CallableTypes.h"
#include "HandleWitnesses.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace wrapguard {

/// How many constructors and callees one question may open, nested
/// (`Linear()` -> `ModuleHolder()` -> `default_construct()`). Past it the
/// answer is Unknown, which keeps the check quiet.
static constexpr unsigned MaxHandleDepth = 4;

/// Returns taken together; one not understood leaves the whole unknown.
static Emptiness joinReturns(Emptiness A, Emptiness B) {
  if (A == B)
    return A;
  if (A == Emptiness::Unknown || B == Emptiness::Unknown)
    return Emptiness::Unknown;
  return Emptiness::MayBeEmpty;
}

llvm::SmallVector<const FieldDecl *, 2>
HandleConstructors::witnesses(const CXXRecordDecl &RD) {
  auto It = Witnesses.find(&RD);
  if (It != Witnesses.end())
    return It->second;
  return Witnesses[&RD] = emptinessWitnesses(RD, /*ReadPatterns=*/false);
}

Emptiness HandleConstructors::afterConstruction(const CXXConstructExpr &CE) {
  const CXXConstructorDecl *Ctor = CE.getConstructor();
  if (!Ctor)
    return Emptiness::Unknown;
  llvm::SmallVector<const FieldDecl *, 2> W = witnesses(*Ctor->getParent());
  if (W.empty())
    return Emptiness::Unknown;
  llvm::ArrayRef<const Expr *> Args(CE.getArgs(), CE.getNumArgs());
  // The handle is empty when any witness is: `operator bool` is a
  // conjunction of the witnesses in every class this was measured on.
  Emptiness Result = Emptiness::NonEmpty;
  for (const FieldDecl *F : W) {
    Emptiness E = fieldAfter(*Ctor, Args, *F, 0);
    if (E == Emptiness::Unknown || E == Emptiness::MayBeEmpty)
      return E;
    if (E == Emptiness::AlwaysEmpty)
      Result = Emptiness::AlwaysEmpty;
  }
  return Result;
}

namespace {
/// Whether a constructor's body writes field F (assigns it, calls a
/// non-const method on it, takes its address): then its initialiser is not
/// the last word, and the answer is left to the flow analysis (Unknown).
class WritesField : public RecursiveASTVisitor<WritesField> {
public:
  explicit WritesField(const FieldDecl &F) : F(F) {}
  bool VisitMemberExpr(MemberExpr *ME) {
    if (ME->getMemberDecl() == &F)
      Found = true;
    return !Found;
  }
  // Any call of another method may write it too.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    if (isa<CXXThisExpr>(
            MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      if (const CXXMethodDecl *M = MC->getMethodDecl())
        if (!M->isConst())
          Found = true;
    return !Found;
  }
  const FieldDecl &F;
  bool Found = false;
};
} // namespace

Emptiness HandleConstructors::fieldAfter(const CXXConstructorDecl &Ctor,
                                         llvm::ArrayRef<const Expr *> Args,
                                         const FieldDecl &F, unsigned Depth) {
  const FunctionDecl *DefFD = nullptr;
  if (Depth > MaxHandleDepth || !Ctor.hasBody(DefFD) || !DefFD)
    return Emptiness::Unknown;
  const auto *Def = cast<CXXConstructorDecl>(DefFD);
  if (!InProgress.insert(Def).second)
    return Emptiness::Unknown;
  auto Done = [&](Emptiness E) {
    InProgress.erase(Def);
    return E;
  };
  if (Def->getBody()) {
    WritesField W(F);
    W.TraverseStmt(Def->getBody());
    if (W.Found)
      return Done(Emptiness::Unknown);
  }
  const auto *Owner = cast<CXXRecordDecl>(F.getParent());
  for (const CXXCtorInitializer *Init : Def->inits()) {
    const Expr *E = Init->getInit();
    if (Init->isDelegatingInitializer()) {
      if (const auto *Inner = dyn_cast_or_null<CXXConstructExpr>(stripNoise(E)))
        return Done(
            fieldAfter(*Inner->getConstructor(),
                       llvm::ArrayRef(Inner->getArgs(), Inner->getNumArgs()), F,
                       Depth + 1));
      return Done(Emptiness::Unknown);
    }
    if (Init->isBaseInitializer()) {
      const CXXRecordDecl *Base = Init->getBaseClass()->getAsCXXRecordDecl();
      if (!Base || (Base != Owner && !Base->isDerivedFrom(Owner)))
        continue;
      const auto *Inner = dyn_cast_or_null<CXXConstructExpr>(stripNoise(E));
      if (!Inner) // Inheriting constructors, aggregates: not read.
        return Done(Emptiness::Unknown);
      return Done(fieldAfter(
          *Inner->getConstructor(),
          llvm::ArrayRef(Inner->getArgs(), Inner->getNumArgs()), F, Depth + 1));
    }
    if (Init->getMember() == &F)
      return Done(valueOf(E, Def, Args, Depth + 1));
  }
  return Done(Emptiness::Unknown);
}

/// The std smart pointers and std::function: a default-constructed one is
/// empty, and one made from a pointer is what the pointer is.
static bool isStdNullableRecord(QualType T) {
  StringRef N = stdRecordName(T);
  return N == "shared_ptr" || N == "unique_ptr" || N == "function" ||
         N == "move_only_function";
}

Emptiness HandleConstructors::valueOf(const Expr *E, const FunctionDecl *Callee,
                                      llvm::ArrayRef<const Expr *> Args,
                                      unsigned Depth) {
  if (!E || Depth > MaxHandleDepth)
    return Emptiness::Unknown;
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return valueOf(DI->getExpr(), Callee, Args, Depth + 1);
  E = stripNoise(E);
  if (!E)
    return Emptiness::Unknown;
  // nullptr, NULL, 0 (CallableSyntax's isNullLiteral depends on this file).
  if (E->getType()->isNullPtrType() ||
      (!E->isValueDependent() &&
       E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull))
    return Emptiness::AlwaysEmpty;
  if (isa<CXXNewExpr, LambdaExpr>(E))
    return Emptiness::NonEmpty;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return Emptiness::NonEmpty;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<FunctionDecl>(DRE->getDecl()))
      return Emptiness::NonEmpty;
    // A parameter of the constructor being read: what the construction
    // passed, or the parameter's default.
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (Callee && P->getDeclContext() == Callee) {
        unsigned I = P->getFunctionScopeIndex();
        if (I < Args.size()) {
          const Expr *A = Args[I];
          if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(A))
            A = DA->getExpr();
          // The argument belongs to the caller: no parameters of its own.
          return valueOf(A, nullptr, {}, Depth + 1);
        }
      }
    return Emptiness::Unknown;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (!isStdNullableRecord(CE->getType()))
      return Emptiness::Unknown;
    if (CE->getNumArgs() == 0 ||
        llvm::all_of(CE->arguments(),
                     [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
      return Emptiness::AlwaysEmpty;
    return valueOf(CE->getArg(0), Callee, Args, Depth + 1);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return Emptiness::Unknown;
    if (FD->isInStdNamespace() && FD->getIdentifier() &&
        (FD->getName() == "make_shared" || FD->getName() == "make_unique" ||
         FD->getName() == "allocate_shared"))
      return Emptiness::NonEmpty;
    if ((FD->isInStdNamespace() && FD->getIdentifier() &&
         (FD->getName() == "move" || FD->getName() == "forward")) &&
        Call->getNumArgs() == 1)
      return valueOf(Call->getArg(0), Callee, Args, Depth + 1);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (MD->isVirtual())
        return Emptiness::Unknown;
    return returnsOf(*FD, Depth + 1);
  }
  return Emptiness::Unknown;
}

namespace {
class Returns : public RecursiveASTVisitor<Returns> {
public:
  bool VisitReturnStmt(ReturnStmt *R) {
    Values.push_back(R->getRetValue());
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  llvm::SmallVector<const Expr *, 2> Values;
};
} // namespace

Emptiness HandleConstructors::returnsOf(const FunctionDecl &FD,
                                        unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > MaxHandleDepth || !FD.hasBody(Def) || !Def ||
      !InProgress.insert(Def).second)
    return Emptiness::Unknown;
  Returns R;
  R.TraverseStmt(Def->getBody());
  std::optional<Emptiness> Result;
  for (const Expr *V : R.Values) {
    // A callee's own parameters are not followed.
    Emptiness E = valueOf(V, nullptr, {}, Depth + 1);
    Result = Result ? joinReturns(*Result, E) : E;
  }
  InProgress.erase(Def);
  return Result.value_or(Emptiness::Unknown);
}

/// How a move from an object of RD treats the source.
enum class MoveKind { Copies, Memberwise, Own };

static MoveKind moveKind(const CXXRecordDecl &RD) {
  const CXXConstructorDecl *Move = nullptr, *Copy = nullptr;
  for (const CXXConstructorDecl *C : RD.ctors()) {
    if (C->isMoveConstructor())
      Move = C;
    else if (C->isCopyConstructor())
      Copy = C;
  }
  if (Move)
    return Move->isDefaulted() || Move->isTrivial() ? MoveKind::Memberwise
                                                    : MoveKind::Own;
  // Not declared yet: implicit when nothing suppresses it; a user-declared
  // copy constructor (or assignment, or destructor) suppresses it, and the
  // copy constructor then does the move.
  if (RD.needsImplicitMoveConstructor())
    return MoveKind::Memberwise;
  if (RD.hasUserDeclaredCopyConstructor() &&
      !RD.hasUserDeclaredMoveConstructor())
    return MoveKind::Copies;
  return Copy && !Copy->isDeleted() ? MoveKind::Copies : MoveKind::Own;
}

/// How the constructor or assignment Op, called with an rvalue of its class,
/// treats the source.
static MoveKind moveKind(const CXXMethodDecl &Op) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(&Op);
  bool IsMove =
      Ctor ? Ctor->isMoveConstructor() : Op.isMoveAssignmentOperator();
  bool IsCopy =
      Ctor ? Ctor->isCopyConstructor() : Op.isCopyAssignmentOperator();
  if (IsCopy)
    return MoveKind::Copies;
  if (IsMove && (Op.isDefaulted() || Op.isTrivial()))
    return MoveKind::Memberwise;
  return MoveKind::Own;
}

bool moveLeavesSource(QualType T, const CXXMethodDecl *Op) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isInStdNamespace() || RD->isLambda())
    return false;
  RD = RD->getDefinition();
  if (Op && Op->getParent()->getCanonicalDecl() != RD->getCanonicalDecl())
    Op = nullptr; // Another class's constructor receives the object.
  switch (Op ? moveKind(*Op) : moveKind(*RD)) {
  case MoveKind::Copies:
    return true;
  case MoveKind::Own:
    return false;
  case MoveKind::Memberwise:
    break;
  }
  llvm::SmallVector<const FieldDecl *, 2> W =
      emptinessWitnesses(*RD, /*ReadPatterns=*/true);
  return !W.empty() && llvm::all_of(W, [](const FieldDecl *F) {
    return F->getType().getCanonicalType()->isScalarType();
  });
}

} // namespace wrapguard
