//===- PassedValues.cpp - A value's state where it is passed on -----------===//

#include "PassedValues.h"
#include "CallableValues.h"
#include "FlagParameters.h"
#include "MethodsElsewhere.h"
#include "PolicyCallModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

/// The object V holds, refers to or points to, where the environment has
/// one.
static RecordStorageLocation *objectOf(const VarDecl &V,
                                       const Environment &Env) {
  StorageLocation *L = Env.getStorageLocation(V);
  if (!L)
    return nullptr;
  if (V.getType()->isPointerType()) {
    auto *PV = valueAs<PointerValue>(Env, *L);
    return PV ? dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()) : nullptr;
  }
  return dyn_cast<RecordStorageLocation>(L);
}

/// The record type V holds, refers to or points to.
static const RecordDecl *recordOf(const VarDecl &V) {
  QualType T = V.getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsRecordDecl();
}

static bool proven(Emptiness E) {
  return E == Emptiness::NonEmpty || E == Emptiness::AlwaysEmpty;
}

bool PassedValues::hasCallableFields(const RecordDecl &RD) {
  auto [It, New] = CallableRecords.try_emplace(&RD, false);
  if (!New)
    return It->second;
  auto Has = [&](const RecordDecl &R) {
    return llvm::any_of(R.fields(), [&](const FieldDecl *F) {
      return Types.isNullable(F->getType());
    });
  };
  // A derived object has its bases' fields (`Helper h; h.call();` with
  // `call` and its callable declared in the base).
  if (const RecordDecl *Def = RD.getDefinition()) {
    bool Any = Has(*Def);
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(Def); !Any && CRD)
      CRD->forallBases([&](const CXXRecordDecl *Base) {
        Any = Any || Has(*Base);
        return !Any;
      });
    It->second = Any;
  }
  return It->second;
}

const RecordDecl *PassedValues::callablePointee(const FieldDecl &F) {
  QualType T = F.getType();
  if (!T->isPointerType())
    return nullptr;
  const RecordDecl *RD = T->getPointeeType()->getAsRecordDecl();
  return RD && hasCallableFields(*RD) ? RD : nullptr;
}

bool PassedValues::holdsCallables(const RecordDecl &RD) {
  if (hasCallableFields(RD))
    return true;
  const RecordDecl *Def = RD.getDefinition();
  return Def && llvm::any_of(Def->fields(), [&](const FieldDecl *F) {
           return callablePointee(*F) != nullptr;
         });
}

const PassedValues::Reads &PassedValues::of(const FunctionDecl &Owner) {
  auto Known = Analysed.find(&Owner);
  if (Known != Analysed.end())
    return Known->second;
  return Analysed.try_emplace(&Owner, analyse(Owner, Oracle)).first->second;
}

