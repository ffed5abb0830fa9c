//===- Constructions.cpp - How the project builds classes with callables --===//

#include "Constructions.h"
#include "CallableSyntax.h"
#include "Guards.h"
#include "PolicyCallModel.h"
#include "PolicySummaries.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "ValueSources.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace wrapguard {

bool Constructions::hasCallableFields(const CXXRecordDecl &Decl) {
  const CXXRecordDecl *RD = Decl.getDefinition();
  if (!RD || RD->isLambda() || RD->isDependentContext())
    return false;
  auto [It, New] = HasCallables.try_emplace(RD, false);
  if (New)
    It->second = !Ctx.getSourceManager().isInSystemHeader(RD->getLocation()) &&
                 llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
                   return Types.isNullable(F->getType());
                 });
  return It->second;
}

bool Constructions::buildsCallableFields(const CXXRecordDecl &Decl,
                                         unsigned Depth) {
  if (hasCallableFields(Decl))
    return true;
  const CXXRecordDecl *RD = Decl.getDefinition();
  if (!RD || Depth > 4)
    return false;
  return llvm::any_of(RD->bases(), [&](const CXXBaseSpecifier &B) {
    const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
    return Base && buildsCallableFields(*Base, Depth + 1);
  });
}

std::string Constructions::constructorName(const CXXConstructorDecl &C) {
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

ValueState Constructions::stateOf(const Expr *Arg, const FunctionDecl *Owner) {
  if (const auto *D = dyn_cast_or_null<CXXDefaultArgExpr>(Arg))
    Arg = D->getExpr();
  if (const auto *D = dyn_cast_or_null<CXXDefaultInitExpr>(Arg))
    Arg = D->getExpr();
  if (!Arg)
    return ValueState::of(ValueState::Empty);
  return valueStateOf(*Arg, Owner, Ctx, Types, Indexes, &Passed);
}

Construction Constructions::make(const CXXRecordDecl &RD, std::string Ctor,
                                 std::string CtorName, SourceLocation Loc,
                                 const FunctionDecl *Owner) {
  Construction C;
  C.Class = &RD;
  C.ClassKey = classKey(RD).value_or("");
  C.Fact.Ctor = std::move(Ctor);
  C.Fact.CtorName = std::move(CtorName);
  C.Fact.Count = 1;
  C.Fact.At = factLoc(Loc, Ctx.getSourceManager(), Owner);
  return C;
}

/// A class that declares no constructor is built field by field: an
/// aggregate initialisation, or its implicit default constructor.
static bool isAggregateLike(const CXXRecordDecl &RD) {
  return !RD.hasUserDeclaredConstructor();
}

std::optional<Construction>
Constructions::ofAggregate(const CXXRecordDecl &Decl, const InitListExpr *Init,
                           SourceLocation Loc, const FunctionDecl *Owner,
                           bool Indeterminate) {
  const CXXRecordDecl *RD = Decl.getDefinition();
  if (!RD || !hasCallableFields(*RD) || !isAggregateLike(*RD))
    return std::nullopt;
  Construction C = make(*RD, ConstructionFact::AggregateInit.str(),
                        RD->getNameAsString() + "{}", Loc, Owner);
  // In the initializer list, the bases come before the fields.
  unsigned Bases = RD->getNumBases();
  for (const FieldDecl *F : RD->fields()) {
    if (!Types.isNullable(F->getType())) {
      C.Fact.Args.push_back(ValueState::of(ValueState::NotCallable));
      continue;
    }
    const Expr *Value = F->getInClassInitializer();
    // `Params p; memcpy(&p, src, sizeof p);`: a function pointer that
    // nothing initialises holds whatever the code writes before reading it,
    // which is no evidence of emptiness (a record field, a std::function,
    // is default-constructed: empty).
    if (Indeterminate && !Value && !F->getType()->isRecordType()) {
      C.Fact.Args.push_back(ValueState::of(ValueState::Unknown));
      continue;
    }
    unsigned I = Bases + F->getFieldIndex();
    if (Init && I < Init->getNumInits())
      Value = Init->getInit(I);
    C.Fact.Args.push_back(stateOf(Value, Owner));
  }
  return C;
}

std::optional<Construction>
Constructions::ofConstructor(const CXXConstructExpr &CE,
                             const FunctionDecl *Owner) {
  const CXXConstructorDecl *Ctor = CE.getConstructor();
  if (!Ctor || Ctor->isCopyOrMoveConstructor() ||
      !hasCallableFields(*Ctor->getParent()))
    return std::nullopt;
  const CXXRecordDecl &RD = *Ctor->getParent();
  // A global is zero-initialised before its constructor runs; `T x;` and
  // `new T` of automatic or dynamic storage are not (their scalar fields
  // are default-initialised, whatever the implicit constructor does for
  // the others), `T()` is.
  bool Indeterminate = Owner && !CE.requiresZeroInitialization();
  if (isAggregateLike(RD))
    return Ctor->isDefaultConstructor()
               ? ofAggregate(RD, nullptr, CE.getBeginLoc(), Owner,
                             Indeterminate)
               : std::nullopt;
  auto Key = functionKey(*Ctor);
  if (!Key)
    return std::nullopt;
  Construction C =
      make(RD, *Key, constructorName(*Ctor), CE.getBeginLoc(), Owner);
  for (unsigned I = 0; I < Ctor->getNumParams(); ++I) {
    const ParmVarDecl *P = Ctor->getParamDecl(I);
    if (!Types.isNullable(P->getType()))
      C.Fact.Args.push_back(ValueState::of(ValueState::NotCallable));
    else
      C.Fact.Args.push_back(stateOf(
          I < CE.getNumArgs() ? CE.getArg(I) : P->getDefaultArg(), Owner));
  }
  return C;
}

namespace {
/// The constructions and calls in one function body, for the search of a
/// forwarded construction.
class ForwardWalker : public RecursiveASTVisitor<ForwardWalker> {
public:
  ForwardWalker(Constructions &Cs) : Cs(Cs) {}
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *C = CE->getConstructor();
    if (!Found && C && !C->isCopyOrMoveConstructor() &&
        Cs.buildsCallableFields(*C->getParent()))
      Found = CE;
    if (C)
      Callees.push_back(C);
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      Callees.push_back(FD);
    return !Found;
  }
  Constructions &Cs;
  const CXXConstructExpr *Found = nullptr;
  std::vector<const FunctionDecl *> Callees;
};
} // namespace

