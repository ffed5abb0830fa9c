//===- FactsCollector.cpp - The project facts one TU holds ----------------===//

#include "FactsCollector.h"
#include "BeliefTests.h"
#include "CallableSyntax.h"
#include "ContainerElements.h"
#include "ExitsElsewhere.h"
#include "FlagParameters.h"
#include "Guards.h"
#include "HandleConstructors.h"
#include "MethodsElsewhere.h"
#include "SetAfterConstruction.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "ValueSources.h"
#include "VouchingFlags.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wrapguard {

namespace {

const FieldDecl *fieldOf(const Expr *E) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(stripNoise(E));
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

/// How notes name the function a parameter belongs to: a lambda's call
/// operator by the function it is in.
std::string ownerName(const FunctionDecl &FD) {
  const FunctionDecl *Named = namedFunction(FD);
  std::string Name = Named->getQualifiedNameAsString();
  return Named == &FD ? Name : "lambda in " + Name;
}

/// The signature a function pointer of type FT calls, as the facts key
/// it: return and parameter types, canonical, without the exception
/// specification a pointer conversion drops (`int(Plugin *)`).
std::string signatureOf(const FunctionProtoType &FT, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  std::string Out =
      FT.getReturnType().getCanonicalType().getAsString(Policy) + "(";
  for (unsigned I = 0; I < FT.getNumParams(); ++I)
    Out += (I ? "," : "") +
           FT.getParamType(I).getCanonicalType().getAsString(Policy);
  return Out + (FT.isVariadic() ? ",...)" : ")");
}

/// The class a pointer or a non-const lvalue reference of type T lets its
/// holder write (`Plugin *`, `Plugin &`); null for const and for others.
const CXXRecordDecl *writableClass(QualType T) {
  QualType Pointee;
  if (T->isPointerType() || T->isLValueReferenceType())
    Pointee = T->getPointeeType();
  if (Pointee.isNull() || Pointee.isConstQualified())
    return nullptr;
  return Pointee->getAsCXXRecordDecl();
}

/// What every walker of one TU shares.
struct Collector {
  ASTContext &Ctx;
  const SourceManager &SM;
  const CallableTypes &Types;
  PolicySummaries &Summaries;
  BodyIndexes &Indexes;
  Constructions &Cs;
  PassedValues &Passed;
  ProjectFacts &Out;
  SetAfterConstruction &SetAfter;
  /// For the functions' FunctionBelief.
  CallsMemberCache CallsMember{};
  /// Methods already recorded as called (noteNamed): a key is made once.
  llvm::SmallPtrSet<const CXXMethodDecl *, 16> Named{};

  bool isUser(const Decl &D) const {
    return !SM.isInSystemHeader(D.getLocation());
  }

  /// Whether FD runs only where the project names it: a method of a project
  /// class with callable fields that is not virtual (a call through a base
  /// reaches it from anywhere), not run by the language (a constructor,
  /// destructor, conversion or operator) and not a lambda's. The facts record
  /// which of them some TU calls (SourceFacts::Called), so that an emptying
  /// in one that nothing calls is not evidence (SourceFacts::EmptiedIn).
  bool runsOnlyWhenCalled(const FunctionDecl *FD) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    return MD &&
           !isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(MD) &&
           !MD->isVirtual() && !MD->isOverloadedOperator() &&
           !MD->getParent()->isLambda() && isUser(*MD) &&
           Cs.hasCallableFields(*MD->getParent());
  }

  /// The facts of a field, created on first use with its class and
  /// position; null when it has no key.
  SourceFacts *field(const FieldDecl &F) {
    auto Key = fieldKey(F);
    if (!Key)
      return nullptr;
    SourceFacts &S =
        Out.get(*Key, SourceKind::Field, F.getQualifiedNameAsString());
    if (const auto *RD = dyn_cast<CXXRecordDecl>(F.getParent()))
      if (auto Class = classKey(*RD))
        S.Owner = *Class;
    S.Index = F.getFieldIndex();
    return &S;
  }

  /// Calls Visit with the facts of RD and of the classes an object of RD
  /// holds as members or bases (a few levels down), each that declares a
  /// callable field: what writes an RD object may write theirs.
  void forClassesHeld(const CXXRecordDecl &RD,
                      llvm::function_ref<void(SourceFacts &)> Visit,
                      unsigned Depth = 0) {
    const CXXRecordDecl *Def = RD.getDefinition();
    if (!Def || Depth > 3 || !isUser(*Def))
      return;
    if (Cs.hasCallableFields(*Def))
      if (std::optional<std::string> Key = classKey(*Def))
        Visit(
            Out.get(*Key, SourceKind::Class, Def->getQualifiedNameAsString()));
    for (const FieldDecl *F : Def->fields())
      if (const CXXRecordDecl *Member = F->getType()->getAsCXXRecordDecl())
        forClassesHeld(*Member, Visit, Depth + 1);
    for (const CXXBaseSpecifier &B : Def->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        forClassesHeld(*Base, Visit, Depth + 1);
  }

  /// FD, a function of the project's whose address is taken (so that a
  /// function pointer may call it; not a non-static method): the classes it
  /// may write through its parameters record its signature, which the
  /// facts see the effects of (SourceFacts::DefinedWith).
  void recordAddressTaken(const FunctionDecl &FD) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD); MD && !MD->isStatic())
      return;
    const auto *Proto = FD.getType()->getAs<FunctionProtoType>();
    if (!Proto || !isUser(FD) || !AddressTaken.insert(&FD).second)
      return;
    std::optional<std::string> Signature;
    for (QualType T : Proto->getParamTypes())
      if (const CXXRecordDecl *RD = writableClass(T))
        forClassesHeld(*RD, [&](SourceFacts &Class) {
          if (!Signature)
            Signature = signatureOf(*Proto, Ctx);
          Class.DefinedWith.insert(*Signature);
        });
  }
  llvm::SmallPtrSet<const FunctionDecl *, 16> AddressTaken{};

  /// The facts of a global or static member; null when it has no key.
  SourceFacts *global(const VarDecl &V) {
    auto Key = globalKey(V);
    if (!Key)
      return nullptr;
    return &Out.get(*Key, SourceKind::Global, V.getQualifiedNameAsString());
  }

  SourceFacts *parameter(const ParmVarDecl &P, const FunctionDecl &Fn) {
    auto Key = parameterKey(P);
    if (!Key)
      return nullptr;
    SourceFacts &S = Out.get(*Key, SourceKind::Parameter, P.getName());
    S.Owner = ownerName(Fn);
    return &S;
  }
};

/// The facts of one function body (or a global's initializer): tests for
/// emptiness, fields emptied or set, constructions, and what calls pass.
/// Lambdas are walked as functions of their own.
class BodyWalker : public RecursiveASTVisitor<BodyWalker> {
public:
  using Process = llvm::function_ref<void(const FunctionDecl &)>;
  /// Owner is null for a global's initializer, GlobalVar.
  BodyWalker(const FunctionDecl *Owner, Collector &C, Process Nested,
             const VarDecl *GlobalVar = nullptr)
      : Owner(Owner), C(C), Nested(Nested), GlobalVar(GlobalVar),
        Global(GlobalVar ? GlobalVar->getQualifiedNameAsString() : "") {
    if (Owner)
      Belief.emplace(*Owner, C.Ctx, C.Types, C.Indexes.of(*Owner),
                     C.CallsMember);
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (Belief)
      Belief->seeCaptures(*L);
    if (!L->getDependentCallOperator())
      Nested(*L->getCallOperator());
    return true;
  }