PassedValues::Reads PassedValues::analyse(const FunctionDecl &Owner,
                                          CallResultOracle &Oracle) {
  // Every read of a variable is a CFG element of its own, visited once the
  // analysis has converged, with the state before it: the value as the
  // read sees it, before a `std::move(f)` around the read empties it.
  Reads R;
  FlagParameters Flags(Owner);
  llvm::Error Err = runPolicyCallModel(
      Owner, Ctx, Types, Oracle, Opts.MaxSolverIterations, Opts.MaxBlockVisits,
      [&](const CFGElement &Elt, const PathQuery &Q) {
        auto S = Elt.getAs<CFGStmt>();
        if (!S)
          return;
        auto Judge = [&](const CallableState &St) {
          return St.NonEmpty ? judgeState(St, Q) : Emptiness::Unknown;
        };
        // The callable fields of Obj, as the read Read sees them. Only the
        // fields the function uses are modelled: children(), not
        // getChild(), which requires the field to be one of them.
        auto NoteFields = [&](RecordStorageLocation &Obj, const Expr &Read) {
          for (const auto &[D, L] : Obj.children()) {
            const auto *F = dyn_cast_or_null<FieldDecl>(D);
            if (!F || !L)
              continue;
            if (Types.isNullable(F->getType())) {
              if (Emptiness E =
                      Judge(stateAt(*L, F->getType(), Q.env(), Types));
                  proven(E))
                R.Fields[{&Read, F}] = E;
              continue;
            }
            // One hop through a pointer member (`priv.task->on_step` of
            // `priv`): the callers of a helper test it there too.
            auto *PV = callablePointee(*F) ? valueAs<PointerValue>(Q.env(), *L)
                                           : nullptr;
            auto *Inner =
                PV ? dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc())
                   : nullptr;
            if (!Inner)
              continue;
            for (const auto &[ID, IL] : Inner->children())
              if (const auto *IF = dyn_cast_or_null<FieldDecl>(ID);
                  IF && IL && Types.isNullable(IF->getType()))
                if (Emptiness E =
                        Judge(stateAt(*IL, IF->getType(), Q.env(), Types));
                    proven(E))
                  R.Through[{&Read, F, IF}] = E;
          }
        };
        // `this->callback`, `debug->before`, `opts.on_step`: the field's
        // location in the object, whose expression the environment has
        // evaluated before the read.
        if (const auto *ME = dyn_cast<MemberExpr>(S->getStmt())) {
          const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
          if (!F)
            return;
          // An object read from a member (`data.cast` of
          // `data.cast.init_state()`, `ctx->ops`): its callable fields.
          if (!Types.isNullable(F->getType())) {
            QualType T = F->getType().getNonReferenceType();
            if (T->isPointerType())
              T = T->getPointeeType();
            const RecordDecl *RD = T->getAsRecordDecl();
            // The state is the one before the read, which has no location
            // yet: the object is the field's child of its base object.
            RecordStorageLocation *Base =
                RD && holdsCallables(*RD) ? objectOf(*ME->getBase(), Q.env())
                                          : nullptr;
            if (!Base)
              return;
            for (const auto &[D, L] : Base->children()) {
              if (D != F || !L)
                continue;
              RecordStorageLocation *Obj = dyn_cast<RecordStorageLocation>(L);
              if (auto *PV = F->getType()->isPointerType()
                                 ? valueAs<PointerValue>(Q.env(), *L)
                                 : nullptr)
                Obj = dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc());
              if (Obj)
                NoteFields(*Obj, *ME);
            }
            return;
          }
          RecordStorageLocation *Obj = objectOf(*ME->getBase(), Q.env());
          if (!Obj)
            return;
          // A member read may also be empty on some path by the function's
          // own doing (a move out of it before): MayBeEmpty says so.
          if (StorageLocation *L = modelledChild(*Obj, *F))
            if (Emptiness E = Judge(stateAt(*L, F->getType(), Q.env(), Types));
                proven(E) || E == Emptiness::MayBeEmpty)
              R.Values[ME] = E;
          return;
        }
        // The object of a method call that is none of the reads above: what
        // a smart pointer points to (`ws->run()`), or a call's result. The
        // object expression is evaluated before the call, so the state
        // before it has its value.
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S->getStmt())) {
          const Expr *Obj = MC->getImplicitObjectArgument();
          const CXXRecordDecl *RD = MC->getRecordDecl();
          if (!Obj || !RD || !holdsCallables(*RD) ||
              !isa<CallExpr>(Obj->IgnoreParenImpCasts()))
            return;
          if (RecordStorageLocation *Loc = objectOf(*Obj, Q.env()))
            NoteFields(*Loc, *MC);
          return;
        }
        // The object of a method call on `this`: its fields as the call
        // receives them.
        if (const auto *This = dyn_cast<CXXThisExpr>(S->getStmt())) {
          if (RecordStorageLocation *Obj =
                  Q.env().getThisPointeeStorageLocation())
            NoteFields(*Obj, *This);
          return;
        }
        const auto *DRE = dyn_cast<DeclRefExpr>(S->getStmt());
        const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
        if (!V)
          return;
        if (Types.isNullable(V->getType())) {
          if (Emptiness E = Judge(stateOf(*V, Q.env(), Types)); proven(E))
            R.Values[DRE] = E;
          else if (isa<ParmVarDecl>(V) && V->getDeclContext() == &Owner &&
                   !Flags.empty())
            if (FlagValues F = Flags.requiredAt(Q); !F.empty())
              R.Required[DRE] = std::move(F);
          return;
        }
        const RecordDecl *RD = recordOf(*V);
        RecordStorageLocation *Obj =
            RD && holdsCallables(*RD) ? objectOf(*V, Q.env()) : nullptr;
        if (Obj)
          NoteFields(*Obj, *DRE);
      });
  // Over budget or not analysable: nothing is proven, the syntax decides.
  if (Err) {
    llvm::consumeError(std::move(Err));
    R = Reads();
  }
  return R;
}

/// How many fields of one function are analysed again under assumptions
/// about methods defined elsewhere: each is a flow analysis of the function.
static constexpr unsigned MaxAssumedFields = 4;
/// How many assumptions a proof may rest on, each dropped in turn to find
/// those it needs (a flow analysis each).
static constexpr unsigned MaxAssumptions = 4;