const CXXConstructExpr *
Constructions::forwardedConstruction(const FunctionDecl &Start) {
  auto [It, New] = Forwarded.try_emplace(&Start, nullptr);
  if (!New)
    return It->second;
  // Breadth first through the library's own instantiated callees: the
  // construction sits a few calls down (make_shared, allocate_shared, the
  // control block, allocator_traits::construct). Bounded, and cached per
  // instantiation.
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Queue{&Start};
  llvm::DenseSet<const FunctionDecl *> Seen{&Start};
  for (size_t I = 0; I < Queue.size() && I < 256; ++I) {
    const FunctionDecl *Def = nullptr;
    if (!Queue[I]->hasBody(Def) || !Def)
      continue;
    ForwardWalker W(*this);
    // The library's constructors forward through their initializers
    // (`__shared_ptr(..) : _M_refcount(.., std::forward<_Args>(__args)...)`).
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (!W.Found)
          W.TraverseStmt(Init->getInit());
    if (!W.Found)
      W.TraverseStmt(Def->getBody());
    if (W.Found)
      return It->second = W.Found;
    for (const FunctionDecl *C : W.Callees)
      if (SM.isInSystemHeader(C->getLocation()) && Seen.insert(C).second)
        Queue.push_back(C);
  }
  return nullptr;
}

