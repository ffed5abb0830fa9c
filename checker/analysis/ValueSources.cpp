//===- ValueSources.cpp - Which sources a callable's value comes from -----===//

#include "ValueSources.h"
#include "CallableSyntax.h"
#include "ContainerElements.h"
#include "Guards.h"
#include "HandleConstructors.h"
#include "PassedValues.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wrapguard {

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
    // An element of a container the project keeps in a field or a global:
    // its writes decide.
    if (std::optional<ElementRef> R = elementRead(*E, Owner, Index, Types))
      return add(elementKey(*R), SourceKind::Element, elementName(*R));
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // A copy, move or conversion from another nullable callable carries
      // its sources; from anything else (a lambda, a function), it is set.
      for (const Expr *Arg : CE->arguments())
        if (Types.isNullable(Arg->getType()))
          return collect(Arg, Depth + 1);
      return;
    }
    // A dynamic_cast's null result says the object has another type, not
    // that the source is empty: testing it tests no source.
    if (isa<CXXDynamicCastExpr>(E)) {
      Out.Complete = false;
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
      // `*p`, and `+[](void *p) { .. }`, which converts a lambda to a
      // function pointer.
      if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_Plus)
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
        if (const Expr *Written = writtenBefore(*ME, *FD))
          return collect(Written, Depth + 1);
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

  /// `cb_ = std::move(cb); if (failed_) cb_(msg);`: a field of `*this`
  /// that the function assigns in a statement that every path to the read
  /// passes (an earlier statement of a block that holds the read, with no
  /// label or case between them, nor another mention of the field) holds the
  /// assigned value, not whatever the class's constructions left there.
  /// The value assigned; null otherwise.
  const Expr *writtenBefore(const MemberExpr &Read, const FieldDecl &FD) {
    if (!isa<CXXThisExpr>(stripNoise(Read.getBase())))
      return nullptr;
    ParentMap &PM = Index.parents();
    auto WriteOf = [&](const Stmt *S) -> const Expr * {
      std::optional<Assignment> A = assignmentOf(S);
      const auto *ME = A ? dyn_cast<MemberExpr>(stripNoise(A->LHS)) : nullptr;
      return ME && ME->getMemberDecl() == &FD &&
                     isa<CXXThisExpr>(stripNoise(ME->getBase()))
                 ? A->RHS
                 : nullptr;
    };
    const Stmt *Child = &Read;
    for (const Stmt *P = PM.getParent(Child); P;
         Child = P, P = PM.getParent(P)) {
      if (isa<LambdaExpr>(P))
        return nullptr;
      const auto *Block = dyn_cast<CompoundStmt>(P);
      if (!Block)
        continue;
      // A block that a `switch` enters at a label: no statement of it is
      // passed on every path.
      if (isa_and_nonnull<SwitchStmt>(PM.getParent(Block)))
        return nullptr;
      auto At = llvm::find(Block->body(), Child);
      for (auto It = std::make_reverse_iterator(At); It != Block->body_rend();
           ++It) {
        const Stmt *S = *It;
        if (isa<LabelStmt, SwitchCase>(S))
          return nullptr;
        if (const auto *E = dyn_cast<Expr>(S))
          if (const Expr *Value = WriteOf(E->IgnoreImplicit()))
            return Value;
        // A write nested deeper (under a condition) may or may not run; a
        // statement that names the field at all ends the search.
        if (mentionsField(*S, FD))
          return nullptr;
      }
    }
    return nullptr;
  }

  /// Whether S names FD anywhere inside it.
  static bool mentionsField(const Stmt &S, const FieldDecl &FD) {
    if (const auto *ME = dyn_cast<MemberExpr>(&S))
      if (ME->getMemberDecl() == &FD)
        return true;
    for (const Stmt *C : S.children())
      if (C && mentionsField(*C, FD))
        return true;
    return false;
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
      // A global (or static member): what the project assigns it decides,
      // as for a field. A library's globals are nobody's source.
      if (inSystemHeader(*V))
        Out.Complete = false;
      else
        add(globalKey(*V), SourceKind::Global, V->getQualifiedNameAsString());
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
    // A lambda converted to a function pointer (`RTTI r(.., [](void *p) {
    // delete (T *)p; })`): its conversion never yields null, as the flow
    // analysis holds too (PolicySummaries::classifyCallResult). No source.
    if (const auto *Conv = dyn_cast_or_null<CXXConversionDecl>(FD);
        Conv && Conv->getParent()->isLambda())
      return;
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

/// E past its noise and the copy or move construction that passes it by
/// value (`run(f)`: `f`; `run(std::move(f))`: `std::move(f)`).
static const Expr *pastCopy(const Expr &E) {
  const Expr *Read = stripNoise(&E);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Read);
      CE && CE->getNumArgs() == 1 && CE->getConstructor() &&
      CE->getConstructor()->isCopyOrMoveConstructor())
    Read = stripNoise(CE->getArg(0));
  return Read;
}