std::optional<std::vector<AssumedMethodEffect>>
PassedValues::fieldAssuming(const FunctionDecl &Owner, const Expr &Read,
                            const FieldDecl &Field) {
  auto [It, New] = AssumedAnalyses.try_emplace({&Owner, &Field});
  Assuming &A = It->second;
  if (New) {
    unsigned &Count = AssumedFieldsOf[&Owner];
    if (Count < MaxAssumedFields &&
        AssumedMethods::assumesSomething(Owner, Field)) {
      ++Count;
      assume(Owner, Field, A);
    }
  }
  auto Proved = [&](const Reads &R) {
    auto F = R.Fields.find({&Read, &Field});
    return F != R.Fields.end() && F->second == Emptiness::NonEmpty;
  };
  if (!Proved(A.All))
    return std::nullopt;
  if (A.Assumed.size() > MaxAssumptions)
    return A.Assumed;
  // Drops, one at a time and earliest call first, the assumptions without
  // which this read is still proved set: what the call records is what its
  // proof needs, not every method the function happens to call. A later
  // setter decides what the field holds after it (`setOther(f); set(g);
  // run();` needs `set`). The analyses are shared by the reads that try the
  // same assumptions.
  std::vector<AssumedMethodEffect> Needed = A.Assumed;
  for (size_t I = 0; I < Needed.size();) {
    std::vector<const CXXMethodDecl *> Others;
    for (size_t J = 0; J < Needed.size(); ++J)
      if (J != I)
        Others.push_back(Needed[J].Method);
    auto [Sub, Missing] = A.BySubset.try_emplace(Others);
    if (Missing) {
      AssumedMethods Fewer(Oracle, Field);
      Fewer.restrictTo(Others);
      Sub->second = analyse(Owner, Fewer);
    }
    if (Proved(Sub->second))
      Needed.erase(Needed.begin() + I);
    else
      ++I;
  }
  return Needed;
}

/// Analyses Owner with every assumption the hypothesis makes for Field, and
/// orders the assumptions by the first call of their methods.
void PassedValues::assume(const FunctionDecl &Owner, const FieldDecl &Field,
                          Assuming &Out) {
  AssumedMethods All(Oracle, Field);
  Out.All = analyse(Owner, All);
  Out.Assumed = All.assumed();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<const CXXMethodDecl *, SourceLocation> At;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
      if (const CXXMethodDecl *M = MC->getMethodDecl()) {
        SourceLocation &First = At[M->getCanonicalDecl()];
        if (First.isInvalid() ||
            SM.isBeforeInTranslationUnit(MC->getBeginLoc(), First))
          First = MC->getBeginLoc();
      }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Owner.getBody());
  // Insertion sort: a handful of entries, and equal ones keep their order.
  std::vector<AssumedMethodEffect> &V = Out.Assumed;
  for (size_t I = 1; I < V.size(); ++I)
    for (size_t J = I; J > 0; --J) {
      SourceLocation A = At.lookup(V[J - 1].Method);
      SourceLocation B = At.lookup(V[J].Method);
      if (!A.isValid() || !B.isValid() || !SM.isBeforeInTranslationUnit(B, A))
        break;
      std::swap(V[J - 1], V[J]);
    }
}

Emptiness PassedValues::lookup(const FunctionDecl &Owner, const Expr &Read) {
  const Reads &R = of(Owner);
  auto It = R.Values.find(&Read);
  return It == R.Values.end() ? Emptiness::Unknown : It->second;
}

Emptiness PassedValues::at(const FunctionDecl &Owner, const DeclRefExpr &Read) {
  return lookup(Owner, Read);
}

Emptiness PassedValues::at(const FunctionDecl &Owner, const MemberExpr &Read) {
  return lookup(Owner, Read);
}

FlagValues PassedValues::requiredAt(const FunctionDecl &Owner,
                                    const DeclRefExpr &Read) {
  const Reads &R = of(Owner);
  auto It = R.Required.find(&Read);
  return It == R.Required.end() ? FlagValues() : It->second;
}

Emptiness PassedValues::fieldLookup(const FunctionDecl &Owner, const Expr &Read,
                                    const FieldDecl &Field) {
  const Reads &R = of(Owner);
  auto It = R.Fields.find({&Read, &Field});
  return It == R.Fields.end() ? Emptiness::Unknown : It->second;
}

Emptiness PassedValues::fieldAt(const FunctionDecl &Owner,
                                const DeclRefExpr &Read,
                                const FieldDecl &Field) {
  return fieldLookup(Owner, Read, Field);
}