/// Standard functions that construct an object from the arguments they
/// forward.
static bool isForwardingFactory(const FunctionDecl &FD) {
  if (!FD.getIdentifier())
    return false;
  StringRef N = FD.getName();
  if (FD.isInStdNamespace() && (N == "make_shared" || N == "make_unique" ||
                                N == "allocate_shared" || N == "construct_at"))
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return MD && MD->getParent()->isInStdNamespace() &&
         (N == "emplace_back" || N == "emplace_front" || N == "emplace" ||
          N == "try_emplace" || N == "emplace_hint");
}

std::optional<Construction>
Constructions::ofFactory(const CallExpr &Call, const FunctionDecl *Owner) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !isForwardingFactory(*FD))
    return std::nullopt;
  const CXXConstructExpr *Inner = forwardedConstruction(*FD);
  if (!Inner)
    return std::nullopt;
  const CXXConstructorDecl *Ctor = Inner->getConstructor();
  const CXXRecordDecl &RD = *Ctor->getParent();
  // One whose callable fields are its bases' (baseConstructions).
  if (!hasCallableFields(RD))
    return std::nullopt;
  if (isAggregateLike(RD))
    return Ctor->isDefaultConstructor()
               ? ofAggregate(RD, nullptr, Call.getBeginLoc(), Owner)
               : std::nullopt;
  auto Key = functionKey(*Ctor);
  if (!Key)
    return std::nullopt;
  // The constructor's arguments are the call's last ones (emplace's key
  // and the object of a member call come first).
  unsigned Forwarded = 0;
  while (Forwarded < Inner->getNumArgs() &&
         !isa<CXXDefaultArgExpr>(Inner->getArg(Forwarded)))
    ++Forwarded;
  unsigned CallArgs = Call.getNumArgs();
  if (Forwarded > CallArgs)
    return std::nullopt;
  Construction C =
      make(RD, *Key, constructorName(*Ctor), Call.getBeginLoc(), Owner);
  for (unsigned I = 0; I < Ctor->getNumParams(); ++I) {
    const ParmVarDecl *P = Ctor->getParamDecl(I);
    if (!Types.isNullable(P->getType()))
      C.Fact.Args.push_back(ValueState::of(ValueState::NotCallable));
    else if (I < Forwarded)
      C.Fact.Args.push_back(
          stateOf(Call.getArg(CallArgs - Forwarded + I), Owner));
    else
      C.Fact.Args.push_back(stateOf(P->getDefaultArg(), Owner));
  }
  return C;
}

std::optional<Construction> Constructions::at(const Expr &E,
                                              const FunctionDecl *Owner) {
  const Expr *S = stripNoise(&E);
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(S))
    S = New->getInitializer() ? stripNoise(New->getInitializer()) : nullptr;
  if (!S)
    return std::nullopt;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    return ofConstructor(*CE, Owner);
  if (const auto *ILE = dyn_cast<InitListExpr>(S)) {
    const InitListExpr *Sem =
        ILE->isSemanticForm() ? ILE : ILE->getSemanticForm();
    if (const auto *RD = Sem ? Sem->getType()->getAsCXXRecordDecl() : nullptr)
      return ofAggregate(*RD, Sem, Sem->getBeginLoc(), Owner);
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return ofFactory(*Call, Owner);
  return std::nullopt;
}

std::vector<Construction>
Constructions::baseConstructions(const Expr &E, const FunctionDecl *Owner) {
  std::vector<Construction> Out;
  const Expr *S = stripNoise(&E);
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(S))
    S = New->getInitializer() ? stripNoise(New->getInitializer()) : nullptr;
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(S);
  if (!CE)
    if (const auto *Call = dyn_cast_or_null<CallExpr>(S))
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && isForwardingFactory(*FD))
        CE = forwardedConstruction(*FD);
  const CXXConstructorDecl *Ctor = CE ? CE->getConstructor() : nullptr;
  if (!Ctor || Ctor->isCopyOrMoveConstructor())
    return Out;
  // `T()` and `std::make_unique<T>()` zero the scalars of a class whose
  // constructor the compiler wrote; `T x;` and `new T` do not (see
  // ofConstructor).
  bool ZeroInit = !Owner || CE->requiresZeroInitialization();
  addBaseConstructions(*Ctor, ZeroInit, E.getBeginLoc(), Owner,
                       constructorName(*Ctor), 0, Out);
  return Out;
}

