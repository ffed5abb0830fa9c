//===- PolicySummaries.cpp - What a call returning a callable yields ------===//

#include "PolicySummaries.h"
#include "AccessorTests.h"
#include "ExitEffects.h"
#include "PolicyCallModel.h"
#include "StripNoise.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

/// How deep callee summaries may recurse into other visible definitions;
/// with the cycle check, it bounds the work one question can start. A fixed
/// limit, not an option: nothing has needed another.
static constexpr unsigned MaxSummaryDepth = 3;

PolicySummaries::PolicySummaries(ASTContext &Ctx, const AnalysisOptions &Opts,
                                 const CallableTypes &Types)
    : Ctx(Ctx), Opts(Opts), Types(Types), NoReturn(Ctx), Handles(Ctx),
      PolicyRe(Opts.PolicyNames, llvm::Regex::IgnoreCase),
      Lookups(Opts.LookupFunctions) {}

bool PolicySummaries::matchesPolicyName(StringRef Name) const {
  std::string Err;
  if (Name.empty() || !PolicyRe.isValid(Err))
    return false;
  return PolicyRe.match(Name);
}

static StringRef nameOfObject(const Expr *E) {
  E = stripNoise(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (DRE->getDecl()->getIdentifier())
      return DRE->getDecl()->getName();
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    if (ME->getMemberDecl()->getIdentifier())
      return ME->getMemberDecl()->getName();
  return "";
}

/// For `obj(args)` on a class object, the object; for `fp(args)` through a
/// pointer, the pointer; else null.
static const Expr *calledObject(const CallExpr &Call) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&Call))
    if (OC->getOperator() == OO_Call && OC->getNumArgs() > 0)
      return OC->getArg(0);
  if (!Call.getDirectCallee() && !isa<CXXMemberCallExpr>(Call))
    return Call.getCallee();
  return nullptr;
}

std::string PolicySummaries::calleeName(const CallExpr &Call) {
  if (const Expr *Obj = calledObject(Call)) {
    StringRef N = nameOfObject(Obj);
    const auto *RD = stripNoise(Obj)->getType()->getAsCXXRecordDecl();
    // A lambda or functor with a visible call operator is known by the
    // object's name too.
    if (!N.empty() || !RD)
      return N.str();
  }
  if (const FunctionDecl *FD = Call.getDirectCallee())
    if (FD->getIdentifier())
      return FD->getName().str();
  return "";
}

static bool isAnnotatedNullable(const FunctionDecl *FD) {
  if (!FD)
    return false;
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "wrapguard::nullable")
        return true;
  return false;
}

Emptiness PolicySummaries::byName(const CallExpr &Call) {
  if (matchesPolicyName(calleeName(Call)))
    return Emptiness::MayBeEmpty;
  return Emptiness::Unknown;
}

/// Standard factories whose result is never empty.
static bool isNonNullFactory(const FunctionDecl &FD) {
  if (!FD.isInStdNamespace() || !FD.getIdentifier())
    return false;
  StringRef N = FD.getName();
  return N == "make_shared" || N == "make_unique" || N == "allocate_shared" ||
         N == "make_optional";
}

Emptiness PolicySummaries::deferOrByName(const CallExpr &Call) {
  // The name heuristic applies only when no definition is found anywhere in
  // the project, which only the project's facts can tell.
  if (Opts.DeferToProjectFacts)
    return Emptiness::Unknown;
  return byName(Call);
}