Emptiness PassedValues::fieldAt(const FunctionDecl &Owner,
                                const CXXThisExpr &This,
                                const FieldDecl &Field) {
  return fieldLookup(Owner, This, Field);
}

Emptiness PassedValues::fieldAt(const FunctionDecl &Owner,
                                const MemberExpr &Read,
                                const FieldDecl &Field) {
  return fieldLookup(Owner, Read, Field);
}

Emptiness PassedValues::fieldAt(const FunctionDecl &Owner,
                                const CXXMemberCallExpr &Call,
                                const FieldDecl &Field) {
  return fieldLookup(Owner, Call, Field);
}

Emptiness PassedValues::fieldThroughAt(const FunctionDecl &Owner,
                                       const Expr &Read, const FieldDecl &Via,
                                       const FieldDecl &Field) {
  const Reads &R = of(Owner);
  auto It = R.Through.find({&Read, &Via, &Field});
  return It == R.Through.end() ? Emptiness::Unknown : It->second;
}

namespace {
/// What handsOnItsObject and handsOnParameter read of a function's body:
/// the fields it names, and the uses of the object handed on (`this`, or a
/// parameter), each of which must only name a member of it.
class HandedObjectUses : public RecursiveASTVisitor<HandedObjectUses> {
public:
  /// Param null: the uses of `this`, and Call the one non-const method call
  /// on it that is allowed. Else the uses of Param, and Read the one that
  /// may hand it on.
  HandedObjectUses(ParentMap &PM, const CXXMemberCallExpr *Call,
                   const ParmVarDecl *Param, const DeclRefExpr *Read)
      : PM(PM), Call(Call), Param(Param), Read(Read) {}

  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Named.insert(F);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *This) {
    return Param || namesAMember(*This);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (!Param || DRE->getDecl() != Param || DRE == Read)
      return true;
    return namesAMember(*DRE);
  }
  bool Handed = true;
  NamedFields Named;

private:
  /// `obj->x` and `obj->m()` for a const method (or the call allowed)
  /// name a member; anything else may change the object or hand it on
  /// (`run(*this)`, `p = other`, `&p`).
  bool namesAMember(const Expr &Use) {
    const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Expr *>(&Use));
    const auto *ME = dyn_cast_or_null<MemberExpr>(P);
    if (!ME)
      return fail();
    const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
    if (M && !M->isConst() && !M->isStatic() &&
        !(Call && ME == Call->getCallee()->IgnoreParens()))
      return fail();
    return true;
  }
  bool fail() {
    Handed = false;
    return false;
  }
  ParentMap &PM;
  const CXXMemberCallExpr *Call;
  const ParmVarDecl *Param;
  const DeclRefExpr *Read;
};

/// The fields the function whose body is Body names, when it hands on an
/// object at Use as it came (HandedObjectUses) and Use is in no loop (a
/// second run of the call may find what the first one did to a field).
std::optional<NamedFields> handsOnAsItCame(Stmt &Body, ParentMap &PM,
                                           const Expr &Use,
                                           const CXXMemberCallExpr *Call,
                                           const ParmVarDecl *Param) {
  for (const Stmt *S = PM.getParent(&Use); S; S = PM.getParent(S))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      return std::nullopt;
  HandedObjectUses Uses(PM, Call, Param, dyn_cast<DeclRefExpr>(&Use));
  Uses.TraverseStmt(&Body);
  if (!Uses.Handed)
    return std::nullopt;
  return std::move(Uses.Named);
}
} // namespace

std::optional<NamedFields> handsOnItsObject(const CXXMethodDecl &Owner,
                                            const CXXMemberCallExpr &Call,
                                            ParentMap &Parents) {
  if (Owner.isStatic() || isa<CXXConstructorDecl, CXXDestructorDecl>(Owner) ||
      Owner.getParent()->isLambda() || !Owner.getBody())
    return std::nullopt;
  return handsOnAsItCame(*Owner.getBody(), Parents, Call, &Call, nullptr);
}

std::optional<NamedFields> handsOnParameter(const FunctionDecl &Owner,
                                            const DeclRefExpr &Read,
                                            ParentMap &Parents) {
  const auto *P = dyn_cast<ParmVarDecl>(Read.getDecl());
  if (!P || P->getDeclContext() != &Owner || !Owner.getBody() ||
      isa<CXXConstructorDecl>(Owner))
    return std::nullopt;
  // A pointer or a reference to the object: a copy is the caller's own.
  QualType T = P->getType();
  if (!T->isPointerType() && !T->isReferenceType())
    return std::nullopt;
  return handsOnAsItCame(*Owner.getBody(), Parents, Read, nullptr, P);
}

} // namespace wrapguard
