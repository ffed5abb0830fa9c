//===- SetAfterConstruction.cpp - Fields a maker sets on what it made -----===//

#include "SetAfterConstruction.h"
#include "CallableSyntax.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace wrapguard {

namespace {

/// The local variable whose initializer is E, past the wrappers a
/// construction sits in (`new`, temporaries, an elided copy, a smart
/// pointer taking `new T`); null when E initialises no local. A static
/// local counts: only its function names it, and the first call, which
/// constructs it, sets it before anything else can see it
/// (`static Loader l; l.load = f; return &l;`).
const VarDecl *initialisedLocal(const Expr &E, ParentMap &PM) {
  const Stmt *Cur = &E;
  // `auto p = std::unique_ptr<T>(new T(..));` is the deepest nesting that
  // still names one object; anything deeper is no plain initialisation.
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    const Stmt *P = PM.getParent(Cur);
    if (!P)
      return nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getInit() == Cur && VD->isLocalVarDecl() &&
            !VD->getType()->isReferenceType())
          return VD;
      return nullptr;
    }
    const auto *CE = dyn_cast<CXXConstructExpr>(P);
    bool Wrapper =
        isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ImplicitCastExpr, ParenExpr, CXXNewExpr, CXXFunctionalCastExpr>(
            P) ||
        (CE && CE->getNumArgs() == 1 &&
         (CE->getConstructor()->isCopyOrMoveConstructor() ||
          isa<CXXNewExpr>(stripNoise(CE->getArg(0)))));
    if (!Wrapper)
      return nullptr;
    Cur = P;
  }
  return nullptr;
}

/// For `V.f`, `V->f`, `(*V).f` (V an object, a pointer or a smart
/// pointer): the reference to V; else null.
const DeclRefExpr *objectReference(const MemberExpr &ME) {
  const Expr *Base = stripNoise(ME.getBase());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base);
      Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
      Op->getNumArgs() >= 1)
    Base = stripNoise(Op->getArg(0));
  else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
           UO && UO->getOpcode() == UO_Deref)
    Base = stripNoise(UO->getSubExpr());
  return dyn_cast<DeclRefExpr>(Base);
}

/// Whether some path from the end of Start reaches the CFG's exit without
/// entering one of Avoid.
bool exitAvoiding(const CFGBlock &Start,
                  const llvm::SmallPtrSetImpl<const CFGBlock *> &Avoid) {
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  llvm::SmallVector<const CFGBlock *, 32> Work{&Start};
  Seen.insert(&Start);
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (B->succ_empty())
      return true; // The exit, or a block that ends the function.
    for (const CFGBlock *Next : B->succs())
      if (Next && !Avoid.count(Next) && Seen.insert(Next).second)
        Work.push_back(Next);
  }
  return false;
}

/// Where a statement is evaluated: its CFG block and its position there.
struct Place {
  const CFGBlock *Block = nullptr;
  unsigned Index = 0;
};

} // namespace

/// What one body does to its local objects' callable fields.
struct SetAfterConstruction::Body {
  struct Set {
    const Stmt *Assignment;
    const FieldDecl *Field;
  };
  struct Object {
    std::vector<Set> Sets;
    /// References to the variable other than as the object of a data
    /// member access.
    std::vector<const Stmt *> Others;
  };
  llvm::DenseMap<const VarDecl *, Object> Objects;
  /// Built on first use, when some local object has a set.
  std::unique_ptr<CFG> Graph;
  llvm::DenseMap<const Stmt *, Place> Places;
  bool Built = false;
};

namespace {

/// Fills a Body: the assignments of a non-empty value to a callable field
/// through a local variable, and every other reference to a local (lambdas
/// are functions of their own; one that captures the local is a use).
class BodyReader : public RecursiveASTVisitor<BodyReader> {
public:
  using Body = SetAfterConstruction::Body;
  BodyReader(Body &Out, const FunctionDecl &Owner, const CallableTypes &Types,
             const SetAfterConstruction::IsSetFn &IsSet)
      : Out(Out), Owner(Owner), Types(Types), IsSet(IsSet) {}

  bool VisitExpr(Expr *E) {
    if (std::optional<Assignment> A = assignmentOf(E))
      noteAssignment(*E, A->LHS, A->RHS);
    return true;
  }