const Expr *passedRead(const Expr &Arg) {
  const Expr *Passed = pastCopy(Arg);
  if (const Expr *Moved = movedFromObject(Passed))
    Passed = stripNoise(Moved);
  return Passed;
}

/// Whether evaluating E move-constructs an object from variable V: a
/// construction from `std::move(V)` in E, a lambda's capture initialiser
/// included, its body not.
static bool movesFrom(const Stmt *E, const ValueDecl &V) {
  if (!E)
    return false;
  if (const auto *L = dyn_cast<LambdaExpr>(E))
    return llvm::any_of(L->capture_inits(),
                        [&](const Expr *Init) { return movesFrom(Init, V); });
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() >= 1)
    if (const Expr *Moved = movedFromObject(CE->getArg(0)))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(Moved));
          DRE && DRE->getDecl() == &V)
        return true;
  return llvm::any_of(E->children(),
                      [&](const Stmt *Child) { return movesFrom(Child, V); });
}

bool movedBySiblingArgument(const Expr &Arg,
                            llvm::ArrayRef<const Expr *> Args) {
  const Expr *Read = pastCopy(Arg);
  if (movedFromObject(Read))
    return false; // Arg moves it itself.
  const auto *DRE = dyn_cast<DeclRefExpr>(Read);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V)
    return false;
  return llvm::any_of(Args, [&](const Expr *Other) {
    return Other && Other != &Arg && movesFrom(Other, *V);
  });
}

bool onlyRead(const Expr &Use, ParentMap &Parents) {
  const Stmt *Child = &Use;
  const Stmt *P = Parents.getParent(Child);
  while (P && isa<ParenExpr>(P)) {
    Child = P;
    P = Parents.getParent(P);
  }
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
    return Cast->getCastKind() == CK_LValueToRValue ||
           Cast->getCastKind() == CK_NoOp;
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(P))
    return CE->getConstructor() && CE->getConstructor()->isCopyConstructor();
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->isComparisonOp();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P)) {
    if (Op->isComparisonOp())
      return true;
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    return M && M->isConst() && Op->getNumArgs() && Op->getArg(0) == Child;
  }
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
    const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
    return M && M->isConst();
  }
  return false;
}

bool writtenIn(const Stmt &Body, const VarDecl &V, ParentMap &Parents) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&Body);
      DRE && DRE->getDecl() == &V &&
      !isa_and_nonnull<LambdaExpr>(Parents.getParent(DRE)) &&
      !onlyRead(*DRE, Parents))
    return true;
  return llvm::any_of(Body.children(), [&](const Stmt *Child) {
    return Child && writtenIn(*Child, V, Parents);
  });
}

/// The state of a value that is one of A or B.
static ValueState joinStates(const ValueState &A, const ValueState &B) {
  for (ValueState::Kind K :
       {ValueState::Empty, ValueState::Unknown, ValueState::NotCallable})
    if (A.What == K || B.What == K)
      return ValueState::of(K);
  if (A.What == ValueState::Set && B.What == ValueState::Set)
    return A;
  ValueState V = ValueState::of(ValueState::From);
  V.Keys = A.Keys;
  llvm::append_range(V.Keys, B.Keys);
  llvm::sort(V.Keys);
  V.Keys.erase(std::unique(V.Keys.begin(), V.Keys.end()), V.Keys.end());
  return V;
}

