//===- PassedValues.cpp - A value's state where it is passed on -----------===//

#include "PassedValues.h"
#include "CallableValues.h"
#include "FlagParameters.h"
#include "PolicyCallModel.h"

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

/// The object a member expression's base denotes: `*this`, what a pointer
/// points to (`p->f`), or a record (`obj.f`).
static RecordStorageLocation *objectOf(const Expr &Base,
                                       const Environment &Env) {
  const Expr *B = Base.IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(B))
    return Env.getThisPointeeStorageLocation();
  if (B->getType()->isPointerType()) {
    PointerValue *PV = pointerValue(*B, Env);
    return PV ? dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()) : nullptr;
  }
  return B->isGLValue() ? recordLocation(*B, Env) : nullptr;
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
  if (const RecordDecl *Def = RD.getDefinition(); New && Def)
    It->second = llvm::any_of(Def->fields(), [&](const FieldDecl *F) {
      return Types.isNullable(F->getType());
    });
  return It->second;
}

const PassedValues::Reads &PassedValues::of(const FunctionDecl &Owner) {
  auto Known = Analysed.find(&Owner);
  if (Known != Analysed.end())
    return Known->second;
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
          for (const auto &[D, L] : Obj.children())
            if (const auto *F = dyn_cast<FieldDecl>(D);
                F && L && Types.isNullable(F->getType()))
              if (Emptiness E =
                      Judge(stateAt(*L, F->getType(), Q.env(), Types));
                  proven(E))
                R.Fields[{&Read, F}] = E;
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
                RD && hasCallableFields(*RD) ? objectOf(*ME->getBase(), Q.env())
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
          for (const auto &[D, L] : Obj->children())
            if (D == F && L)
              if (Emptiness E =
                      Judge(stateAt(*L, F->getType(), Q.env(), Types));
                  proven(E))
                R.Values[ME] = E;
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
            RD && hasCallableFields(*RD) ? objectOf(*V, Q.env()) : nullptr;
        if (Obj)
          NoteFields(*Obj, *DRE);
      });
  // Over budget or not analysable: nothing is proven, the syntax decides.
  if (Err) {
    llvm::consumeError(std::move(Err));
    R = Reads();
  }
  return Analysed.try_emplace(&Owner, std::move(R)).first->second;
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

} // namespace wrapguard