  // Reading or writing a data member (`l.name = "x";`, `l.other = NULL;`)
  // neither lets the object escape nor calls through the field being set;
  // a method call, an address, an argument or a copy may.
  bool VisitMemberExpr(MemberExpr *ME) {
    if (isa<FieldDecl>(ME->getMemberDecl()))
      if (const DeclRefExpr *Ref = objectReference(*ME))
        MemberBases.insert(Ref);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->isLocalVarDecl() && !MemberBases.count(DRE))
      Out.Objects[V].Others.push_back(DRE);
    return true;
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable())
        if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar()))
          Out.Objects[V].Others.push_back(L);
    return true;
  }

private:
  void noteAssignment(const Stmt &S, const Expr *LHS, const Expr *RHS) {
    const auto *ME = dyn_cast<MemberExpr>(stripNoise(LHS));
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    const DeclRefExpr *Ref = ME ? objectReference(*ME) : nullptr;
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!FD || !V || !V->isLocalVarDecl() || !Types.isNullable(FD->getType()) ||
        !IsSet(*RHS, Owner))
      return;
    Out.Objects[V].Sets.push_back({&S, FD});
  }

  Body &Out;
  const FunctionDecl &Owner;
  const CallableTypes &Types;
  const SetAfterConstruction::IsSetFn &IsSet;
  /// References to a local as the object of a data member access, visited
  /// after the access (pre-order): no use of the object.
  llvm::SmallPtrSet<const DeclRefExpr *, 8> MemberBases;
};

} // namespace

/// Each reference to a global of internal linkage, with the function whose
/// body holds it (null: a global's initializer, or a default argument).
struct SetAfterConstruction::GlobalRefs {
  struct Ref {
    const DeclRefExpr *Expr;
    const FunctionDecl *Fn;
  };
  llvm::DenseMap<const VarDecl *, std::vector<Ref>> Of;
};

namespace {

/// Fills GlobalRefs over the TU's user code. A lambda's references count as
/// its enclosing function's, where nothing can prove a set before them.
class GlobalRefReader : public RecursiveASTVisitor<GlobalRefReader> {
public:
  GlobalRefReader(SetAfterConstruction::GlobalRefs &Out,
                  const SourceManager &SM)
      : Out(Out), SM(SM) {}

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->hasBody())
      return RecursiveASTVisitor::TraverseDecl(D);
    const FunctionDecl *Outer = Current;
    Current = FD;
    bool Go = RecursiveASTVisitor::TraverseDecl(D);
    Current = Outer;
    return Go;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasGlobalStorage() && !V->isStaticLocal() &&
        !V->isExternallyVisible())
      Out.Of[V].push_back({DRE, Current});
    return true;
  }

private:
  SetAfterConstruction::GlobalRefs &Out;
  const SourceManager &SM;
  const FunctionDecl *Current = nullptr;
};

} // namespace

SetAfterConstruction::SetAfterConstruction(ASTContext &Ctx,
                                           const CallableTypes &Types,
                                           BodyIndexes &Indexes, IsSetFn IsSet)
    : Ctx(Ctx), Types(Types), Indexes(Indexes), IsSet(std::move(IsSet)) {}

SetAfterConstruction::~SetAfterConstruction() = default;

SetAfterConstruction::Body &
SetAfterConstruction::body(const FunctionDecl &Owner) {
  std::unique_ptr<Body> &B = Bodies[&Owner];
  if (!B) {
    B = std::make_unique<Body>();
    BodyReader(*B, Owner, Types, IsSet).TraverseStmt(Owner.getBody());
  }
  return *B;
}