void Constructions::addBaseConstructions(
    const CXXConstructorDecl &Ctor, bool ZeroInit, SourceLocation Loc,
    const FunctionDecl *Owner, const std::string &Name, unsigned Depth,
    std::vector<Construction> &Out, const CXXConstructorDecl *Object) {
  const FunctionDecl *Def = nullptr;
  if (Depth > 4 || Ctor.isUserProvided() || !Ctor.isDefined(Def))
    return;
  for (const CXXCtorInitializer *Init :
       cast<CXXConstructorDecl>(Def)->inits()) {
    if (!Init->isBaseInitializer() || Init->isBaseVirtual())
      continue;
    const auto *BCE = dyn_cast_or_null<CXXConstructExpr>(
        Init->getInit() ? Init->getInit()->IgnoreImplicit() : nullptr);
    const CXXConstructorDecl *Base = BCE ? BCE->getConstructor() : nullptr;
    if (!Base || Base->isCopyOrMoveConstructor())
      continue;
    const CXXRecordDecl &RD = *Base->getParent();
    if (hasCallableFields(RD)) {
      std::optional<Construction> K =
          isAggregateLike(RD)
              ? (Base->isDefaultConstructor()
                     ? ofAggregate(RD, nullptr, Loc, Owner, !ZeroInit)
                     : std::nullopt)
              : ofConstructor(*BCE, Def);
      if (K) {
        K->Fact.CtorName = Name;
        K->Fact.At = factLoc(Loc, Ctx.getSourceManager(), Owner);
        // The object is of the class whose constructor was first asked
        // about, the most derived.
        if (const CXXConstructorDecl *Top = Object ? Object : &Ctor)
          K->Fact.Overridden = overriddenIn(*Top->getParent(), RD);
        Out.push_back(std::move(*K));
      }
    }
    addBaseConstructions(*Base, ZeroInit, Loc, Owner, Name, Depth + 1, Out,
                         Object ? Object : &Ctor);
  }
}

namespace {
/// Whether a body names a given method (a qualified call of the base's
/// version, or its address).
class NamesMethod : public RecursiveASTVisitor<NamesMethod> {
public:
  explicit NamesMethod(const CXXMethodDecl &M) : M(M) {}
  bool VisitMemberExpr(MemberExpr *ME) { return !check(ME->getMemberDecl()); }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) { return !check(DRE->getDecl()); }
  bool Found = false;

private:
  bool check(const ValueDecl *D) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(D);
    Found |= MD && MD->getCanonicalDecl() == M.getCanonicalDecl();
    return Found;
  }
  const CXXMethodDecl &M;
};
} // namespace

std::vector<std::string>
Constructions::overriddenIn(const CXXRecordDecl &Derived,
                            const CXXRecordDecl &Base) {
  std::vector<std::string> Out;
  const CXXRecordDecl *D = Derived.getDefinition();
  if (!D || D == Base.getDefinition() || !D->isDerivedFrom(&Base))
    return Out;
  for (const CXXMethodDecl *M : Base.methods()) {
    if (!M->isVirtual() || isa<CXXDestructorDecl>(M))
      continue;
    const CXXMethodDecl *O = M->getCorrespondingMethodInClass(D);
    const FunctionDecl *Def = nullptr;
    if (!O || O->getCanonicalDecl() == M->getCanonicalDecl() ||
        !O->getParent()->isDerivedFrom(&Base) || !O->hasBody(Def) || !Def)
      continue;
    NamesMethod Finder(*M);
    Finder.TraverseStmt(Def->getBody());
    if (Finder.Found)
      continue;
    if (std::optional<std::string> Key = functionKey(*M))
      Out.push_back(*Key);
  }
  llvm::sort(Out);
  return Out;
}