  /// Records the tests that are belief (BeliefTests.h): call once the body
  /// and its initializers are walked.
  void finish() {
    if (!Belief)
      return;
    for (const FunctionBelief::Belief &B : Belief->belief()) {
      SourceFacts &F = C.Out.get(B.Source.Key, B.Source.Kind, B.Source.Name);
      if (B.Unless) {
        keepFirst(F.TestedUnless[*B.Unless], B.At);
        continue;
      }
      ++F.Tested;
      keepFirst(F.TestedAt, B.At);
    }
  }

  /// Code after a statement that ends the path is dead, for the facts as
  /// for the flow analysis: `std::abort(); return Runner{nullptr, nullptr};`
  /// in an assertion macro passes nothing (corrade's CORRADE_ASSERT). A
  /// label or a `case` after it can be reached again.
  bool TraverseCompoundStmt(CompoundStmt *CS) {
    noteFreedAfterWrites(*CS);
    bool Dead = false;
    for (Stmt *S : CS->body()) {
      if (Dead && !isa<LabelStmt, SwitchCase>(S))
        continue;
      if (!TraverseStmt(S))
        return false;
      Dead = endsPath(S);
    }
    return true;
  }

  bool VisitExpr(Expr *E) {
    if (Belief)
      Belief->see(*E);
    const Expr *Tested = testedCallable(*E, C.Types, C.Ctx);
    if (!Tested || normalises(*E, *Tested))
      return true;
    Assertion A = assertionOf(*E);
    if (A.Asserts && !A.Unless)
      noteAsserted(*Tested, E->getBeginLoc());
    else
      noteTest(*Tested, E->getBeginLoc(), *E, std::move(A.Unless));
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (Belief)
      Belief->seeVar(*VD);
    return true;
  }

  bool VisitReturnStmt(ReturnStmt *RS) {
    if (Belief)
      Belief->seeReturn(*RS);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    noteFlagWrite(*BO);
    if (writesDyingObject(BO->getLHS()))
      return true; // Neither an emptying nor a setting: nothing reads it.
    if (BO->getOpcode() == BO_Assign) {
      noteElementStores(*BO);
      noteAssigned(fieldOf(BO->getLHS()), BO->getRHS(), BO->getBeginLoc());
      noteGlobalAssigned(BO->getLHS(), *BO->getRHS(), BO->getBeginLoc());
    } else if (BO->isCompoundAssignmentOp())
      noteChanged(fieldOf(BO->getLHS()), BO->getBeginLoc());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      noteChanged(fieldOf(UO->getSubExpr()), UO->getBeginLoc());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    noteFlagWrite(*OC);
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return true;
    noteElementStores(*OC);
    if (!writesDyingObject(OC->getArg(0))) {
      noteAssigned(fieldOf(OC->getArg(0)), OC->getArg(1), OC->getBeginLoc());
      noteGlobalAssigned(OC->getArg(0), *OC->getArg(1), OC->getBeginLoc());
    }
    if (const Expr *Moved = movedFromObject(OC->getArg(1));
        Moved && !writesDyingObject(Moved) &&
        !moveLeavesSource(Moved->getType(), dyn_cast_or_null<CXXMethodDecl>(
                                                OC->getDirectCallee()))) {
      noteMovedFrom(fieldOf(Moved), OC->getBeginLoc());
      noteGlobalEmptied(Moved, OC->getBeginLoc());
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (!Ctor)
      return true;
    if (Ctor->isMoveConstructor() && CE->getNumArgs() >= 1)
      if (const Expr *Moved = movedFromObject(CE->getArg(0));
          Moved && !writesDyingObject(Moved) &&
          !moveLeavesSource(Moved->getType(), Ctor)) {
        noteMovedFrom(fieldOf(Moved), CE->getBeginLoc());
        noteGlobalEmptied(Moved, CE->getBeginLoc());
      }
    noteConstruction(*CE);
    if (!Ctor->isCopyOrMoveConstructor())
      noteArguments(*Ctor, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                    CE->getBeginLoc());
    return true;
  }

  // `Options{f}`, `entries.push_back({name, handler})`, an interface table:
  // aggregate initialisation, which sets the fields it is given.
  bool VisitInitListExpr(InitListExpr *ILE) {
    const InitListExpr *Sem =
        ILE->isSemanticForm() ? ILE : ILE->getSemanticForm();
    if (Sem && Seen.insert(Sem).second)
      noteConstruction(*Sem);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    // Visited before its callee: a function named only to be called here
    // has no address taken.
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(Ref);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return noteHandedThrough(*Call), true;
    // `std::make_shared<T>(..)`, `v.emplace_back(..)`.
    if (C.SM.isInSystemHeader(Callee->getLocation()))
      return noteConstruction(*Call), true;
    llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
    // Operator calls pass the object as argument 0 where a method has no
    // parameter for it.
    if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
        !Args.empty())
      Args = Args.drop_front();
    noteArguments(*Callee, Args, Call->getBeginLoc());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    noteNamed(DRE->getDecl());
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
        FD && !CalleeRefs.count(DRE))
      C.recordAddressTaken(*FD);
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    // `~Conn() { close(); }`: a method the destructor calls on its own
    // object runs as the object dies; what it empties then no call on a
    // live object sees. Another caller of it still makes it run.
    if (!inOwnDestructor(*ME))
      noteNamed(ME->getMemberDecl());
    return true;
  }

  /// A call through a function pointer given a pointer or a non-const
  /// reference to an object (`regfcn(&plugin)`): whatever function it
  /// calls may set the object's fields. The object's class, and the
  /// classes of its members and bases, record the pointer's signature; the
  /// facts compare it with those of the project's functions whose address
  /// some TU takes (SourceFacts::HandedThrough).
  void noteHandedThrough(const CallExpr &Call) {
    const auto *Proto = Call.getCallee()
                            ->getType()
                            ->getPointeeOrArrayElementType()
                            ->getAs<FunctionProtoType>();
    if (!Proto)
      return;
    std::string Signature = signatureOf(*Proto, C.Ctx);
    for (unsigned I = 0; I < Call.getNumArgs() && I < Proto->getNumParams();
         ++I)
      if (const CXXRecordDecl *RD = writableClass(Proto->getParamType(I)))
        C.forClassesHeld(*RD, [&](SourceFacts &Class) {
          keepFirst(Class.HandedThrough[Signature], here(Call.getBeginLoc()));
        });
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    noteFlagWrite(*MC);
    noteObjectPassed(*MC);
    noteElementStores(*MC);
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "reset" &&
        MC->getNumArgs() == 0 &&
        !writesDyingObject(MC->getImplicitObjectArgument())) {
      noteEmptied(fieldOf(MC->getImplicitObjectArgument()), MC->getBeginLoc());
      noteGlobalEmptied(MC->getImplicitObjectArgument(), MC->getBeginLoc());
    }
    return true;
  }

  /// A write that sets a flag (VouchingFlags.h), with the callable sources
  /// it proves non-empty: those the tests around At (none for a member
  /// initializer) and the value it stores test.
  void noteFlagSet(const FlagWrite &W, const Stmt *At) {
    SourceFacts *F = C.isUser(*W.Field) ? C.field(*W.Field) : nullptr;
    if (!F)
      return;
    std::set<std::string> Keys;
    if (!W.Unknown && Owner) {
      std::vector<const Expr *> Proven;
      if (At)
        for (const CallableTest &T : callableTestsAt(
                 *At, C.Indexes.of(*Owner).parents(), C.Types, C.Ctx))
          if (T.NonEmpty)
            Proven.push_back(T.Tested);
      if (W.Tested)
        Proven.push_back(W.Tested);
      for (const Expr *E : Proven)
        for (const SourceUse &U :
             sourcesOf(*E, *Owner, C.Ctx, C.Types, C.Indexes.of(*Owner))
                 .Sources)
          Keys.insert(U.Key);
    }
    F->noteFlagSet(W.Value, std::move(Keys));
  }