Emptiness PolicySummaries::classifyCallResult(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  // Explicit annotations, and the functions LookupFunctions names, win over
  // everything else.
  if (isAnnotatedNullable(FD) || (FD && Lookups.matches(*FD)))
    return Emptiness::MayBeEmpty;
  if (auto N = Call.getCallReturnType(Ctx)->getNullability())
    if (*N == NullabilityKind::Nullable)
      return Emptiness::MayBeEmpty;

  if (!FD)
    return byName(Call);
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(FD))
    if (Conv->getParent()->isLambda())
      return Emptiness::NonEmpty; // A captureless lambda to function pointer.
  if (isNonNullFactory(*FD))
    return Emptiness::NonEmpty;
  // std::function::operator() and friends: the callee that matters is the
  // object being called, known only by its name.
  if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
    return byName(Call);

  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    bool Devirtualized = false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
      if (const auto *ME =
              dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        Devirtualized = ME->hasQualifier() || MD->hasAttr<FinalAttr>() ||
                        MD->getParent()->hasAttr<FinalAttr>();
    if (MD->isVirtual() && !Devirtualized)
      return deferOrByName(Call);
  }
  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def) && Def) {
    Emptiness S = summarize(*Def);
    if (S != Emptiness::Unknown)
      return S;
  }
  return deferOrByName(Call);
}

namespace {
class ReturnedVars : public RecursiveASTVisitor<ReturnedVars> {
public:
  bool VisitReturnStmt(ReturnStmt *R) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
        R->getRetValue() ? R->getRetValue()->IgnoreParenImpCasts() : nullptr);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasGlobalStorage() || (Var && Var != V))
      Mixed = true;
    else
      Var = V;
    return !Mixed;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  const VarDecl *Var = nullptr;
  bool Mixed = false;
};
} // namespace

/// Whether T is a class with a nullable callable field of its own: a
/// singleton's `static Events &instance()` hands out its callbacks.
bool PolicySummaries::holdsCallableField(QualType T) const {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Types.isNullable(T))
    return false;
  return llvm::any_of(RD->getDefinition()->fields(), [&](const FieldDecl *F) {
    return Types.isNullable(F->getType());
  });
}

const VarDecl *PolicySummaries::storageReturned(const FunctionDecl &FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD.getReturnType()->isLValueReferenceType() ||
      !(Types.isNullable(FD.getReturnType()) ||
        holdsCallableField(FD.getReturnType().getNonReferenceType())) ||
      !FD.hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (MD->isVirtual())
      return nullptr;
  auto [It, Inserted] = Returned.try_emplace(Def, nullptr);
  if (Inserted) {
    ReturnedVars R;
    R.TraverseStmt(Def->getBody());
    It->second = R.Mixed ? nullptr : R.Var;
  }
  return It->second;
}

FieldPath PolicySummaries::fieldReturned(const CXXMethodDecl &Method) {
  const FunctionDecl *Def = nullptr;
  QualType Returned = Method.getReturnType();
  bool ByValue = !Returned->isReferenceType();
  if (Method.isStatic() || Returned->isRValueReferenceType() ||
      !Types.isNullable(Returned) ||
      (Method.isVirtual() && !Method.hasAttr<FinalAttr>() &&
       !Method.getParent()->hasAttr<FinalAttr>()) ||
      !Method.hasBody(Def) || !Def || Def->isDependentContext())
    return {};
  // One statement, `return m_cb;`: a getter that also computes or fills
  // the member in (`if (!m_cb) m_cb = dflt;`) changes what it denotes.
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  const Expr *Value = Ret ? stripNoise(Ret->getRetValue()) : nullptr;
  // By value, a copy of the member (`Cb cb() const { return m_cb; }`): its
  // calls give what the member holds where they run.
  if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Value);
      Copy && ByValue && Copy->getNumArgs() == 1 &&
      Copy->getConstructor()->isCopyOrMoveConstructor())
    Value = stripNoise(Copy->getArg(0));
  const auto *ME = dyn_cast_or_null<MemberExpr>(Value);
  // The member's own type: a conversion (a pointer to `bool`, a lambda
  // member to std::function) gives another value.
  if (ME && ByValue &&
      !Def->getASTContext().hasSameUnqualifiedType(
          Returned, ME->getType().getNonReferenceType()))
    return {};
  // `m_cb`, or a member of member subobjects (`m_data.m_cb`): fields
  // reached by `.` from a field of `*this`, none of them a reference.
  FieldPath Path;
  const Expr *Base = ME;
  while (const auto *M = dyn_cast_or_null<MemberExpr>(Base)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!F || F->getType()->isReferenceType() || Path.size() >= 3)
      return {};
    Path.insert(Path.begin(), F);
    Base = M->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base))
      return Path;
    if (M->isArrow())
      return {};
  }
  return {};
}