//===----------------------------------------------------------------------===//
// What a constructor does with one field.
//===----------------------------------------------------------------------===//

namespace {

/// How a constructor's body sets a field, read off its statements.
class BodyEffect {
public:
  BodyEffect(ASTContext &Ctx, const FieldDecl &F, const ParamMembers &Params)
      : Ctx(Ctx), F(F), Params(Params) {}

  /// Whether the statements of S set F, in order: nullopt when they do not;
  /// otherwise the effect (FromParameter, Condition filled in).
  std::optional<CtorFact> ofBlock(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 3)
      return std::nullopt;
    const auto *CS = dyn_cast<CompoundStmt>(S);
    if (!CS)
      return ofStatement(S, Depth);
    std::optional<CtorFact> Result;
    for (const Stmt *Child : CS->body())
      if (std::optional<CtorFact> E = ofStatement(Child, Depth))
        // An unconditional set wins over a conditional one before it.
        if (!Result || E->Condition.empty())
          Result = E;
    return Result;
  }

  /// The effect of giving F the value V: none when V is empty as written.
  std::optional<CtorFact> setTo(const Expr *V) {
    if (!V || isEmptyValue(V, Ctx))
      return std::nullopt;
    return CtorFact{"", true, parameterIndex(V), "", "", {}};
  }

private:
  std::optional<CtorFact> ofStatement(const Stmt *S, unsigned Depth) {
    if (const auto *If = dyn_cast<IfStmt>(S))
      return ofIf(*If, Depth);
    // A nested block sets what its statements set, as if they were written
    // in the enclosing one: a statement macro's braces
    // (`{ fn = (fn_t)dlsym(..); if (dlerror()) return; }`) change nothing.
    if (isa<CompoundStmt>(S))
      return ofBlock(S, Depth);
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return std::nullopt;
    E = stripNoise(E);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      return ofMemberCall(*MC, Depth);
    std::optional<Assignment> A = assignmentOf(E);
    if (!A || !isThisField(A->LHS))
      return std::nullopt;
    return setTo(A->RHS);
  }

  /// `f_.reset(new T)`, `f_.emplace(..)`, `f_.swap(g)`, and methods of the
  /// same class the constructor calls (`reset()`, `init()`).
  std::optional<CtorFact> ofMemberCall(const CXXMemberCallExpr &MC,
                                       unsigned Depth) {
    const CXXMethodDecl *M = MC.getMethodDecl();
    const Expr *Obj = MC.getImplicitObjectArgument();
    if (!M || !Obj)
      return std::nullopt;
    if (isa<CXXThisExpr>(stripNoise(Obj)) && M->getParent() == F.getParent()) {
      const FunctionDecl *Def = nullptr;
      if (M->hasBody(Def) && Def)
        return ofBlock(Def->getBody(), Depth + 1);
      return std::nullopt;
    }
    if (!isThisField(Obj) || !M->getIdentifier())
      return std::nullopt;
    StringRef N = M->getName();
    if (N == "emplace")
      return CtorFact{"", true, -1, "", "", {}};
    if ((N == "reset" || N == "swap") && MC.getNumArgs() == 1)
      return setTo(MC.getArg(0));
    return std::nullopt;
  }

  /// `if (c) { f_ = g; }`: set under c's atoms, or under a member flag the
  /// same branch sets (`has_f_ = true`).
  std::optional<CtorFact> ofIf(const IfStmt &If, unsigned Depth) {
    std::optional<CtorFact> Then = ofBlock(If.getThen(), Depth);
    std::optional<CtorFact> Else = ofBlock(If.getElse(), Depth);
    if (Then && Else && Then->Condition.empty() && Else->Condition.empty())
      return Then;
    if (!Then && !Else)
      return std::nullopt;
    bool InElse = !Then;
    CtorFact Result = InElse ? *Else : *Then;
    std::vector<std::string> Atoms;
    std::string Text;
    if (If.getCond()) {
      Atoms = conditionAtoms(*If.getCond(), InElse, &Params);
      Text = spelled(*If.getCond());
      if (InElse)
        Text = "!(" + Text + ")";
    }
    if (Atoms.empty())
      if (const FieldDecl *Flag =
              flagSetTrue(InElse ? If.getElse() : If.getThen()))
        if (auto K = fieldKey(*Flag)) {
          Atoms.push_back(*K);
          Text = Flag->getName().str();
        }
    if (Atoms.empty())
      return std::nullopt; // Set under a condition nothing keeps.
    if (!Result.Condition.empty()) {
      Atoms.push_back(Result.Condition);
      Text += " && " + Result.ConditionText;
    }
    Result.Condition = llvm::join(Atoms, "&");
    Result.ConditionText = Text;
    return Result;
  }

