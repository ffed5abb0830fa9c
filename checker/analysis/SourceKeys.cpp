//===- SourceKeys.cpp - Which source a callable's value comes from --------===//

#include "SourceKeys.h"
#include "Guards.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
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
  if (auto U = usrOf(FD))
    return "m:" + *U;
  return std::nullopt;
}

std::optional<std::string> parameterKey(const ParmVarDecl &P) {
  const auto *Fn = dyn_cast<FunctionDecl>(P.getDeclContext());
  if (!Fn)
    return std::nullopt;
  auto K = functionKey(*Fn);
  if (!K)
    return std::nullopt;
  return "p:" + K->substr(2) + "#" + std::to_string(P.getFunctionScopeIndex());
}

std::optional<std::string> classKey(const CXXRecordDecl &RD) {
  const CXXRecordDecl *Canon = &RD;
  if (const CXXRecordDecl *Pattern = RD.getTemplateInstantiationPattern())
    Canon = Pattern;
  if (auto U = usrOf(*Canon->getCanonicalDecl()))
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

namespace {

class SourceCollector {
public:
  SourceCollector(const FunctionDecl &Owner, ASTContext &Ctx,
                  const CallableTypes &Types, const BodyIndex &Index)
      : Owner(Owner), Ctx(Ctx), Types(Types), Index(Index) {}

  void collect(const Expr *E, unsigned Depth) {
    E = stripNoise(E);
    if (!E || Depth > 4) {
      Out.Complete = false;
      return;
    }
    if (isEmptyValue(E, Ctx)) {
      Out.EmptyLocally = true;
      return;
    }
    if (isa<LambdaExpr>(E))
      return; // Non-empty, and the model knows it.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // A copy, move or conversion from another nullable callable carries
      // its sources; from anything else (a lambda, a function), it is set.
      for (const Expr *Arg : CE->arguments())
        if (Types.isNullable(Arg->getType()))
          return collect(Arg, Depth + 1);
      return;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return collect(Cast->getSubExpr(), Depth + 1); // IntFn(identity)
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      collect(CO->getTrueExpr(), Depth + 1);
      collect(CO->getFalseExpr(), Depth + 1);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        return; // &function, &object: never null.
      if (UO->getOpcode() == UO_Deref)
        return collect(UO->getSubExpr(), Depth + 1);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return collectDecl(*DRE, Depth);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        if (capturedBase(*ME->getBase())) {
          Out.Complete = false; // `[&] { req.f(); }`, `[this] { f(); }`
          return;
        }
        return addField(*FD);
      }
    if (const auto *C = dyn_cast<CallExpr>(E))
      return collectCall(*C, Depth);
    Out.Complete = false;
  }

  SourceSet Out;

private:
  void add(std::optional<std::string> Key, SourceKind Kind, std::string Name) {
    if (!Key) {
      Out.Complete = false;
      return;
    }
    for (const SourceUse &S : Out.Sources)
      if (S.Key == *Key)
        return;
    Out.Sources.push_back({*Key, Kind, std::move(Name)});
  }

  bool isCaptured(const VarDecl &V) {
    return (V.isLocalVarDecl() || isa<ParmVarDecl>(V)) &&
           V.getDeclContext() != &Owner;
  }

  bool capturedBase(const Expr &Base) {
    const Expr *B = stripNoise(&Base);
    if (isa<CXXThisExpr>(B)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(&Owner);
      return MD && MD->getParent()->isLambda();
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(B))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return isCaptured(*V);
    return false;
  }

  bool inSystemHeader(const Decl &D) {
    return Ctx.getSourceManager().isInSystemHeader(D.getLocation());
  }

  void addField(const FieldDecl &FD) {
    // Library fields (std::pair::second of a map entry, ...) are nobody's
    // source: tests of one map's entries say nothing of another's.
    if (inSystemHeader(FD)) {
      Out.Complete = false;
      return;
    }
    add(fieldKey(FD), SourceKind::Field, FD.getQualifiedNameAsString());
  }

  void collectDecl(const DeclRefExpr &DRE, unsigned Depth) {
    const ValueDecl *D = DRE.getDecl();
    if (isa<FunctionDecl>(D))
      return; // A function designator: never null.
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V) {
      Out.Complete = false;
      return;
    }
    // A lambda's capture (a local or a parameter of the enclosing
    // function): the dataflow model does not follow values into lambdas,
    // and the lambda is often made under the very guard that protects it.
    if (isCaptured(*V)) {
      Out.Complete = false;
      return;
    }
    const auto *P = dyn_cast<ParmVarDecl>(V);
    if (P)
      add(parameterKey(*P), SourceKind::Parameter, P->getNameAsString());
    else if (!V->isLocalVarDecl()) {
      Out.Complete = false;
      return;
    } else if (const Expr *Init = V->getInit())
      collect(Init, Depth + 1);
    else
      Out.EmptyLocally = true; // Default-constructed or uninitialised.
    const BodyIndex::Local *L = Index.find(*V);
    if (!L)
      return;
    if (L->Escapes)
      Out.Complete = false;
    for (const BodyIndex::Event &E : L->Events)
      if (E.What == BodyIndex::Event::Assign)
        collect(E.Value, Depth + 1);
  }

  void collectCall(const CallExpr &C, unsigned Depth) {
    if (const Expr *Moved = movedFromObject(&C))
      return collect(Moved, Depth + 1);
    const FunctionDecl *FD = C.getDirectCallee();
    if (!FD || inSystemHeader(*FD)) {
      Out.Complete = false;
      return;
    }
    add(functionKey(*FD), SourceKind::Function, FD->getQualifiedNameAsString());
  }

  const FunctionDecl &Owner;
  ASTContext &Ctx;
  const CallableTypes &Types;
  const BodyIndex &Index;
};

} // namespace