namespace {
/// Whether a body reads only its parameters, its locals and constants, and
/// writes only its locals; calls are allowed to functions the callback
/// says are pure.
class PureBody : public RecursiveASTVisitor<PureBody> {
public:
  PureBody(const FunctionDecl &FD,
           llvm::function_ref<bool(const FunctionDecl &)> IsPure)
      : FD(FD), IsPure(IsPure) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (isa<EnumConstantDecl, FunctionDecl>(D))
      return true;
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (V->getDeclContext() == &FD && !V->isStaticLocal())
        return true; // A parameter or a local.
      if (V->getType().isConstQualified() || V->isConstexpr())
        return true;
    }
    return fail();
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (Callee && (Callee->getBuiltinID() || IsPure(*Callee)))
      return true;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      if (const CXXMethodDecl *M = MC->getMethodDecl())
        if (M->isConst() && !M->isVirtual() && IsPure(*M))
          return true;
    return fail();
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    return !BO->isAssignmentOp() || writesLocal(BO->getLHS()) || fail();
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    return !UO->isIncrementDecrementOp() || writesLocal(UO->getSubExpr()) ||
           fail();
  }
  bool VisitCXXNewExpr(CXXNewExpr *) { return fail(); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *) { return fail(); }
  bool VisitCXXThrowExpr(CXXThrowExpr *) { return fail(); }
  bool VisitCXXThisExpr(CXXThisExpr *) { return fail(); }
  bool VisitGCCAsmStmt(GCCAsmStmt *) { return fail(); }
  bool TraverseLambdaExpr(LambdaExpr *) { return fail(); }
  bool Pure = true;

private:
  bool fail() {
    Pure = false;
    return false;
  }
  bool writesLocal(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->getDeclContext() == &FD && !V->isStaticLocal() &&
           !V->getType()->isReferenceType();
  }
  const FunctionDecl &FD;
  llvm::function_ref<bool(const FunctionDecl &)> IsPure;
};
} // namespace