/// Whether S is Root or one of its sub-expressions.
static bool within(const Stmt &S, const Stmt &Root) {
  if (&S == &Root)
    return true;
  return llvm::any_of(Root.children(), [&](const Stmt *Child) {
    return Child && within(S, *Child);
  });
}

/// Whether control cannot come from S to Read: the function returns or
/// throws after S first (S is part of a `return` or `throw` that does not
/// hold Read, or a block that holds S and not Read has one after S's
/// statement), or S and Read are in the two branches of one `if` or `?:`.
/// A `break` or `continue` may still reach it.
static bool leavesBefore(const Stmt &S, const Stmt &Read, ParentMap &PM) {
  auto Leaves = [](const Stmt *X) {
    if (isa<ReturnStmt>(X))
      return true;
    const auto *E = dyn_cast<Expr>(X);
    return E && isa<CXXThrowExpr>(E->IgnoreImplicit());
  };
  const Stmt *Cur = &S;
  const Stmt *P = PM.getParent(Cur);
  for (; P && !within(Read, *P); Cur = P, P = PM.getParent(P)) {
    if (Leaves(P))
      return true;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      const auto *At = llvm::find(CS->body(), Cur);
      if (At != CS->body_end() &&
          std::any_of(std::next(At), CS->body_end(),
                      [&](const Stmt *X) { return X && Leaves(X); }))
        return true;
    }
  }
  // P holds both: `if (a) run(std::move(f)); else keep(f);`.
  auto Other = [&](const Stmt *A, const Stmt *B) {
    return (Cur == A && B && within(Read, *B)) ||
           (Cur == B && A && within(Read, *A));
  };
  if (const auto *If = dyn_cast_or_null<IfStmt>(P))
    return Other(If->getThen(), If->getElse());
  if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(P))
    return Other(CO->getTrueExpr(), CO->getFalseExpr());
  return false;
}

/// How many earlier values of locals valueStateOf follows (`b = a; c = b;
/// run(c);`) before it says "unknown".
static constexpr unsigned MaxValueHops = 32;

static ValueState valueStateAt(const Expr &E, const FunctionDecl *Owner,
                               ASTContext &Ctx, const CallableTypes &Types,
                               BodyIndexes &Indexes, PassedValues *Flow,
                               unsigned Hops);

ValueState valueStateOf(const Expr &E, const FunctionDecl *Owner,
                        ASTContext &Ctx, const CallableTypes &Types,
                        BodyIndexes &Indexes, PassedValues *Flow) {
  return valueStateAt(E, Owner, Ctx, Types, Indexes, Flow, 0);
}