private:
  void noteFlagWrite(const Expr &E) {
    if (std::optional<FlagWrite> W = flagWriteOf(E, C.Types, C.Ctx))
      noteFlagSet(*W, &E);
  }

  /// Whether control never goes on after statement S: a `return`, `throw`,
  /// `break`, `continue` or `goto`, or a call of a function that never
  /// returns (NeverReturns.h).
  bool endsPath(const Stmt *S) {
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
      return true;
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr()->IgnoreParenImpCasts();
    if (isa<CXXThrowExpr>(E))
      return true;
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    return FD && C.Summaries.neverReturns(*FD);
  }

  FactLoc here(SourceLocation Loc) {
    FactLoc L = factLoc(Loc, C.SM, Owner);
    if (!Owner)
      L.Function = Global;
    return L;
  }

  /// A construction of a class with callable fields: recorded under the
  /// class, by constructor and argument states.
  void noteConstruction(const Expr &E) {
    if (std::optional<Construction> K = C.Cs.at(E, Owner))
      recordConstruction(E, *K);
    // A derived object's base subobject is a construction of the base, and
    // the factory's set on the derived object sets the base's field: a base
    // destructor's call is judged by them (`struct CpuBuf : Buffer {};`).
    for (Construction &K : C.Cs.baseConstructions(E, Owner))
      recordConstruction(E, K);
  }

  void recordConstruction(const Expr &E, Construction &K) {
    if (K.ClassKey.empty())
      return;
    if (!Owner) {
      K.Fact.At.Function = Global;
      if (GlobalVar && GlobalVar->getInit() &&
          stripNoise(GlobalVar->getInit()) == stripNoise(&E))
        K.Fact.SetAfter =
            C.SetAfter.fieldsSetBeforeReached(*GlobalVar, *K.Class);
    } else if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Owner);
               Ctor && initialisesBase(*Ctor, E)) {
      K.Fact.SetAfter = fieldsSetByBody(*Ctor, *K.Class);
      K.Fact.Overridden = C.Cs.overriddenIn(*Ctor->getParent(), *K.Class);
    } else {
      K.Fact.SetAfter = C.SetAfter.fieldsSetAfter(E, *K.Class, *Owner);
    }
    // With its template arguments: each specialization is a class of its
    // own (classKey), and the notes say which (`Op<false>`).
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    K.Class->getNameForDiagnostic(OS, C.Ctx.getPrintingPolicy(),
                                  /*Qualified=*/true);
    SourceFacts &Class = C.Out.get(K.ClassKey, SourceKind::Class, OS.str());
    auto [It, New] =
        Class.Constructions.try_emplace(K.Fact.signature(), K.Fact);
    if (!New) {
      It->second.Count += K.Fact.Count;
      keepFirst(It->second.At, K.Fact.At);
    }
  }

  /// Whether E is the construction of one of Ctor's bases (written, or the
  /// implicit default one).
  static bool initialisesBase(const CXXConstructorDecl &Ctor, const Expr &E) {
    return llvm::any_of(Ctor.inits(), [&](const CXXCtorInitializer *I) {
      return I->isBaseInitializer() && I->getInit() &&
             I->getInit()->IgnoreImplicit() == E.IgnoreImplicit();
    });
  }

  /// The callable fields of Base (indexes, sorted) that the body of Ctor, a
  /// constructor of a class derived from it, leaves set on every path, by
  /// its flow analysis (`CMD_help() { _parser = make_shared<..>(..); }`):
  /// the base subobject's construction is followed by that body before
  /// anyone has the object, as a factory's set follows a construction.
  std::vector<unsigned> fieldsSetByBody(const CXXConstructorDecl &Ctor,
                                        const CXXRecordDecl &Base) {
    std::vector<unsigned> Out;
    const MethodEffect *Effect = C.Summaries.constructorEffect(Ctor);
    if (!Effect)
      return Out;
    for (const FieldDecl *F : Effect->Set)
      if (F->getParent() == &Base || F->getParent() == Base.getDefinition())
        Out.push_back(F->getFieldIndex());
    llvm::sort(Out);
    Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
    return Out;
  }

  /// What a write into the elements of a container field or global stores
  /// there (ContainerElements.h), judged as an argument is.
  void noteElementStores(const Expr &E) {
    if (!Owner || !Owner->getBody())
      return;
    for (const StoredPart &P :
         storedParts(E, *Owner, C.Indexes.of(*Owner), C.Types)) {
      std::optional<std::string> Key = elementKey(P.Part);
      if (!Key)
        continue;
      SourceFacts &S =
          C.Out.get(*Key, SourceKind::Element, elementName(P.Part));
      ValueState V = ValueState::of(ValueState::Unknown);
      if (P.From) {
        if (std::optional<std::string> From = elementKey(*P.From))
          V = ValueState{ValueState::From, {*From}};
      } else if (P.Value) {
        V = valueStateOf(*P.Value, Owner, C.Ctx, C.Types, C.Indexes, &C.Passed);
      }
      S.Args.add(V, here(E.getBeginLoc()));
    }
  }

  /// What a call passes to each callable parameter of Callee (a function, a
  /// method, a constructor, a lambda's call operator).
  void noteArguments(const FunctionDecl &Callee,
                     llvm::ArrayRef<const Expr *> Args, SourceLocation Loc) {
    if (!C.isUser(Callee))
      return;
    std::optional<FlagValues> Literals;
    for (unsigned I = 0; I < Args.size() && I < Callee.getNumParams(); ++I) {
      const ParmVarDecl *P = Callee.getParamDecl(I);
      if (!C.Types.isNullable(P->getType())) {
        notePassedFields(Callee, *P, *Args[I], Loc);
        continue;
      }
      const Expr *Arg = Args[I];
      if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Arg))
        Arg = D->getExpr();
      SourceFacts *F = C.parameter(*P, Callee);
      if (!F)
        continue;
      if (!Literals)
        Literals = literalFlags(Callee, Args, C.Ctx);
      // A sibling argument that moves from what this one reads may run
      // first (ValueSources.h): this call may pass the moved-from value.
      if (Owner && movedBySiblingArgument(*Args[I], Args)) {
        F->Args.addSiblingMove(here(Loc), *Literals);
        continue;
      }
      ValueState V =
          valueStateOf(*Arg, Owner, C.Ctx, C.Types, C.Indexes, &C.Passed);
      F->Args.add(V, here(Loc), *Literals, requiredOfOwner(*Arg));
      if (V.What == ValueState::From)
        noteMoveOut(*F, V, *Arg);
    }
  }

  /// An argument that moves out of a member of `*this` (`run(std::move(
  /// cb_))`) passes the value the member held there, and empties it only
  /// after: the emptying is no evidence about this value. Recorded where
  /// the caller's flow analysis finds no path that empties the member
  /// before the read (one would make the value passed empty, ValueSources).
  void noteMoveOut(SourceFacts &Param, const ValueState &V, const Expr &Arg) {
    // Past the move construction of a by-value parameter.
    const Expr *Moving = stripNoise(&Arg);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Moving);
        CE && CE->getNumArgs() == 1)
      Moving = CE->getArg(0);
    const Expr *Moved = movedFromObject(Moving);
    const auto *ME =
        dyn_cast_or_null<MemberExpr>(Moved ? stripNoise(Moved) : nullptr);
    const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!Field || !Owner ||
        !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
        C.Passed.at(*Owner, *ME) != Emptiness::Unknown)
      return;
    std::optional<std::string> Key = fieldKey(*Field);
    std::optional<std::string> Fn = functionKey(*Owner);
    if (Key && Fn && llvm::is_contained(V.Keys, *Key))
      Param.Args.MovedOutIn[*Key].insert(*Fn);
  }

  /// For an argument that reads one of the caller's own parameters (`f`
  /// in `run(f)`): what the place of the call requires of the caller's
  /// flags.
  FlagValues requiredOfOwner(const Expr &Arg) {
    const auto *DRE = dyn_cast<DeclRefExpr>(passedRead(Arg));
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!Owner || !P || P->getDeclContext() != Owner)
      return {};
    return C.Passed.requiredAt(*Owner, *DRE);
  }

  /// For a parameter that points or refers to an object with callable
  /// fields (`run(const Ops *ops)`): whether this call passes each field
  /// proven set (`if (ops->f) run(ops);`), by the flow analysis of the
  /// caller.
  void notePassedFields(const FunctionDecl &Callee, const ParmVarDecl &P,
                        const Expr &Arg, SourceLocation Loc) {
    QualType T = P.getType();
    const CXXRecordDecl *RD =
        T->isPointerType()     ? T->getPointeeType()->getAsCXXRecordDecl()
        : T->isReferenceType() ? T.getNonReferenceType()->getAsCXXRecordDecl()
                               : nullptr;
    if (!RD || !RD->hasDefinition() || !holdsCallables(*RD))
      return;
    SourceFacts *F = C.parameter(P, Callee);
    if (!F)
      return;
    // `run(ops)`, `run(&table)`, `run(*ops)`.
    const Expr *Read = stripNoise(&Arg);
    if (const auto *UO = dyn_cast<UnaryOperator>(Read);
        UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
      Read = stripNoise(UO->getSubExpr());
    noteFieldsOf(*F, *RD, Read, Loc);
  }

  /// Whether the fields of RD's objects are recorded where they are passed
  /// on: it has callable fields, or a pointer member to a project object
  /// that has (`priv.task->step`).
  bool holdsCallables(const CXXRecordDecl &RD) {
    if (C.Cs.hasCallableFields(RD))
      return true;
    const CXXRecordDecl *Def = RD.getDefinition();
    return Def && !Def->isLambda() && !Def->isDependentContext() &&
           C.isUser(*Def) && C.Passed.holdsCallables(*Def);
  }

  /// One call that passes the object Read denotes to a parameter (or as
  /// the object of a method, `helper()` on `this`) whose facts are F: per
  /// callable field of RD, whether the caller's flow analysis proved it set
  /// there. A read of anything but a local variable, `this` or a member
  /// proves nothing.
  void noteFieldsOf(SourceFacts &F, const CXXRecordDecl &RD, const Expr *Read,
                    SourceLocation Loc,
                    const CXXMemberCallExpr *Call = nullptr) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Read);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && V->getDeclContext() != Owner)
      DRE = nullptr;
    const auto *This = dyn_cast_or_null<CXXThisExpr>(Read);
    const auto *Member = dyn_cast_or_null<MemberExpr>(Read);
    const Expr *ReadExpr = DRE      ? static_cast<const Expr *>(DRE)
                           : This   ? static_cast<const Expr *>(This)
                           : Member ? static_cast<const Expr *>(Member)
                                    : static_cast<const Expr *>(Call);
    // Whether this call hands on the caller's own object as it came, asked
    // at the first field the caller's flow leaves undecided.
    std::optional<HandOff> Handed;
    for (const FieldDecl *FD : RD.fields()) {
      if (!C.Types.isNullable(FD->getType()))
        continue;
      auto Key = fieldKey(*FD);
      if (!Key)
        continue;
      PassedFieldFacts &PF = F.PassedFields[*Key];
      ++PF.Calls;
      Emptiness E = !Owner   ? Emptiness::Unknown
                    : DRE    ? C.Passed.fieldAt(*Owner, *DRE, *FD)
                    : This   ? C.Passed.fieldAt(*Owner, *This, *FD)
                    : Member ? C.Passed.fieldAt(*Owner, *Member, *FD)
                    : Call   ? C.Passed.fieldAt(*Owner, *Call, *FD)
                             : Emptiness::Unknown;
      if (E == Emptiness::NonEmpty) {
        ++PF.Set;
        continue;
      }
      keepFirst(PF.UnsetAt, here(Loc));
      if (E == Emptiness::AlwaysEmpty)
        keepFirst(PF.EmptyAt, here(Loc));
      // Proved set only if methods defined elsewhere do what their
      // signatures allow (MethodsElsewhere.h): the facts decide at the end.
      if (!Owner || !ReadExpr)
        continue;
      if (std::optional<std::vector<AssumedMethodEffect>> Needed =
              C.Passed.fieldAssuming(*Owner, *ReadExpr, *FD)) {
        std::vector<AssumedEffect> Keys;
        for (const AssumedMethodEffect &A : *Needed) {
          std::optional<std::string> MK = functionKey(*A.Method);
          std::optional<std::string> FK = fieldKey(*A.Field);
          if (!MK || !FK) {
            Keys.clear();
            break;
          }
          Keys.push_back({*MK, *FK, A.From});
        }
        if (!Keys.empty()) {
          llvm::sort(Keys);
          ++PF.SetIf[std::move(Keys)];
          continue;
        }
      }
      // A function that hands its own object, or its parameter's, on as it
      // came passes the field as its callers do (`parse_field` calling
      // `read_field`, its callers having asserted the field set): the facts
      // follow them.
      if (E != Emptiness::Unknown)
        continue;
      if (!Handed)
        Handed = handOffOf(This, Call, DRE);
      if (Handed->OwnKey && !Handed->Named.count(FD))
        ++PF.SetIf[{{*Handed->OwnKey, *Key, AssumedEffect::CallersSet}}];
    }
    noteFieldsThrough(F, RD, ReadExpr, Loc);
  }

  /// A call that hands on the caller's own object (`helper()` on `this`,
  /// or a parameter `run(c)`): the caller's key for it (`p:..#this`,
  /// `p:..#<index>`) when the caller hands it on as it came
  /// (handsOnItsObject, handsOnParameter), and the fields the caller names,
  /// for which that proves nothing.
  struct HandOff {
    std::optional<std::string> OwnKey;
    NamedFields Named;
  };
  HandOff handOffOf(const CXXThisExpr *This, const CXXMemberCallExpr *Call,
                    const DeclRefExpr *DRE) {
    HandOff Out;
    ParentMap &Parents = C.Indexes.of(*Owner).parents();
    std::optional<NamedFields> Named;
    if (const auto *M = dyn_cast<CXXMethodDecl>(Owner); M && This && Call) {
      if ((Named = handsOnItsObject(*M, *Call, Parents)))
        Out.OwnKey = objectParameterKey(*M);
    } else if (const auto *P =
                   DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr) {
      if ((Named = handsOnParameter(*Owner, *DRE, Parents)))
        Out.OwnKey = parameterKey(*P);
    }
    if (Named)
      Out.Named = std::move(*Named);
    return Out;
  }

  /// The callable fields one pointer member of RD away, as noteFieldsOf
  /// records RD's own (`if (priv.task && priv.task->step) helper(priv);`):
  /// only whether the caller proved each set, for a helper that calls
  /// through `priv.task->step` (Candidate::Via).
  void noteFieldsThrough(SourceFacts &F, const CXXRecordDecl &RD,
                         const Expr *Read, SourceLocation Loc) {
    for (const FieldDecl *Via : RD.fields()) {
      const RecordDecl *Pointee = C.Passed.callablePointee(*Via);
      const RecordDecl *Def = Pointee ? Pointee->getDefinition() : nullptr;
      std::optional<std::string> ViaKey =
          Def && C.isUser(*Def) ? fieldKey(*Via) : std::nullopt;
      if (!ViaKey)
        continue;
      for (const FieldDecl *FD : Def->fields()) {
        if (!C.Types.isNullable(FD->getType()))
          continue;
        std::optional<std::string> Key = fieldKey(*FD);
        if (!Key)
          continue;
        PassedFieldFacts &PF = F.PassedFields[passedFieldKey(*ViaKey, *Key)];
        ++PF.Calls;
        if (Owner && Read &&
            C.Passed.fieldThroughAt(*Owner, *Read, *Via, *FD) ==
                Emptiness::NonEmpty)
          ++PF.Set;
        else
          keepFirst(PF.UnsetAt, here(Loc));
      }
    }
  }

  /// A call of a method (objectParameterKey): what it passes as the object,
  /// `*this` in `if (callback) export_with_callback(..);`.
  void noteObjectPassed(const CXXMemberCallExpr &MC) {
    const CXXMethodDecl *M = MC.getMethodDecl();
    const CXXRecordDecl *RD = M ? M->getParent() : nullptr;
    if (!RD || !RD->hasDefinition() || !holdsCallables(*RD) || !C.isUser(*M))
      return;
    std::optional<std::string> Key = objectParameterKey(*M);
    if (!Key)
      return;
    SourceFacts &F = C.Out.get(*Key, SourceKind::Parameter, "this");
    F.Owner = ownerName(*M);
    // `helper()`, `obj.helper()`, `p->helper()`.
    const Expr *Read = stripNoise(MC.getImplicitObjectArgument());
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Read);
        UO && UO->getOpcode() == UO_Deref)
      Read = stripNoise(UO->getSubExpr());
    noteFieldsOf(F, *RD, Read, MC.getBeginLoc(), &MC);
  }

  /// `obj.f = value`: emptied, or set outside the class's constructors.
  void noteAssigned(const FieldDecl *FD, const Expr *Value,
                    SourceLocation Loc) {
    if (FD && !isUserField(FD))
      return noteChanged(FD, Loc);
    // In its own class's constructor, an empty value is what that
    // constructor leaves (its CtorFact), not an emptying of a built object.
    if (FD && inOwnConstructor(*FD))
      return;
    if (isEmptyValue(Value, C.Ctx))
      return noteEmptied(FD, Loc);
    if (!FD)
      return;
    if (SourceFacts *F = C.field(*FD))
      noteStored(*F, *Value, Loc);
  }

  /// `g = value` for a global of the project: as a field assigned outside
  /// its class's constructors.
  void noteGlobalAssigned(const Expr *LHS, const Expr &Value,
                          SourceLocation Loc) {
    if (SourceFacts *G = userGlobal(LHS))
      noteStored(*G, Value, Loc);
  }

  /// `std::move(g)`, `g.reset()`: a global emptied.
  void noteGlobalEmptied(const Expr *E, SourceLocation Loc) {
    if (SourceFacts *G = userGlobal(E))
      recordEmptied(*G, Loc);
  }

  /// The facts of the global of the project that E names, when it holds a
  /// nullable callable; null otherwise.
  SourceFacts *userGlobal(const Expr *E) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripNoise(E));
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !C.Types.isNullable(V->getType()) || !C.isUser(*V))
      return nullptr;
    return C.global(*V);
  }

  /// What assigning Value stores in F, a field (outside its class's
  /// constructors) or a global: empty, a loader's result, or a value set or
  /// from other sources.
  void noteStored(SourceFacts &F, const Expr &Value, SourceLocation Loc) {
    if (isEmptyValue(&Value, C.Ctx))
      return recordEmptied(F, Loc);
    if (const CallExpr *Load = loaderCalled(Value)) {
      keepFirst(F.SetAt, here(Loc));
      // A load tested through `dlerror()` before any use is a set value.
      if (!Owner || !C.Summaries.loadTested(*Load, *Owner))
        keepFirst(F.LoadedFrom[Load->getDirectCallee()->getNameAsString()],
                  here(Loc));
      return;
    }
    ValueState V =
        Owner ? valueStateOf(Value, Owner, C.Ctx, C.Types, C.Indexes, &C.Passed)
              : ValueState::of(ValueState::Unknown);
    if (V.What == ValueState::Empty)
      return recordEmptied(F, Loc);
    keepFirst(F.SetAt, here(Loc));
    for (const std::string &K : V.Keys)
      keepFirst(F.AssignedFrom[K], here(Loc));
  }

  /// The call of a run-time loader V is, through its casts
  /// (`(init_fn)dlsym(h, "init")`); null when V is no such call.
  const CallExpr *loaderCalled(const Expr &V) {
    const auto *Call = dyn_cast_or_null<CallExpr>(stripCasts(&V));
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    return FD && C.Summaries.isLoader(*FD) ? Call : nullptr;
  }

  /// A field that is not a callable, of a class with callable fields,
  /// changed outside the class's constructors: no condition on it is an
  /// invariant of the objects.
  void noteChanged(const FieldDecl *FD, SourceLocation Loc) {
    if (!FD || C.Types.isNullable(FD->getType()) || inOwnConstructor(*FD))
      return;
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (!RD || !C.Cs.hasCallableFields(*RD))
      return;
    if (SourceFacts *F = C.field(*FD))
      keepFirst(F->ChangedAt, here(Loc));
  }

  /// Whether ME is a member of `*this` in a destructor of the member's
  /// class or of a class derived from it: the object it names is dying.
  bool inOwnDestructor(const MemberExpr &ME) {
    const auto *Dtor = dyn_cast_or_null<CXXDestructorDecl>(Owner);
    if (!Dtor || !isa<CXXThisExpr>(ME.getBase()->IgnoreParenImpCasts()))
      return false;
    const auto *Declared =
        dyn_cast<CXXRecordDecl>(ME.getMemberDecl()->getDeclContext());
    const CXXRecordDecl *Dying = Dtor->getParent();
    return Declared && (Dying == Declared || (Dying->hasDefinition() &&
                                              Dying->isDerivedFrom(Declared)));
  }

  /// Whether Target, a member written (emptied, moved from, set), belongs to
  /// an object whose life ends before anything can read it again: `*this` in
  /// its own destructor (`~Conn() { on_msg = nullptr; }`), or an object
  /// freed right after the writes to it (`c->cb = NULL; free(c);`). Such a
  /// write is tidying, not a state a call on a live object can meet, so the
  /// facts take no emptying (nor a setting) from it.
  bool writesDyingObject(const Expr *Target) {
    const auto *ME = dyn_cast_or_null<MemberExpr>(stripNoise(Target));
    if (!ME)
      return false;
    return inOwnDestructor(*ME) || FreedAfter.count(ME);
  }

  /// In CS, the member writes `p->f = ..` (and `p->f.reset()`) followed, with
  /// only more writes to p's members or frees of them between, by a
  /// statement that frees p (`delete p`, `free(p)`): FreedAfter.
  void noteFreedAfterWrites(const CompoundStmt &CS) {
    llvm::SmallVector<const MemberExpr *, 4> Pending;
    const Expr *PendingBase = nullptr;
    for (const Stmt *S : CS.body()) {
      const auto *E = dyn_cast<Expr>(S);
      E = E ? stripNoise(E) : nullptr;
      const MemberExpr *Written = E ? memberWritten(*E) : nullptr;
      const Expr *Base = Written ? stripNoise(Written->getBase()) : nullptr;
      if (Written && Written->isArrow() &&
          (!PendingBase || sameStorage(Base, PendingBase))) {
        Pending.push_back(Written);
        PendingBase = Base;
        continue;
      }
      const Expr *Freed = E ? freedPointer(*E) : nullptr;
      if (Freed && PendingBase) {
        if (sameStorage(Freed, PendingBase)) {
          FreedAfter.insert(Pending.begin(), Pending.end());
        } else if (const auto *FM = dyn_cast<MemberExpr>(Freed);
                   FM && sameStorage(stripNoise(FM->getBase()), PendingBase)) {
          continue; // `free(c->buf);` before `free(c);`
        }
      }
      Pending.clear();
      PendingBase = nullptr;
      if (Written && Written->isArrow()) {
        Pending.push_back(Written);
        PendingBase = Base;
      }
    }
  }

  /// The member E writes as a statement: `m = v`, `m.reset()`.
  static const MemberExpr *memberWritten(const Expr &E) {
    const Expr *LHS = nullptr;
    if (std::optional<Assignment> A = assignmentOf(&E))
      LHS = A->LHS;
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&E);
             MC && MC->getMethodDecl() &&
             MC->getMethodDecl()->getIdentifier() &&
             MC->getMethodDecl()->getName() == "reset")
      LHS = MC->getImplicitObjectArgument();
    return dyn_cast_or_null<MemberExpr>(stripNoise(LHS));
  }

  /// The pointer E frees as a statement: `delete p`, `free(p)`.
  static const Expr *freedPointer(const Expr &E) {
    if (const auto *Del = dyn_cast<CXXDeleteExpr>(&E))
      return stripNoise(Del->getArgument());
    if (const auto *Call = dyn_cast<CallExpr>(&E);
        Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
        Call->getDirectCallee()->getIdentifier() &&
        Call->getDirectCallee()->getName() == "free" &&
        Call->getDirectCallee()->isExternC())
      return stripNoise(Call->getArg(0));
    return nullptr;
  }

  /// In a constructor of the field's class, or of a class derived from it
  /// (dlib's `bound_function_helper_T() { this->fp = 0; }`, whose base
  /// declares `fp`): what the construction leaves, before anyone has the
  /// object.
  bool inOwnConstructor(const FieldDecl &FD) {
    const auto *Ctor = dyn_cast_or_null<CXXConstructorDecl>(Owner);
    if (!Ctor)
      return false;
    const CXXRecordDecl *Made = Ctor->getParent();
    const auto *Declared = dyn_cast<CXXRecordDecl>(FD.getParent());
    return Made == FD.getParent() ||
           (Declared && Made->hasDefinition() && Made->isDerivedFrom(Declared));
  }

  /// Whether Test, the condition of an `if`, is followed by an assignment
  /// of a set value to what it tests (`if (!cfg.f) cfg.f = &dflt;`): the
  /// code makes sure the value is set, which says nothing of whether other
  /// uses may find it empty (abseil's SetFlagsUsageConfig).
  bool normalises(const Expr &Test, const Expr &Tested) {
    if (!Owner || !Owner->getBody())
      return false;
    ParentMap &PM = C.Indexes.of(*Owner).parents();
    const Stmt *Cond = &Test;
    const Stmt *P = PM.getParent(Cond);
    while (P && (isa<ParenExpr, ImplicitCastExpr>(P) ||
                 (isa<UnaryOperator>(P) &&
                  cast<UnaryOperator>(P)->getOpcode() == UO_LNot))) {
      Cond = P;
      P = PM.getParent(P);
    }
    const auto *If = dyn_cast_or_null<IfStmt>(P);
    if (!If || If->getCond() != Cond)
      return false;
    auto SetsTested = [&](const Stmt *S) {
      if (const auto *E = dyn_cast_or_null<Expr>(S))
        S = stripNoise(E);
      std::optional<Assignment> A = assignmentOf(S);
      return A && !isEmptyValue(A->RHS, C.Ctx) && sameStorage(A->LHS, &Tested);
    };
    for (const Stmt *Branch : {If->getThen(), If->getElse()}) {
      if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Branch)) {
        if (llvm::any_of(CS->body(), SetsTested))
          return true;
      } else if (SetsTested(Branch)) {
        return true;
      }
    }
    return false;
  }

  /// What Test states by its place: an assertion (`assert(f)`, `if (!f)
  /// abort();`, or the argument of this TU's assertion function): the
  /// process ends when the value is empty, so the code states that it never
  /// is there, which is no evidence that other uses may find it empty. Code
  /// that throws instead reports an empty value to a caller that may go on:
  /// that is a test (belief). Handed to a function this TU sees without a
  /// definition, as the argument it would take a condition in (`Assert(h.cb
  /// != nullptr, "..")` with `Assert` defined in another TU;
  /// ExitsElsewhere.h, truthParameter), it is an assertion only if that
  /// function is an assertion function: Unless names it, and the facts
  /// decide.
  struct Assertion {
    bool Asserts = false;
    std::optional<AssumedAssertion> Unless;
  };
  Assertion assertionOf(const Expr &Test) {
    Assertion Out;
    if (!Owner || !Owner->getBody())
      return Out;
    bool Elsewhere = false;
    auto OnlyIf = [&](const FunctionDecl &FD) -> std::optional<unsigned> {
      if (!mayBeDefinedElsewhere(FD, C.SM))
        return C.Summaries.endsProcessUnless(FD);
      Elsewhere = true;
      std::optional<unsigned> P = truthParameter(FD);
      std::optional<std::string> Key = functionKey(FD);
      if (P && Key)
        Out.Unless = AssumedAssertion{*Key, *P};
      return P;
    };
    Out.Asserts = assertsNonEmpty(
        Test, C.Indexes.of(*Owner).parents(),
        [&](const FunctionDecl &FD) { return C.Summaries.endsProcess(FD); },
        OnlyIf);
    // Only the call the walk stopped at answers; a function elsewhere
    // without a key is no assertion the facts can confirm: belief.
    if (!Out.Asserts)
      Out.Unless.reset();
    else if (Elsewhere && !Out.Unless)
      Out.Asserts = false;
    return Out;
  }

  void noteAsserted(const Expr &Tested, SourceLocation Loc) {
    if (!Owner)
      return;
    SourceSet S =
        sourcesOf(Tested, *Owner, C.Ctx, C.Types, C.Indexes.of(*Owner));
    FactLoc L = here(Loc);
    for (const SourceUse &U : S.Sources)
      keepFirst(C.Out.get(U.Key, U.Kind, U.Name).AssertedAt, L);
  }

  /// A test, belief if the function acts on the value (BeliefTests.h).
  void noteTest(const Expr &Tested, SourceLocation Loc, const Expr &Test,
                std::optional<AssumedAssertion> Unless) {
    if (!Owner)
      return;
    // A constructor testing its own field (`if (!p_) p_ = dflt;`) is
    // initialising it, not saying that other uses may find it empty.
    if (const auto *ME = dyn_cast<MemberExpr>(stripNoise(&Tested)))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
          FD && inOwnConstructor(*FD) &&
          isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return;
    SourceSet S =
        sourcesOf(Tested, *Owner, C.Ctx, C.Types, C.Indexes.of(*Owner));
    if (Belief)
      Belief->test(Test, Tested, std::move(S.Sources), here(Loc),
                   std::move(Unless));
  }

  bool isUserField(const FieldDecl *FD) {
    return FD && C.Types.isNullable(FD->getType()) && C.isUser(*FD);
  }

  void noteEmptied(const FieldDecl *FD, SourceLocation Loc) {
    if (!isUserField(FD))
      return;
    if (SourceFacts *F = C.field(*FD))
      recordEmptied(*F, Loc);
  }

  /// An emptying of F, a field or a global, here: per method when Owner
  /// runs only where the project calls it.
  void recordEmptied(SourceFacts &F, SourceLocation Loc) {
    keepFirst(F.EmptiedBy[Owner ? functionKey(*Owner).value_or("") : ""],
              here(Loc));
    if (C.runsOnlyWhenCalled(Owner))
      if (std::optional<std::string> Key = functionKey(*Owner)) {
        keepFirst(F.EmptiedIn[*Key], here(Loc));
        return;
      }
    keepFirst(F.EmptiedAt, here(Loc));
  }

  /// A method that runs only when called, named here (a call, or its
  /// address taken), does run: the facts say so for the emptyings in it.
  void noteNamed(const ValueDecl *D) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(D);
    if (!MD || MD == Owner || !C.runsOnlyWhenCalled(MD) ||
        !C.Named.insert(MD).second)
      return;
    if (std::optional<std::string> Key = functionKey(*MD))
      C.Out.get(*Key, SourceKind::Function, MD->getQualifiedNameAsString())
          .Called = true;
  }

  /// A field moved out of is empty afterwards, except in its own class's
  /// copy and move members, whose source object is dead by convention.
  void noteMovedFrom(const FieldDecl *FD, SourceLocation Loc) {
    if (!FD)
      return;
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Owner)) {
      bool Special =
          MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator();
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD))
        Special |= Ctor->isCopyOrMoveConstructor();
      if (Special && MD->getParent() == FD->getParent())
        return;
    }
    noteEmptied(FD, Loc);
  }

  const FunctionDecl *Owner;
  Collector &C;
  Process Nested;
  /// The global whose initializer is walked (Owner is null).
  const VarDecl *GlobalVar;
  std::string Global;
  llvm::SmallPtrSet<const InitListExpr *, 8> Seen;
  /// The callees of direct calls, named only to be called.
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CalleeRefs;
  /// Member writes whose object is freed right after (noteFreedAfterWrites).
  llvm::SmallPtrSet<const MemberExpr *, 4> FreedAfter;
  /// Null for a global's initializer.
  std::optional<FunctionBelief> Belief;
};

