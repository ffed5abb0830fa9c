//===- FactsCollector.cpp - The project facts one TU holds ----------------===//

#include "FactsCollector.h"
#include "SourceKeys.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wrapguard {

namespace {

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

/// The facts of a field, created on first use; null when it has no key.
SourceFacts *fieldFacts(ProjectFacts &Out, const FieldDecl &FD) {
  auto Key = fieldKey(FD);
  if (!Key)
    return nullptr;
  return &Out.get(*Key, SourceKind::Field, FD.getQualifiedNameAsString());
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
             const CallableTypes &Types, BodyIndexes &Indexes,
             ProjectFacts &Out, Process Nested)
      : Owner(Owner), Ctx(Ctx), Types(Types), Indexes(Indexes), Out(Out),
        Nested(Nested) {}

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
    if (BO->getOpcode() == BO_Assign)
      noteAssigned(fieldOf(BO->getLHS()), BO->getRHS(), BO->getBeginLoc());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return true;
    noteAssigned(fieldOf(OC->getArg(0)), OC->getArg(1), OC->getBeginLoc());
    if (const Expr *Moved = movedFromObject(OC->getArg(1)))
      noteMovedFrom(fieldOf(Moved), OC->getBeginLoc());
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *C = CE->getConstructor();
    if (C && C->isMoveConstructor() && CE->getNumArgs() >= 1)
      if (const Expr *Moved = movedFromObject(CE->getArg(0)))
        noteMovedFrom(fieldOf(Moved), CE->getBeginLoc());
    // `Options o;`: an aggregate's implicit default constructor, used.
    if (C && C->isDefaultConstructor() && !C->isUserProvided())
      noteAggregateInit(*C->getParent(), nullptr, CE->getBeginLoc());
    return true;
  }

  // `Options{f}`, `entries.push_back({name, handler})`: aggregate
  // initialisation, which sets the fields it is given.
  bool VisitInitListExpr(InitListExpr *ILE) {
    const InitListExpr *Sem =
        ILE->isSemanticForm() ? ILE : ILE->getSemanticForm();
    if (Sem && Seen.insert(Sem).second)
      if (const auto *RD = Sem->getType()->getAsCXXRecordDecl())
        noteAggregateInit(*RD, Sem, Sem->getBeginLoc());
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
  /// An aggregate made here: each callable field it leaves empty is not set
  /// by "the constructor" `T()` at this place; one it sets counts as set.
  /// Aggregates are judged by the creations seen, not by a constructor that
  /// may never run.
  void noteAggregateInit(const CXXRecordDecl &RD, const InitListExpr *Init,
                         SourceLocation Loc) {
    if (RD.hasUserDeclaredConstructor() || !RD.hasDefinition() ||
        Ctx.getSourceManager().isInSystemHeader(RD.getLocation()))
      return;
    for (const FieldDecl *FD : RD.getDefinition()->fields()) {
      if (!isUserField(FD))
        continue;
      const Expr *Value = FD->getInClassInitializer();
      if (Init && FD->getFieldIndex() < Init->getNumInits())
        Value = Init->getInit(FD->getFieldIndex());
      bool Sets = Value && !isEmptyValue(Value, Ctx);
      // A CXXDefaultInitExpr stands for the default member initializer.
      if (isa_and_nonnull<CXXDefaultInitExpr>(Value))
        Sets = FD->getInClassInitializer() &&
               !isEmptyValue(FD->getInClassInitializer(), Ctx);
      auto Key = fieldKey(*FD);
      if (!Key)
        continue;
      SourceFacts &F =
          Out.get(*Key, SourceKind::Field, FD->getQualifiedNameAsString());
      CtorFact C{RD.getNameAsString() + "()", Sets,
                 factLoc(Loc, Ctx.getSourceManager(), &Owner)};
      auto [It, New] =
          F.Constructors.try_emplace(*Key + (Sets ? "@set" : "@empty"), C);
      if (!New && C.Loc < It->second.Loc)
        It->second = C;
    }
  }

  /// `obj.f = value`: emptied, or set outside the class's constructors.
  void noteAssigned(const FieldDecl *FD, const Expr *Value,
                    SourceLocation Loc) {
    if (isEmptyValue(Value, Ctx))
      return noteEmptied(FD, Loc);
    if (!isUserField(FD))
      return;
    if (const auto *C = dyn_cast<CXXConstructorDecl>(&Owner);
        C && C->getParent() == FD->getParent())
      return;
    if (SourceFacts *F = fieldFacts(Out, *FD))
      keepFirst(F->SetAt, factLoc(Loc, Ctx.getSourceManager(), &Owner));
  }

  void noteTest(const Expr &Tested, SourceLocation Loc) {
    SourceSet S = sourcesOf(Tested, Owner, Ctx, Types, Indexes.of(Owner));
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
    if (SourceFacts *F = fieldFacts(Out, *FD))
      keepFirst(F->EmptiedAt, factLoc(Loc, Ctx.getSourceManager(), &Owner));
  }

  /// A field moved out of is empty afterwards, except in its own class's
  /// copy and move members, whose source object is dead by convention.
  void noteMovedFrom(const FieldDecl *FD, SourceLocation Loc) {
    if (!FD)
      return;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&Owner)) {
      bool Special =
          MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator();
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
  BodyIndexes &Indexes;
  ProjectFacts &Out;
  Process Nested;
  llvm::SmallPtrSet<const InitListExpr *, 8> Seen;
};