  /// A bool member the block assigns `true` at its top level.
  const FieldDecl *flagSetTrue(const Stmt *S) {
    const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
    llvm::ArrayRef<Stmt *> Body =
        CS ? llvm::ArrayRef<Stmt *>(CS->body_begin(), CS->body_end())
           : llvm::ArrayRef<Stmt *>();
    for (const Stmt *Child : Body) {
      const auto *BO = dyn_cast<BinaryOperator>(Child);
      if (!BO || BO->getOpcode() != BO_Assign)
        continue;
      const auto *ME = dyn_cast<MemberExpr>(stripNoise(BO->getLHS()));
      const auto *B = dyn_cast<CXXBoolLiteralExpr>(stripNoise(BO->getRHS()));
      if (ME && B && B->getValue() &&
          isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
    }
    return nullptr;
  }

  std::string spelled(const Expr &E) {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E.getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }

  bool isThisField(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(stripNoise(E));
    return ME && ME->getMemberDecl() == &F &&
           isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  }

  /// The constructor parameter V copies or moves, or -1.
  static int parameterIndex(const Expr *V) {
    V = stripNoise(V);
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(V);
        CE && CE->getNumArgs() == 1)
      V = stripNoise(CE->getArg(0));
    if (const Expr *Moved = movedFromObject(V))
      V = stripNoise(Moved);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(V))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        return P->getFunctionScopeIndex();
    return -1;
  }

  ASTContext &Ctx;
  const FieldDecl &F;
  const ParamMembers &Params;
};

bool defaultInitSets(const FieldDecl &F, ASTContext &Ctx) {
  const Expr *Init = F.getInClassInitializer();
  return Init && !isEmptyValue(Init, Ctx);
}

} // namespace

const ExitEffect &Constructions::exitEffect(const CXXConstructorDecl &Def) {
  auto It = AtExit.find(&Def);
  if (It != AtExit.end())
    return It->second;
  return AtExit[&Def] =
             exitEffectOf(Def, Ctx, Types, Oracle, Opts.MaxSolverIterations,
                          Opts.MaxBlockVisits);
}

std::optional<CtorFact> Constructions::effectOn(const CXXConstructorDecl &Ctor,
                                                const FieldDecl &F) {
  std::optional<CtorFact> Fact = writtenEffectOn(Ctor, F);
  // What the statements say is refined by what the flow analysis proves: a
  // constructor that normalises its argument (`p_ = p; if (!p_) p_ = dflt;`)
  // sets the field whatever it is passed. A construction leaves a field
  // empty only if some path to the constructor's exit does.
  const FunctionDecl *Def = nullptr;
  if (!Fact || Ctor.isDefaulted() || !Ctor.hasBody(Def) || !Def ||
      (Fact->SetsField && Fact->FromParameter < 0 && Fact->Condition.empty()))
    return Fact;
  const auto *D = cast<CXXConstructorDecl>(Def);
  const ExitEffect &X = exitEffect(*D);
  if (X.Set.count(&F)) {
    Fact->SetsField = true;
    Fact->FromParameter = -1;
    Fact->Condition.clear();
    Fact->ConditionText.clear();
    return Fact;
  }
  // Set wherever a member flag is true at the exit: the condition the
  // calls' guards are matched with (Candidate::Guards), whatever branches
  // and aborts got there.
  if (auto W = X.SetWhenFlag.find(&F);
      W != X.SetWhenFlag.end() && Fact->FromParameter < 0)
    if (std::optional<std::string> Key = fieldKey(*W->second)) {
      Fact->SetsField = true;
      Fact->Condition = *Key;
      Fact->ConditionText = W->second->getName().str();
      return Fact;
    }
  // "Set from parameter i" claims the field is exactly what the argument
  // is; a body that changes it on some paths (`if (strict && !p_) p_ =
  // dflt;`) makes the claim wrong for some constructions: say nothing.
  if (Fact->FromParameter >= 0 && Fact->Condition.empty() && X.Analysed &&
      !D->isDelegatingConstructor()) {
    auto It = X.SameAsParameter.find(&F);
    if (It == X.SameAsParameter.end() ||
        It->second != unsigned(Fact->FromParameter))
      return std::nullopt;
  }
  return Fact;
}