class TUWalker : public RecursiveASTVisitor<TUWalker> {
public:
  explicit TUWalker(Collector &C) : C(C) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && !C.isUser(*D))
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

  bool VisitCXXMethodDecl(CXXMethodDecl *MD) {
    if (!MD->isDependentContext() && MD->size_overridden_methods())
      recordOverrides(*MD);
    return true;
  }

  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() && !RD->isLambda() &&
        !RD->isDependentContext() && !RD->isInvalidDecl())
      processRecord(*RD);
    return true;
  }

  // Interface tables and other globals built from aggregates:
  // `static const Ops table = {.run = NULL};`.
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage() && !VD->isStaticLocal() && VD->getInit() &&
        !VD->getDeclContext()->isDependentContext() &&
        !VD->getType()->isDependentType() && !isa<ParmVarDecl>(VD)) {
      auto Nested = [this](const FunctionDecl &L) { processFunction(L); };
      BodyWalker(nullptr, C, Nested, VD).TraverseStmt(VD->getInit());
    }
    return true;
  }

private:
  void processFunction(const FunctionDecl &FD) {
    if (!Done.insert(&FD).second)
      return;
    if (C.Types.isNullable(FD.getReturnType()))
      recordDefinition(FD);
    recordExits(FD);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD))
      recordFieldEffects(*MD);
    // Named: the walker keeps only a function_ref to it.
    auto Nested = [this](const FunctionDecl &L) { processFunction(L); };
    BodyWalker Walker(&FD, C, Nested);
    // A constructor's member initializers test and call callables as its
    // body does (`: v_(f ? f(1) : 0)`), and construct its bases, implicitly
    // too. Default member initializers are walked once, with the class,
    // not once per constructor.
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
      for (const CXXCtorInitializer *I : Ctor->inits()) {
        if (I->isWritten() || I->isBaseInitializer())
          Walker.TraverseStmt(I->getInit());
        if (I->isWritten() && I->isMemberInitializer())
          if (std::optional<FlagWrite> W =
                  flagInitOf(*I->getMember(), I->getInit(), C.Types, C.Ctx))
            Walker.noteFlagSet(*W, nullptr);
      }
    Walker.TraverseStmt(FD.getBody());
    Walker.finish();
  }

  /// The definition's summary, under its own key and, for an override, under
  /// every method it overrides: a virtual call's facts are the join over the
  /// overrides seen.
  void recordDefinition(const FunctionDecl &FD) {
    SourceLocation EmptyAt;
    Emptiness S = C.Summaries.summarize(FD, &EmptyAt);
    FactLoc L = EmptyAt.isValid() ? factLoc(EmptyAt, C.SM, &FD) : FactLoc();
    llvm::SmallVector<const FunctionDecl *> Keys{&FD};
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD))
      llvm::append_range(Keys, overridden(*MD));
    for (const FunctionDecl *K : Keys) {
      auto Key = functionKey(*K);
      if (!Key)
        continue;
      SourceFacts &F =
          C.Out.get(*Key, SourceKind::Function, K->getQualifiedNameAsString());
      F.Definition = joinDefinitions(F.Definition, S);
      keepFirst(F.EmptyReturn, L);
    }
  }

  /// That no call of FD returns, or that it returns only when one of its
  /// parameters is true (an assertion function), for the TUs that call it
  /// without seeing its definition (ExitsElsewhere.h): a function defined
  /// out of line, visible outside this TU, that returns nothing. An inline
  /// function or an instantiation is seen wherever it is called.
  void recordExits(const FunctionDecl &FD) {
    const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
    if (!FD.getReturnType()->isVoidType() || !FD.isExternallyVisible() ||
        FD.isInlined() || FD.isTemplateInstantiation() ||
        (MD &&
         (MD->isVirtual() || isa<CXXConstructorDecl, CXXDestructorDecl>(MD))))
      return;
    std::optional<std::string> Key = functionKey(FD);
    if (!Key)
      return;
    SourceFacts Exit;
    Exit.Kind = SourceKind::Function;
    if (mayNeverReturn(FD)) {
      Exit.NeverReturns = C.Summaries.neverReturns(FD);
      if (!Exit.NeverReturns)
        Exit.NeverReturnsIf = neverReturnsIf(FD, C.Ctx);
    }
    // Else, what its own TU sees of what it calls: an assertion that fails
    // into a logger defined in a third TU is not followed.
    if (!Exit.NeverReturns && Exit.NeverReturnsIf.empty()) {
      if (FD.getNumParams())
        Exit.ReturnsOnlyIf = C.Summaries.returnsOnlyIf(FD);
      if (!Exit.ReturnsOnlyIf)
        return;
      // One that returns only on a condition may still throw without it,
      // which a caller may catch: whether a test handed to it is an
      // assertion asks this too (SourceFacts::TestedUnless).
      Exit.EndsProcessUnless = C.Summaries.endsProcessUnless(FD);
    }
    C.Out.get(*Key, SourceKind::Function, FD.getQualifiedNameAsString())
        .merge(Exit);
  }

  /// What MD, a method defined out of line and visible outside this TU,
  /// does to the callable fields of its object, for the TUs that call it
  /// without seeing its definition and assumed it (MethodsElsewhere.h): the
  /// fields it copies a parameter into, the one its `bool` result tests,
  /// and the one it returns. Only where another TU could assume it
  /// (setterParameter, mayTestField, fieldMayReturn), so that most methods
  /// cost no extra analysis.
  void recordFieldEffects(const CXXMethodDecl &MD) {
    if (!MD.isExternallyVisible() || MD.isInlined() ||
        MD.isTemplateInstantiation() || MD.isDependentContext() ||
        !C.Cs.hasCallableFields(*MD.getParent()))
      return;
    std::optional<std::string> Key = functionKey(MD);
    if (!Key)
      return;
    SourceFacts Effects;
    Effects.Kind = SourceKind::Function;
    const FieldDecl *MayReturn = fieldMayReturn(MD, C.Types);
    for (const FieldDecl *F : MD.getParent()->fields()) {
      if (!C.Types.isNullable(F->getType()))
        continue;
      std::optional<std::string> FK = fieldKey(*F);
      if (!FK)
        continue;
      if (std::optional<unsigned> From = setterParameter(MD, *F)) {
        const MethodEffect *E = C.Summaries.methodEffect(MD);
        if (E && llvm::is_contained(E->FromParameter, std::make_pair(F, *From)))
          Effects.CopiesFields[*FK] = int(*From);
      } else if (mayTestField(MD, *F) && Effects.TestsField.empty()) {
        std::optional<AccessorTest> T = C.Summaries.accessorTest(MD);
        if (T && !T->Negated && !T->Partial && T->Fields.size() == 1 &&
            T->Fields[0] == F)
          Effects.TestsField = *FK;
      } else if (F == MayReturn) {
        FieldPath P = C.Summaries.fieldReturned(MD);
        if (P.size() == 1 && P[0] == F)
          Effects.ReturnsField = *FK;
      }
    }
    if (Effects.CopiesFields.empty() && Effects.TestsField.empty() &&
        Effects.ReturnsField.empty())
      return;
    C.Out.get(*Key, SourceKind::Function, MD.getQualifiedNameAsString())
        .merge(Effects);
  }

  /// Every method MD overrides, directly or not.
  static llvm::SmallVector<const CXXMethodDecl *>
  overridden(const CXXMethodDecl &MD) {
    llvm::SmallVector<const CXXMethodDecl *> Out;
    llvm::SmallVector<const CXXMethodDecl *> Work{&MD};
    while (!Work.empty())
      for (const CXXMethodDecl *O : Work.pop_back_val()->overridden_methods())
        if (!llvm::is_contained(Out, O)) {
          Out.push_back(O);
          Work.push_back(O);
        }
    return Out;
  }

  /// A call through a base method dispatches to its overrides: each callable
  /// parameter of an override also receives what the base's calls pass.
  void recordOverrides(const CXXMethodDecl &MD) {
    for (const CXXMethodDecl *O : overridden(MD))
      for (unsigned I = 0; I < MD.getNumParams() && I < O->getNumParams();
           ++I) {
        const ParmVarDecl *P = MD.getParamDecl(I);
        auto Base = parameterKey(*O->getParamDecl(I));
        if (!C.Types.isNullable(P->getType()) || !Base)
          continue;
        if (SourceFacts *F = C.parameter(*P, MD))
          if (!llvm::is_contained(F->Overrides, *Base))
            F->Overrides.push_back(*Base);
      }
  }

  void processRecord(const CXXRecordDecl &RD) {
    for (const FieldDecl *FD : RD.fields()) {
      if (C.Types.isNullable(FD->getType()))
        if (SourceFacts *F = C.field(*FD))
          recordConstructors(RD, *FD, *F);
      // A flag true from the start, in every object, vouches for nothing.
      if (std::optional<FlagWrite> W =
              flagInitOf(*FD, FD->getInClassInitializer(), C.Types, C.Ctx))
        if (SourceFacts *F = C.field(*FD))
          F->noteFlagSet(W->Value, {});
    }
  }

  /// RD's constructors, those that are templates included: each
  /// specialization this TU instantiated is a constructor of its own (dlib's
  /// `storage_heap(T &&t)`, which sets every member), as the constructions
  /// that use it name it. Without them, a field that only such a constructor
  /// sets would read "set only after construction".
  static llvm::SmallVector<const CXXConstructorDecl *, 8>
  constructorsOf(const CXXRecordDecl &RD) {
    llvm::SmallVector<const CXXConstructorDecl *, 8> Out(RD.ctors());
    for (const Decl *D : RD.decls())
      if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
        if (isa<CXXConstructorDecl>(T->getTemplatedDecl()))
          for (const FunctionDecl *Spec : T->specializations())
            if (Spec->isDefined())
              Out.push_back(cast<CXXConstructorDecl>(Spec));
    return Out;
  }

  /// What each constructor defined here does with FD.
  void recordConstructors(const CXXRecordDecl &RD, const FieldDecl &FD,
                          SourceFacts &F) {
    // A class without constructors is judged where it is made (its
    // constructions): a non-empty default member initializer sets the field
    // however it is made; else only an aggregate's initializer can, and the
    // implicit constructor leaves it empty. Both are recorded under
    // AggregateInit, so that a destructor's call can tell "set only after
    // construction" (Resolve's judgeLifecycle) from constructors defined in
    // a TU not seen.
    if (!RD.hasUserDeclaredConstructor()) {
      const Expr *Init = FD.getInClassInitializer();
      bool Sets = Init && !isEmptyValue(Init, C.Ctx);
      F.Constructors.try_emplace(
          ConstructionFact::AggregateInit.str(),
          CtorFact{RD.getNameAsString() + "{}", Sets, -1, "", "",
                   factLoc(FD.getLocation(), C.SM, nullptr)});
      return;
    }
    for (const CXXConstructorDecl *Ctor : constructorsOf(RD)) {
      if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted() ||
          Ctor->isImplicit())
        continue;
      std::optional<CtorFact> Effect = C.Cs.effectOn(*Ctor, FD);
      auto Key = functionKey(*Ctor);
      if (!Effect || !Key)
        continue; // Defined in another TU, which records it.
      // The note points at the definition, where the field is (not) set.
      const FunctionDecl *Def = Ctor;
      Ctor->hasBody(Def);
      Effect->Loc = factLoc(Def->getLocation(), C.SM, Def);
      auto [It, New] = F.Constructors.try_emplace(*Key, *Effect);
      if (!New)
        It->second.SetsField = It->second.SetsField && Effect->SetsField;
    }
  }

  Collector &C;
  llvm::SmallPtrSet<const FunctionDecl *, 32> Done;
};

} // namespace

void collectTUFacts(ASTContext &Ctx, const CallableTypes &Types,
                    PolicySummaries &Summaries, BodyIndexes &Indexes,
                    Constructions &Cs, PassedValues &Passed,
                    ProjectFacts &Out) {
  // A field a function sets on the object it just made counts as set
  // where the flow analysis of the function proves the value set.
  SetAfterConstruction SetAfter(
      Ctx, Types, Indexes, [&](const Expr &Value, const FunctionDecl &Owner) {
        return valueStateOf(Value, &Owner, Ctx, Types, Indexes, &Passed).What ==
               ValueState::Set;
      });
  Collector C{Ctx,     Ctx.getSourceManager(),
              Types,   Summaries,
              Indexes, Cs,
              Passed,  Out,
              SetAfter};
  TUWalker(C).TraverseAST(Ctx);
}

} // namespace wrapguard
