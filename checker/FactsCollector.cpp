//===- FactsCollector.cpp - The project facts one TU holds ----------------===//

#include "FactsCollector.h"
#include "PolicyCallModel.h"
#include "SourceKeys.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wrapguard {

namespace {

DefSummary toDefSummary(Emptiness E) {
  switch (E) {
  case Emptiness::NonEmpty:
    return DefSummary::NeverEmpty;
  case Emptiness::MayBeEmpty:
    return DefSummary::MayBeEmpty;
  case Emptiness::AlwaysEmpty:
    return DefSummary::AlwaysEmpty;
  case Emptiness::Unknown:
    return DefSummary::Unknown;
  }
  return DefSummary::Unknown;
}

/// `Layer(int, int)`: how a constructor is named in notes.
std::string constructorName(const CXXConstructorDecl &C) {
  PrintingPolicy PP(C.getASTContext().getLangOpts());
  PP.SuppressTagKeyword = true;
  std::string S = C.getParent()->getNameAsString() + "(";
  for (unsigned I = 0; I < C.getNumParams(); ++I) {
    if (I)
      S += ", ";
    S += C.getParamDecl(I)->getType().getAsString(PP);
  }
  return S + ")";
}

const FieldDecl *fieldOf(const Expr *E) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(stripNoise(E));
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

/// The facts of one function body: tests for emptiness and fields emptied.
/// Lambdas are walked as functions of their own.
class BodyWalker : public RecursiveASTVisitor<BodyWalker> {
public:
  using Process = llvm::function_ref<void(const FunctionDecl &)>;
  BodyWalker(const FunctionDecl &Owner, ASTContext &Ctx,
             const CallableTypes &Types, ProjectFacts &Out, Process Nested)
      : Owner(Owner), Ctx(Ctx), Types(Types), Out(Out), Nested(Nested) {}

  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (!L->getDependentCallOperator())
      Nested(*L->getCallOperator());
    return true;
  }

  bool VisitExpr(Expr *E) {
    if (const Expr *Tested = testedCallable(*E, Types, Ctx))
      noteTest(*Tested, E->getBeginLoc());
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && isEmptyValue(BO->getRHS(), Ctx))
      noteEmptied(fieldOf(BO->getLHS()), BO->getBeginLoc());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return true;
    if (isEmptyValue(OC->getArg(1), Ctx))
      noteEmptied(fieldOf(OC->getArg(0)), OC->getBeginLoc());
    else if (const Expr *Moved = movedFromObject(OC->getArg(1)))
      noteMovedFrom(fieldOf(Moved), OC->getBeginLoc());
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *C = CE->getConstructor();
    if (C && C->isMoveConstructor() && CE->getNumArgs() >= 1)
      if (const Expr *Moved = movedFromObject(CE->getArg(0)))
        noteMovedFrom(fieldOf(Moved), CE->getBeginLoc());
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "reset" &&
        MC->getNumArgs() == 0)
      noteEmptied(fieldOf(MC->getImplicitObjectArgument()), MC->getBeginLoc());
    return true;
  }

private:
  void noteTest(const Expr &Tested, SourceLocation Loc) {
    SourceSet S = sourcesOf(Tested, Owner, Ctx, Types);
    FactLoc L = factLoc(Loc, Ctx.getSourceManager(), &Owner);
    for (const SourceUse &U : S.Sources) {
      SourceFacts &F = Out.get(U.Key, U.Kind, U.Name);
      ++F.Tested;
      keepFirst(F.TestedAt, L);
    }
  }

  bool isUserField(const FieldDecl *FD) {
    return FD && Types.isNullable(FD->getType()) &&
           !Ctx.getSourceManager().isInSystemHeader(FD->getLocation());
  }

  void noteEmptied(const FieldDecl *FD, SourceLocation Loc) {
    if (!isUserField(FD))
      return;
    auto Key = fieldKey(*FD);
    if (!Key)
      return;
    SourceFacts &F =
        Out.get(*Key, SourceKind::Field, FD->getQualifiedNameAsString());
    keepFirst(F.EmptiedAt, factLoc(Loc, Ctx.getSourceManager(), &Owner));
  }

  /// A field moved out of is empty afterwards, except in its own class's
  /// copy and move members, whose source object is dead by convention.
  void noteMovedFrom(const FieldDecl *FD, SourceLocation Loc) {
    if (!FD)
      return;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&Owner)) {
      bool Special = MD->isCopyAssignmentOperator() ||
                     MD->isMoveAssignmentOperator();
      if (const auto *C = dyn_cast<CXXConstructorDecl>(MD))
        Special |= C->isCopyOrMoveConstructor();
      if (Special && MD->getParent() == FD->getParent())
        return;
    }
    noteEmptied(FD, Loc);
  }

  const FunctionDecl &Owner;
  ASTContext &Ctx;
  const CallableTypes &Types;
  ProjectFacts &Out;
  Process Nested;
};

class TUWalker : public RecursiveASTVisitor<TUWalker> {
public:
  TUWalker(ASTContext &Ctx, const CallableTypes &Types,
           PolicySummaries &Summaries, ProjectFacts &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Types(Types),
        Summaries(Summaries), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  // Lambda bodies are walked by BodyWalker, as functions of their own.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !FD->isInvalidDecl())
      processFunction(*FD);
    return true;
  }

  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() && !RD->isLambda() &&
        !RD->isDependentContext() && !RD->isInvalidDecl())
      processRecord(*RD);
    return true;
  }