bool PolicySummaries::isPure(const FunctionDecl &FD) {
  auto It = Pure.find(FD.getCanonicalDecl());
  if (It != Pure.end())
    return It->second;
  const FunctionDecl *Def = nullptr;
  if (!FD.hasBody(Def) || !Def || Def->isDependentContext() ||
      Def->isVariadic() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return Pure[FD.getCanonicalDecl()] = false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (MD->isVirtual() || !MD->isStatic())
      return Pure[FD.getCanonicalDecl()] = false; // `this`: unseen state.
  if (InProgress.size() >= MaxSummaryDepth || InProgress.count(Def))
    return false; // Not cached: answered for where it was asked from.
  InProgress.insert(Def);
  // Parameters passed by non-const reference or pointer to non-const are
  // outputs: a call could write through them.
  bool Result = llvm::none_of(Def->parameters(), [](const ParmVarDecl *P) {
    QualType T = P->getType();
    if (T->isReferenceType() || T->isPointerType())
      return !T->getPointeeType().isConstQualified();
    return false;
  });
  if (Result) {
    auto Recurse = [this](const FunctionDecl &F) { return isPure(F); };
    PureBody B(*Def, Recurse);
    B.TraverseStmt(Def->getBody());
    Result = B.Pure;
  }
  InProgress.erase(Def);
  return Pure[FD.getCanonicalDecl()] = Result;
}

/// The C interfaces that look a symbol up by name at run time.
static bool isSystemLoader(const FunctionDecl &FD) {
  if (!FD.getIdentifier() ||
      !FD.getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  StringRef N = FD.getName();
  return N == "dlsym" || N == "dlvsym" || N == "GetProcAddress";
}

namespace {
class ReturnedCalls : public RecursiveASTVisitor<ReturnedCalls> {
public:
  bool VisitReturnStmt(ReturnStmt *R) {
    // Through the casts a loader's result takes on its way out.
    const auto *C = dyn_cast_or_null<CallExpr>(stripCasts(R->getRetValue()));
    if (C && C->getDirectCallee())
      Callees.push_back(C->getDirectCallee());
    else
      Other = true;
    return !Other;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  llvm::SmallVector<const FunctionDecl *, 2> Callees;
  bool Other = false;
};
} // namespace

bool PolicySummaries::isLoader(const FunctionDecl &FD) {
  if (isSystemLoader(FD))
    return true;
  const FunctionDecl *Def = nullptr;
  if (!FD.hasBody(Def) || !Def || Def->isDependentContext() ||
      !Def->getReturnType()->isPointerType())
    return false;
  auto It = Loaders.find(Def);
  if (It != Loaders.end())
    return It->second;
  if (InProgress.size() >= MaxSummaryDepth || InProgress.count(Def))
    return false;
  InProgress.insert(Def);
  ReturnedCalls R;
  R.TraverseStmt(Def->getBody());
  // Every return hands on a loader's result (`return dlsym(h, name);`).
  bool Result = !R.Other && !R.Callees.empty() &&
                llvm::all_of(R.Callees, [this](const FunctionDecl *C) {
                  return isLoader(*C);
                });
  InProgress.erase(Def);
  return Loaders[Def] = Result;
}

namespace {
/// Whether a method's body returns one pointer member of `*this` (through
/// `*` for a reference), or what another pointer accessor of `*this`
/// returns (gsl's `not_null::operator->() const { return get(); }`), and
/// writes nothing of `*this`: no assignment or increment of a member, no
/// non-const method called on `this`.
class PointerAccessorBody : public RecursiveASTVisitor<PointerAccessorBody> {
public:
  using AccessorFn =
      llvm::function_ref<const FieldDecl *(const CXXMethodDecl &)>;
  explicit PointerAccessorBody(AccessorFn FieldOf) : FieldOf(FieldOf) {}

  bool VisitReturnStmt(ReturnStmt *R) {
    const Expr *V = R->getRetValue() ? stripNoise(R->getRetValue()) : nullptr;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(V);
        UO && UO->getOpcode() == UO_Deref)
      V = stripNoise(UO->getSubExpr());
    const FieldDecl *F = thisField(V);
    if (!F)
      F = accessorOfThis(V);
    if (!F || !F->getType()->isPointerType() || (Field && Field != F))
      return fail();
    Field = F;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    return !BO->isAssignmentOp() || !thisField(BO->getLHS()) || fail();
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    return !UO->isIncrementDecrementOp() || !thisField(UO->getSubExpr()) ||
           fail();
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj && isa<CXXThisExpr>(Obj->IgnoreParenImpCasts()) && M &&
        !M->isConst())
      return fail();
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool ok() const { return Field && !Failed; }

  const FieldDecl *field() const { return ok() ? Field : nullptr; }

private:
  static const FieldDecl *thisField(const Expr *E) {
    const auto *ME = dyn_cast_or_null<MemberExpr>(E ? stripNoise(E) : nullptr);
    if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return nullptr;
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  }
  /// The member that E, a call of a const pointer accessor on `this`,
  /// returns.
  const FieldDecl *accessorOfThis(const Expr *E) const {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
    const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
    const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
    if (!M || !M->isConst() || MC->getNumArgs() || !Obj ||
        !isa<CXXThisExpr>(Obj->IgnoreParenImpCasts()))
      return nullptr;
    return FieldOf(*M);
  }
  bool fail() {
    Failed = true;
    return false;
  }
  AccessorFn FieldOf;
  const FieldDecl *Field = nullptr;
  bool Failed = false;
};
} // namespace

bool PolicySummaries::isPointerAccessor(const CXXMethodDecl &Method) {
  return pointerAccessorField(Method) != nullptr;
}

const FieldDecl *
PolicySummaries::pointerAccessorField(const CXXMethodDecl &Method) {
  const FunctionDecl *Def = nullptr;
  if (Method.isVirtual() || Method.isStatic() || !Method.hasBody(Def) || !Def ||
      Def->isDependentContext())
    return nullptr;
  // Null while the body is read: an accessor that returns what it returns
  // itself (recursion) is none.
  auto [It, New] = PointerAccessors.try_emplace(Def, nullptr);
  if (New) {
    PointerAccessorBody B(
        [this](const CXXMethodDecl &M) { return pointerAccessorField(M); });
    B.TraverseStmt(Def->getBody());
    // The map may have grown meanwhile: look the entry up again.
    PointerAccessors[Def] = B.field();
    return B.field();
  }
  return It->second;
}

std::optional<AccessorTest>
PolicySummaries::accessorTest(const CXXMethodDecl &Method) {
  return accessorTestOf(Method, Types, Ctx);
}

const MethodEffect *PolicySummaries::methodEffect(const CXXMethodDecl &Method) {
  const FunctionDecl *Def = nullptr;
  if (Method.isStatic() || isa<CXXConstructorDecl, CXXDestructorDecl>(Method) ||
      (Method.isVirtual() && !Method.hasAttr<FinalAttr>() &&
       !Method.getParent()->hasAttr<FinalAttr>()) ||
      !Method.hasBody(Def) || !Def || Def->isDependentContext() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  return effectAtExit(Method, *Def);
}

const MethodEffect *
PolicySummaries::constructorEffect(const CXXConstructorDecl &Ctor) {
  // Copies and moves copy the object's state (the framework does); a
  // delegating constructor's effect is its target's, with its own
  // arguments, which the exit of this body does not relate to them.
  const FunctionDecl *Def = nullptr;
  if (Ctor.isCopyOrMoveConstructor() || !Ctor.hasBody(Def) || !Def ||
      Def->isDependentContext() ||
      cast<CXXConstructorDecl>(Def)->isDelegatingConstructor() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  return effectAtExit(Ctor, *Def);
}

const MethodEffect *PolicySummaries::effectAtExit(const CXXMethodDecl &Method,
                                                  const FunctionDecl &Body) {
  const FunctionDecl *Def = &Body;
  // Asked at every construction and method call the model meets: the cache
  // first.
  if (auto It = Effects.find(Def); It != Effects.end())
    return It->second ? &*It->second : nullptr;
  // The callable fields of the object, its bases' too; only a class with
  // some has anything to set.
  llvm::SmallVector<const FieldDecl *, 4> Fields;
  auto Collect = [&](const CXXRecordDecl &RD) {
    for (const FieldDecl *F : RD.fields())
      if (Types.isNullable(F->getType()))
        Fields.push_back(F);
  };
  const CXXRecordDecl *Class = Method.getParent();
  Collect(*Class);
  if (Class->hasDefinition())
    Class->forallBases([&](const CXXRecordDecl *Base) {
      Collect(*Base);
      return true;
    });
  if (Fields.empty())
    return nullptr;
  if (InProgress.size() >= MaxSummaryDepth || InProgress.count(Def)) {
    Truncated = true;
    return nullptr;
  }
  bool OuterTruncated = std::exchange(Truncated, false);
  InProgress.insert(Def);
  ExitEffect X = exitEffectOf(*Def, Ctx, Types, *this, Opts.MaxSolverIterations,
                              Opts.MaxBlockVisits);
  InProgress.erase(Def);
  bool Whole = !Truncated;
  Truncated |= OuterTruncated;
  if (!Whole)
    return nullptr; // Not cached: see summarize.
  std::optional<MethodEffect> &Out = Effects[Def];
  if (!X.Analysed)
    return nullptr;
  // An analysed method that leaves every field as it was has an empty
  // effect, which is not "unknown" (null): its callers keep what they knew.
  Out.emplace();
  // In the fields' order, so that what the transfer writes is the same from
  // run to run.
  for (const FieldDecl *F : Fields) {
    if (X.Set.count(F))
      Out->Set.push_back(F);
    else if (auto P = X.SameAsParameter.find(F); P != X.SameAsParameter.end())
      Out->FromParameter.push_back({F, P->second});
    else if (X.Emptied.count(F))
      Out->Emptied.push_back(F);
    else if (X.Changed.count(F))
      Out->Changed.push_back(F);
  }
  return &*Out;
}

Emptiness PolicySummaries::summarize(const FunctionDecl &Def,
                                     SourceLocation *EmptyAt) {
  auto It = Cache.find(&Def);
  if (It != Cache.end()) {
    if (EmptyAt)
      *EmptyAt = It->second.EmptyAt;
    return It->second.Result;
  }
  // A function that returns a reference hands out storage, not a value:
  // what the storage holds when a caller reads it is what was last written
  // there, by anyone (`get() = cb;`), so its returns say nothing.
  if (Def.isDependentContext() || Def.getReturnType()->isReferenceType() ||
      !Types.isNullable(Def.getReturnType()))
    return Emptiness::Unknown;
  if (InProgress.size() >= MaxSummaryDepth || InProgress.count(&Def)) {
    // Cut short by where it was asked from, not by what it is: nothing
    // computed from this answer may be cached.
    Truncated = true;
    return Emptiness::Unknown;
  }
  bool OuterTruncated = std::exchange(Truncated, false);
  InProgress.insert(&Def);

  bool SawNonEmpty = false, SawEmpty = false, SawMaybe = false,
       SawUnknown = false;
  SourceLocation FirstEmpty;
  llvm::Error Err = runPolicyCallModel(
      Def, Ctx, Types, *this, Opts.MaxSolverIterations, Opts.MaxBlockVisits,
      [&](const CFGElement &Elt, const PathQuery &Q) {
        auto S = Elt.getAs<CFGStmt>();
        if (!S)
          return;
        const auto *Ret = dyn_cast<ReturnStmt>(S->getStmt());
        if (!Ret || !Ret->getRetValue())
          return;
        const Environment &Env = Q.env();
        CallableState St = stateOf(*Ret->getRetValue(), Env, Types);
        if (!St.NonEmpty) {
          SawUnknown = true;
          return;
        }
        if (Q.proves(Env.arena().makeLiteral(false)))
          return; // Unreachable return.
        switch (judgeState(St, Q)) {
        case Emptiness::NonEmpty:
          SawNonEmpty = true;
          break;
        case Emptiness::AlwaysEmpty:
          SawEmpty = true;
          break;
        case Emptiness::MayBeEmpty:
          SawMaybe = true;
          break;
        case Emptiness::Unknown:
          SawUnknown = true;
          break;
        }
        if ((SawEmpty || SawMaybe) && FirstEmpty.isInvalid())
          FirstEmpty = Ret->getBeginLoc();
      });
  InProgress.erase(&Def);

  Emptiness Result = Emptiness::Unknown;
  if (Err) {
    llvm::consumeError(std::move(Err));
  } else if (SawEmpty && !SawNonEmpty && !SawMaybe && !SawUnknown) {
    Result = Emptiness::AlwaysEmpty;
  } else if (SawEmpty || SawMaybe) {
    Result = Emptiness::MayBeEmpty;
  } else if (SawNonEmpty && !SawUnknown) {
    Result = Emptiness::NonEmpty;
  }
  if (Result != Emptiness::MayBeEmpty && Result != Emptiness::AlwaysEmpty)
    FirstEmpty = SourceLocation();
  // A summary that leaned on a cut-short callee would make results depend
  // on the order functions are analysed in; only whole ones are kept.
  if (!Truncated)
    Cache[&Def] = {Result, FirstEmpty};
  Truncated |= OuterTruncated;
  if (EmptyAt)
    *EmptyAt = FirstEmpty;
  return Result;
}

} // namespace wrapguard