class TUWalker : public RecursiveASTVisitor<TUWalker> {
public:
  TUWalker(ASTContext &Ctx, const CallableTypes &Types,
           PolicySummaries &Summaries, BodyIndexes &Indexes, ProjectFacts &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Types(Types),
        Summaries(Summaries), Indexes(Indexes), Out(Out) {}

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
    // Named: the walker keeps only a function_ref to it.
    auto Nested = [this](const FunctionDecl &L) { processFunction(L); };
    BodyWalker Walker(FD, Ctx, Types, Indexes, Out, Nested);
    // A constructor's member initializers test and call callables as its
    // body does (`: v_(f ? f(1) : 0)`).
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
      for (const CXXCtorInitializer *I : Ctor->inits())
        if (I->isWritten())
          Walker.TraverseStmt(I->getInit());
    Walker.TraverseStmt(FD.getBody());
  }

  /// The definition's summary, under its own key and, for an override, under
  /// every method it overrides: a virtual call's facts are the join over the
  /// overrides seen.
  void recordDefinition(const FunctionDecl &FD) {
    SourceLocation EmptyAt;
    Emptiness S = Summaries.summarize(FD, &EmptyAt);
    FactLoc L = EmptyAt.isValid() ? factLoc(EmptyAt, SM, &FD) : FactLoc();
    llvm::SmallVector<const FunctionDecl *> Keys{&FD};
    if (isa<CXXMethodDecl>(&FD))
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
      F.Definition = joinDefinitions(F.Definition, S);
      keepFirst(F.EmptyReturn, L);
    }
  }

  void processRecord(const CXXRecordDecl &RD) {
    for (const FieldDecl *FD : RD.fields()) {
      if (!Types.isNullable(FD->getType()))
        continue;
      if (SourceFacts *F = fieldFacts(Out, *FD))
        recordConstructors(RD, *FD, *F);
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
    // An aggregate is judged where it is made (BodyWalker), except that a
    // non-empty default member initializer sets the field however it is.
    if (!RD.hasUserDeclaredConstructor()) {
      if (defaultInitSets(FD, Ctx))
        F.Constructors.try_emplace(
            *fieldKey(FD) + "@set",
            CtorFact{RD.getNameAsString() + "()", true,
                     factLoc(RD.getLocation(), SM, nullptr)});
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
    return bodySets(D->getBody(), FD, Depth);
  }

  /// An unconditional non-empty assignment to FD at the top level of Body,
  /// or in a method of the same class that Body calls there (`reset()`,
  /// `init()`), a few calls deep.
  bool bodySets(const Stmt *BodyStmt, const FieldDecl &FD, unsigned Depth) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(BodyStmt);
    if (!Body)
      return false;
    for (const Stmt *S : Body->body()) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
          MC && Depth < 3 &&
          isa<CXXThisExpr>(stripNoise(MC->getImplicitObjectArgument()))) {
        const CXXMethodDecl *M = MC->getMethodDecl();
        const FunctionDecl *Def = nullptr;
        if (M && M->getParent() == FD.getParent() && M->hasBody(Def) &&
            bodySets(Def->getBody(), FD, Depth + 1))
          return true;
        continue;
      }
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
  BodyIndexes &Indexes;
  ProjectFacts &Out;
  llvm::SmallPtrSet<const FunctionDecl *, 32> Done;
};

} // namespace

void collectTUFacts(ASTContext &Ctx, const CallableTypes &Types,
                    PolicySummaries &Summaries, BodyIndexes &Indexes,
                    ProjectFacts &Out) {
  TUWalker(Ctx, Types, Summaries, Indexes, Out).TraverseAST(Ctx);
}

} // namespace wrapguard