SourceSet sourcesOf(const Expr &E, const FunctionDecl &Owner, ASTContext &Ctx,
                    const CallableTypes &Types, const BodyIndex &Index) {
  SourceCollector C(Owner, Ctx, Types, Index);
  C.collect(&E, 0);
  return std::move(C.Out);
}

/// A function object that is not itself a nullable callable (a lambda, an
/// adapter struct wrapping a callable): a callable made from it is never
/// empty, whatever the object wraps (`f_ = Adapter(std::move(g));`).
static bool isFunctionObject(const Expr &E, const CallableTypes &Types,
                             ASTContext &Ctx) {
  const Expr *S = &E;
  for (const Expr *Prev = nullptr; S != Prev;) {
    Prev = S;
    S = S->IgnoreImplicit()->IgnoreParens();
    // The callable's converting constructor from the object.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
        CE && CE->getNumArgs() == 1 && Types.isNullable(CE->getType()) &&
        !CE->getConstructor()->isCopyOrMoveConstructor())
      S = CE->getArg(0);
  }
  QualType T = S->getType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Types.isNullable(T))
    return false;
  return RD->isLambda() ||
         !RD->lookup(Ctx.DeclarationNames.getCXXOperatorName(OO_Call)).empty();
}

/// A field of an object the function was handed (`req.provider_` with `req`
/// a parameter): whether it is set is the caller's to know (it may test it
/// before the call), which the facts of this call do not see.
static bool isFieldOfParameter(const Expr &E) {
  const auto *ME = dyn_cast<MemberExpr>(stripNoise(&E));
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(ME->getBase()));
  return DRE && isa<ParmVarDecl>(DRE->getDecl());
}