std::optional<CtorFact>
Constructions::writtenEffectOn(const CXXConstructorDecl &Ctor,
                               const FieldDecl &F) {
  CtorFact Fact;
  Fact.Name = constructorName(Ctor);
  if (Ctor.isDefaulted()) {
    Fact.SetsField = defaultInitSets(F, Ctx);
    return Fact;
  }
  const FunctionDecl *Def = nullptr;
  if (!Ctor.hasBody(Def) || !Def)
    return std::nullopt;
  const auto *D = cast<CXXConstructorDecl>(Def);
  if (D->isDelegatingConstructor()) {
    // What the target does, with this constructor's arguments to it.
    const CXXConstructorDecl *T = D->getTargetConstructor();
    std::optional<CtorFact> Target = T && T != D ? effectOn(*T, F) : Fact;
    if (!Target)
      return std::nullopt;
    Fact.SetsField = Target->SetsField;
    Fact.Condition = Target->Condition;
    Fact.ConditionText = Target->ConditionText;
    const auto *Init = D->init_begin() != D->init_end()
                           ? dyn_cast<CXXConstructExpr>(
                                 stripNoise((*D->init_begin())->getInit()))
                           : nullptr;
    if (Target->FromParameter >= 0 && Init &&
        unsigned(Target->FromParameter) < Init->getNumArgs()) {
      const Expr *Arg = Init->getArg(Target->FromParameter);
      ParamMembers None;
      BodyEffect Effect(Ctx, F, None);
      std::optional<CtorFact> Through = Effect.setTo(Arg);
      Fact.SetsField = Through.has_value();
      Fact.FromParameter = Through ? Through->FromParameter : -1;
    }
    return Fact;
  }
  ParamMembers Params;
  for (const CXXCtorInitializer *I : D->inits()) {
    if (!I->getMember())
      continue;
    const Expr *Init = stripNoise(I->getInit());
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Init);
        CE && CE->getNumArgs() == 1)
      Init = stripNoise(CE->getArg(0));
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Init))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        Params[P] = I->getMember();
  }
  BodyEffect Effect(Ctx, F, Params);
  for (const CXXCtorInitializer *I : D->inits()) {
    if (I->getMember() != &F)
      continue;
    // Written, or the default member initializer; an empty one may still be
    // followed by a set in the body.
    if (I->isWritten()) {
      if (std::optional<CtorFact> E = Effect.setTo(I->getInit())) {
        Fact.SetsField = true;
        Fact.FromParameter = E->FromParameter;
        return Fact;
      }
    } else if (defaultInitSets(F, Ctx)) {
      Fact.SetsField = true;
      return Fact;
    }
    break;
  }
  if (std::optional<CtorFact> E = Effect.ofBlock(D->getBody(), 0)) {
    Fact.SetsField = true;
    Fact.FromParameter = E->FromParameter;
    Fact.Condition = E->Condition;
    Fact.ConditionText = E->ConditionText;
  }
  return Fact;
}

} // namespace wrapguard