std::vector<unsigned>
SetAfterConstruction::fieldsSetAfter(const Expr &E, const CXXRecordDecl &RD,
                                     const FunctionDecl &Owner) {
  if (!Owner.getBody())
    return {};
  const VarDecl *V = initialisedLocal(E, Indexes.of(Owner).parents());
  if (!V)
    return {};
  Body &B = body(Owner);
  auto Obj = B.Objects.find(V);
  if (Obj == B.Objects.end() ||
      llvm::none_of(Obj->second.Sets, [&](const Body::Set &S) {
        return S.Field->getParent() == &RD;
      }))
    return {};
  if (!B.Built) {
    B.Built = true;
    // Every statement is an element of its block, so that the construction
    // and the sets are found where they are evaluated.
    CFG::BuildOptions Opts;
    Opts.setAllAlwaysAdd();
    B.Graph = CFG::buildCFG(&Owner, Owner.getBody(), &Ctx, Opts);
    if (B.Graph) {
      for (const CFGBlock *Block : *B.Graph) {
        unsigned I = 0;
        for (const CFGElement &El : *Block) {
          if (auto S = El.getAs<CFGStmt>())
            B.Places.try_emplace(S->getStmt(), Place{Block, I});
          ++I;
        }
      }
    }
  }
  auto Made = B.Places.find(&E);
  if (!B.Graph || Made == B.Places.end())
    return {};
  // A use of the object before the set (passed on, called through,
  // captured) may find the field empty, or let the object escape before
  // the set is done: that set does not count.
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](const Stmt *A, const Stmt *Z) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getBeginLoc()),
                                        SM.getExpansionLoc(Z->getBeginLoc()));
  };
  const Place &From = Made->second;
  // Per field, the blocks that set it after the construction; the field
  // counts when no path from the construction reaches the exit without
  // passing one of them (a set on each branch of an `if` counts as one).
  llvm::DenseMap<const FieldDecl *, llvm::SmallPtrSet<const CFGBlock *, 4>>
      SetBlocks;
  llvm::SmallPtrSet<const FieldDecl *, 4> SetInPlace;
  for (const Body::Set &S : Obj->second.Sets) {
    auto At = B.Places.find(S.Assignment);
    if (S.Field->getParent() != &RD || At == B.Places.end() ||
        llvm::any_of(Obj->second.Others, [&](const Stmt *Use) {
          return Before(Use, S.Assignment);
        }))
      continue;
    const Place &To = At->second;
    if (To.Block == From.Block) {
      if (To.Index > From.Index)
        SetInPlace.insert(S.Field);
    } else {
      SetBlocks[S.Field].insert(To.Block);
    }
  }
  std::vector<unsigned> Fields;
  for (const FieldDecl *F : SetInPlace)
    Fields.push_back(F->getFieldIndex());
  for (const auto &[F, Blocks] : SetBlocks)
    if (!SetInPlace.count(F) && !exitAvoiding(*From.Block, Blocks))
      Fields.push_back(F->getFieldIndex());
  llvm::sort(Fields);
  Fields.erase(std::unique(Fields.begin(), Fields.end()), Fields.end());
  return Fields;
}

const SetAfterConstruction::GlobalRefs &SetAfterConstruction::globalRefs() {
  if (!Globals) {
    Globals = std::make_unique<GlobalRefs>();
    GlobalRefReader(*Globals, Ctx.getSourceManager())
        .TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return *Globals;
}

std::vector<unsigned>
SetAfterConstruction::fieldsSetBeforeReached(const VarDecl &G,
                                             const CXXRecordDecl &RD) {
  if (!G.hasGlobalStorage() || G.isStaticLocal() || G.isExternallyVisible())
    return {};
  auto Refs = globalRefs().Of.find(&G);
  if (Refs == globalRefs().Of.end())
    return {};
  // The fields every pointer taken to G has set before its first use; none
  // until one is seen.
  std::optional<std::vector<unsigned>> Set;
  // Fields read straight from G (`loader.load(..)`), maybe before any set.
  llvm::SmallPtrSet<const FieldDecl *, 4> ReadDirectly;
  for (const GlobalRefs::Ref &R : Refs->second) {
    if (!R.Fn || !R.Fn->getBody())
      return {};
    ParentMap &PM = Indexes.of(*R.Fn).parents();
    const Stmt *P =
        PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(R.Expr));
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return {}; // A method call may let it escape.
      std::optional<Assignment> A = assignmentOf(
          PM.getParentIgnoreParenImpCasts(const_cast<MemberExpr *>(ME)));
      if (FD->getParent() == &RD && Types.isNullable(FD->getType()) &&
          !(A && stripNoise(A->LHS) == ME))
        ReadDirectly.insert(FD);
      continue;
    }
    const auto *Addr = dyn_cast_or_null<UnaryOperator>(P);
    if (!Addr || Addr->getOpcode() != UO_AddrOf)
      return {};
    std::vector<unsigned> Here = fieldsSetAfter(*Addr, RD, *R.Fn);
    if (!Set) {
      Set = std::move(Here);
      continue;
    }
    std::vector<unsigned> Both;
    std::set_intersection(Set->begin(), Set->end(), Here.begin(), Here.end(),
                          std::back_inserter(Both));
    *Set = std::move(Both);
  }
  if (!Set)
    return {};
  llvm::erase_if(*Set, [&](unsigned Index) {
    return llvm::any_of(ReadDirectly, [&](const FieldDecl *F) {
      return F->getFieldIndex() == Index;
    });
  });
  return *Set;
}

} // namespace wrapguard