ValueState valueStateOf(const Expr &E, const FunctionDecl *Owner,
                        ASTContext &Ctx, const CallableTypes &Types,
                        BodyIndexes &Indexes) {
  if (isEmptyValue(&E, Ctx))
    return ValueState::of(ValueState::Empty);
  if (isFunctionObject(E, Types, Ctx))
    return ValueState::of(ValueState::Set);
  if (!Owner) {
    // A global's initializer: only what is written there tells.
    const Expr *S = stripNoise(&E);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
        CE && CE->getNumArgs() == 1)
      S = stripNoise(CE->getArg(0));
    bool Set = isa<LambdaExpr, CXXNewExpr>(S);
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      Set |= UO->getOpcode() == UO_AddrOf;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      Set |= isa<FunctionDecl>(DRE->getDecl());
    return ValueState::of(Set ? ValueState::Set : ValueState::Unknown);
  }
  // A local passed on is judged by the last value it was given before the
  // call, in source order: `Fn out; if (c) out = f; else out = g; run(out);`
  // passes a set value, whatever `Fn out;` said. Branches that leave it
  // empty are not seen, which keeps argument evidence on the side of
  // silence.
  const SourceManager &SM = Ctx.getSourceManager();
  // Passed by value: the copy or move of the local.
  const Expr *Passed = stripNoise(&E);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Passed);
      CE && CE->getNumArgs() == 1 &&
      CE->getConstructor()->isCopyOrMoveConstructor())
    Passed = stripNoise(CE->getArg(0));
  if (const Expr *Moved = movedFromObject(Passed))
    Passed = stripNoise(Moved);
  if (isFieldOfParameter(*Passed))
    return ValueState::of(ValueState::Unknown);
  // Passed under a test that proves it set: `if (f) run(f);`.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Passed); DRE && Owner->getBody())
    if (llvm::is_contained(
            nonEmptyVarsAt(E, Indexes.of(*Owner).parents(), Types, Ctx),
            DRE->getDecl()))
      return ValueState::of(ValueState::Set);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Passed))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->isLocalVarDecl() && V->getDeclContext() == Owner)
      if (std::optional<BodyIndex::Event> Last =
              Indexes.of(*Owner).latestBefore(
                  *V, SM.getExpansionLoc(E.getBeginLoc()), SM)) {
        if (Last->What != BodyIndex::Event::Init &&
            Last->What != BodyIndex::Event::Assign)
          return ValueState::of(ValueState::Empty);
        if (stripNoise(Last->Value) != Passed)
          return valueStateOf(*Last->Value, Owner, Ctx, Types, Indexes);
      }
  SourceSet S = sourcesOf(E, *Owner, Ctx, Types, Indexes.of(*Owner));
  if (!S.Complete)
    return ValueState::of(ValueState::Unknown);
  if (S.EmptyLocally)
    return ValueState::of(ValueState::Empty);
  if (S.Sources.empty())
    return ValueState::of(ValueState::Set);
  ValueState V = ValueState::of(ValueState::From);
  for (const SourceUse &U : S.Sources)
    V.Keys.push_back(U.Key);
  llvm::sort(V.Keys);
  return V;
}

const Expr *testedCallable(const Expr &E, const CallableTypes &Types,
                           ASTContext &Ctx) {
  auto Nullable = [&](const Expr *X) {
    return X && Types.isNullable(X->getType());
  };
  if (const auto *Cast = dyn_cast<CastExpr>(&E)) {
    if ((Cast->getCastKind() == CK_PointerToBoolean ||
         Cast->getCastKind() == CK_MemberPointerToBoolean) &&
        Nullable(Cast->getSubExpr()))
      return Cast->getSubExpr();
    return nullptr;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!M || !Obj)
      return nullptr;
    if (!Nullable(Obj))
      Obj = stripNoise(Obj); // Smart pointers declare operator bool in a base.
    if (!Nullable(Obj))
      return nullptr;
    if (const auto *Conv = dyn_cast<CXXConversionDecl>(M))
      return Conv->getConversionType()->isBooleanType() ? Obj : nullptr;
    if (M->getIdentifier() && M->getName() == "has_value")
      return Obj;
    return nullptr;
  }
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(&E)) {
    if (!BO->isEqualityOp())
      return nullptr;
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&E)) {
    if ((OC->getOperator() != OO_EqualEqual &&
         OC->getOperator() != OO_ExclaimEqual) ||
        OC->getNumArgs() != 2)
      return nullptr;
    L = OC->getArg(0);
    R = OC->getArg(1);
  } else {
    return nullptr;
  }
  if (isNullLiteral(R, Ctx) && Nullable(L))
    return L;
  if (isNullLiteral(L, Ctx) && Nullable(R))
    return R;
  return nullptr;
}

} // namespace wrapguard