private:
  void processFunction(const FunctionDecl &FD) {
    if (!Done.insert(&FD).second)
      return;
    if (Types.isNullable(FD.getReturnType()))
      recordDefinition(FD);
    BodyWalker(FD, Ctx, Types, Out,
               [this](const FunctionDecl &L) { processFunction(L); })
        .TraverseStmt(FD.getBody());
  }

  /// The definition's summary, under its own key and, for an override, under
  /// every method it overrides: a virtual call's facts are the join over the
  /// overrides seen.
  void recordDefinition(const FunctionDecl &FD) {
    SourceLocation EmptyAt;
    DefSummary S = toDefSummary(Summaries.summarize(FD, &EmptyAt));
    FactLoc L = EmptyAt.isValid() ? factLoc(EmptyAt, SM, &FD) : FactLoc();
    llvm::SmallVector<const FunctionDecl *> Keys{&FD};
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD))
      for (size_t I = 0; I < Keys.size(); ++I)
        for (const CXXMethodDecl *O :
             cast<CXXMethodDecl>(Keys[I])->overridden_methods())
          Keys.push_back(O);
    for (const FunctionDecl *K : Keys) {
      auto Key = functionKey(*K);
      if (!Key)
        continue;
      SourceFacts &F =
          Out.get(*Key, SourceKind::Function, K->getQualifiedNameAsString());
      F.Definition = join(F.Definition, S);
      keepFirst(F.EmptyReturn, L);
    }
  }

  void processRecord(const CXXRecordDecl &RD) {
    for (const FieldDecl *FD : RD.fields()) {
      if (!Types.isNullable(FD->getType()))
        continue;
      auto Key = fieldKey(*FD);
      if (!Key)
        continue;
      SourceFacts &F =
          Out.get(*Key, SourceKind::Field, FD->getQualifiedNameAsString());
      recordConstructors(RD, *FD, F);
    }
  }

  static bool defaultInitSets(const FieldDecl &FD, ASTContext &Ctx) {
    const Expr *Init = FD.getInClassInitializer();
    return Init && !isEmptyValue(Init, Ctx);
  }

  /// What each constructor defined here does with FD. The implicit default
  /// constructor exists when no constructor is declared.
  void recordConstructors(const CXXRecordDecl &RD, const FieldDecl &FD,
                          SourceFacts &F) {
    if (!RD.hasUserDeclaredConstructor()) {
      // Keyed by the field, which is unique to its class.
      auto FieldKey = fieldKey(FD);
      CtorFact C{RD.getNameAsString() + "()", defaultInitSets(FD, Ctx),
                 factLoc(RD.getLocation(), SM, nullptr)};
      F.Constructors.try_emplace(*FieldKey + "@implicit-default", C);
      return;
    }
    for (const CXXConstructorDecl *Ctor : RD.ctors()) {
      if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted() ||
          Ctor->isImplicit())
        continue;
      std::optional<bool> Sets = constructorSets(*Ctor, FD, 0);
      if (!Sets)
        continue; // Defined in another TU, which records it.
      auto Key = functionKey(*Ctor);
      if (!Key)
        continue;
      // The note points at the definition, where the field is (not) set.
      const FunctionDecl *Def = Ctor;
      Ctor->hasBody(Def);
      CtorFact C{constructorName(*Ctor), *Sets,
                 factLoc(Def->getLocation(), SM, Def)};
      auto [It, New] = F.Constructors.try_emplace(*Key, C);
      if (!New)
        It->second.SetsField = It->second.SetsField && *Sets;
    }
  }

  /// Whether Ctor leaves FD non-empty: a non-empty mem-initializer (an
  /// in-class initializer counts, the compiler lists it there too), else an
  /// unconditional non-empty assignment in the body; nullopt when the
  /// definition is not in this TU.
  std::optional<bool> constructorSets(const CXXConstructorDecl &Ctor,
                                      const FieldDecl &FD, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (Ctor.isDefaulted())
      return defaultInitSets(FD, Ctx);
    if (!Ctor.hasBody(Def) || !Def)
      return std::nullopt;
    const auto *D = cast<CXXConstructorDecl>(Def);
    if (D->isDelegatingConstructor()) {
      if (const CXXConstructorDecl *T = D->getTargetConstructor();
          T && Depth < 4)
        return constructorSets(*T, FD, Depth + 1);
      return true;
    }
    for (const CXXCtorInitializer *I : D->inits()) {
      if (I->getMember() != &FD)
        continue;
      // Written, or the default member initializer; an empty one may still
      // be followed by an assignment in the body.
      if (I->isWritten() ? !isEmptyValue(I->getInit(), Ctx)
                         : defaultInitSets(FD, Ctx))
        return true;
      break;
    }
    const auto *Body = dyn_cast_or_null<CompoundStmt>(D->getBody());
    if (!Body)
      return false;
    for (const Stmt *S : Body->body()) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E)
        continue;
      E = stripNoise(E);
      const Expr *LHS = nullptr, *RHS = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && BO->getOpcode() == BO_Assign) {
        LHS = BO->getLHS();
        RHS = BO->getRHS();
      } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
                 OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        LHS = OC->getArg(0);
        RHS = OC->getArg(1);
      }
      if (LHS && fieldOf(LHS) == &FD && !isEmptyValue(RHS, Ctx))
        return true;
    }
    return false;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const CallableTypes &Types;
  PolicySummaries &Summaries;
  ProjectFacts &Out;
  llvm::SmallPtrSet<const FunctionDecl *, 32> Done;
};

} // namespace

void collectTUFacts(ASTContext &Ctx, const CallableTypes &Types,
                    PolicySummaries &Summaries, ProjectFacts &Out) {
  TUWalker(Ctx, Types, Summaries, Out).TraverseAST(Ctx);
}

} // namespace wrapguard