static ValueState valueStateAt(const Expr &E, const FunctionDecl *Owner,
                               ASTContext &Ctx, const CallableTypes &Types,
                               BodyIndexes &Indexes, PassedValues *Flow,
                               unsigned Hops) {
  if (Hops > MaxValueHops)
    return ValueState::of(ValueState::Unknown);
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
  // `f ? std::move(f) : dflt`: each arm where it is read, so that the test
  // in the condition proves its arm set (the flow analysis below), and the
  // join of the two.
  const Expr *Read = pastCopy(E);
  if (const auto *CO = dyn_cast<ConditionalOperator>(Read))
    return joinStates(valueStateAt(*CO->getTrueExpr(), Owner, Ctx, Types,
                                   Indexes, Flow, Hops + 1),
                      valueStateAt(*CO->getFalseExpr(), Owner, Ctx, Types,
                                   Indexes, Flow, Hops + 1));
  // A local passed on is judged by the last value it was given before the
  // call, in source order: `Fn out; if (c) out = f; else out = g; run(out);`
  // passes a set value, whatever `Fn out;` said. Branches that leave it
  // empty are not seen, which keeps argument evidence on the side of
  // silence.
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Passed = passedRead(E);
  // A field read to be passed on (`if (callback) Parser p(callback);`,
  // `if (d->before) run(d->before);`): set where the flow analysis proves
  // it set at the read, as for the variables below.
  // Likewise empty where a path of this function empties it first (moved
  // out of before, `run(std::move(cb_)); again(std::move(cb_));`): that
  // emptying is evidence for this read alone (ArgFacts::MovedOutIn).
  if (const auto *ME = dyn_cast<MemberExpr>(Passed);
      ME && Flow && isa<FieldDecl>(ME->getMemberDecl()))
    switch (Flow->at(*Owner, *ME)) {
    case Emptiness::NonEmpty:
      return ValueState::of(ValueState::Set);
    case Emptiness::AlwaysEmpty:
    case Emptiness::MayBeEmpty:
      return ValueState::of(ValueState::Empty);
    case Emptiness::Unknown:
      break;
    }
  if (isFieldOfParameter(*Passed))
    return ValueState::of(ValueState::Unknown);
  // Passed under a test that proves it set: `if (f) run(f);`.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Passed); DRE && Owner->getBody())
    if (llvm::is_contained(
            nonEmptyVarsAt(E, Indexes.of(*Owner).parents(), Types, Ctx),
            DRE->getDecl()))
      return ValueState::of(ValueState::Set);
  // A parameter or local of this function: set where the flow analysis
  // proves it set at the read, on every path (`if (!f) f = &dflt; run(f);`,
  // `if (!f) fatal("no f"); run(f);`). The syntax below would see only
  // where its values come from, the caller's empty one among them.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Passed); DRE && Flow)
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->getDeclContext() == Owner &&
        Flow->at(*Owner, *DRE) == Emptiness::NonEmpty)
      return ValueState::of(ValueState::Set);
  // A parameter moved from before the read (`if (rw) read =
  // std::move(cb); if (w) write = std::move(cb);`, or a self-move `cb =
  // std::move(cb);`, which leaves a library callable in an unspecified
  // state: libc++'s std::function is empty) passes the moved-from value;
  // its other values are its callers' and its assignments' (below).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Passed))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
        P && P->getDeclContext() == Owner &&
        P->getType().getNonReferenceType()->isRecordType() &&
        !moveLeavesSource(P->getType().getNonReferenceType()))
      if (std::optional<BodyIndex::Event> Last =
              Indexes.of(*Owner).latestBefore(
                  *P, SM.getExpansionLoc(E.getBeginLoc()), SM);
          Last && Last->What == BodyIndex::Event::MovedFrom && Last->Move &&
          !leavesBefore(*Last->Move, *Passed, Indexes.of(*Owner).parents()))
        return ValueState::of(ValueState::Empty);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Passed))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->isLocalVarDecl() && V->getDeclContext() == Owner)
      if (std::optional<BodyIndex::Event> Last =
              Indexes.of(*Owner).latestBefore(
                  *V, SM.getExpansionLoc(E.getBeginLoc()), SM)) {
        // A move that the function returns or throws after, before
        // control can come to this read (`if (a) return done(std::move(f));
        // return done(std::move(f), 2);`), did not leave it empty here.
        // What did is not followed further back: unknown, no evidence.
        if (Last->What == BodyIndex::Event::MovedFrom && Last->Move &&
            leavesBefore(*Last->Move, *Passed, Indexes.of(*Owner).parents()))
          return ValueState::of(ValueState::Unknown);
        if (Last->What != BodyIndex::Event::Init &&
            Last->What != BodyIndex::Event::Assign)
          return ValueState::of(ValueState::Empty);
        if (stripNoise(Last->Value) != Passed) {
          // `a = std::move(a);` reads a's earlier value: this assignment is
          // no answer, and following its value would come back here.
          if (within(*Passed, *Last->Value))
            return ValueState::of(ValueState::Unknown);
          return valueStateAt(*Last->Value, Owner, Ctx, Types, Indexes, Flow,
                              Hops + 1);
        }
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

} // namespace wrapguard
