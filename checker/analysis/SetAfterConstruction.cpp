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

} // namespace wrapguard
