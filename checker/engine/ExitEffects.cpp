//===- ExitEffects.cpp - What a method leaves in *this --------------------===//

#include "ExitEffects.h"
#include "CallableValues.h"
#include "PolicyCallModel.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

llvm::SmallVector<const FieldDecl *, 2>
fieldsProvenSet(const PathQuery &Q, const CallableTypes &Types) {
  llvm::SmallVector<const FieldDecl *, 2> Out;
  const Environment &Env = Q.env();
  const RecordStorageLocation *This = Env.getThisPointeeStorageLocation();
  if (!This)
    return Out;
  for (const auto &[D, L] : This->children()) {
    const auto *F = dyn_cast<FieldDecl>(D);
    if (!F || !L)
      continue;
    CallableState St = stateAt(*L, F->getType(), Env, Types);
    if (St.NonEmpty && judgeState(St, Q) == Emptiness::NonEmpty)
      Out.push_back(F);
  }
  return Out;
}

/// Whether nothing in Def (its body, a constructor's initializers) writes P,
/// takes its address or binds it to a non-const reference.
static bool neverWritten(const ParmVarDecl &P, const FunctionDecl &Def,
                         ASTContext &Ctx) {
  if (Def.getBody() && ExprMutationAnalyzer(*Def.getBody(), Ctx).isMutated(&P))
    return false;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&Def))
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getInit() &&
          ExprMutationAnalyzer(*I->getInit(), Ctx).isMutated(&P))
        return false;
  return true;
}

/// Whether field A is declared before field B: by their order in one
/// record, else by where they are (a base is defined before the records
/// derived from it). Both are the same from run to run, unlike the
/// fields' addresses.
static bool declaredBefore(const FieldDecl &A, const FieldDecl &B) {
  if (A.getParent() == B.getParent())
    return A.getFieldIndex() < B.getFieldIndex();
  return A.getLocation().getRawEncoding() < B.getLocation().getRawEncoding();
}

/// The bool members whose truth at a constructor's exit is compared with
/// the callable fields' states: each comparison is a solver question.
constexpr unsigned MaxExitFlags = 4;

ExitEffect exitEffectOf(const FunctionDecl &Def, ASTContext &Ctx,
                        const CallableTypes &Types, CallResultOracle &Oracle,
                        std::int64_t MaxSolverIterations,
                        std::int32_t MaxBlockVisits) {
  ExitEffect X;
  // The parameters' states before anything runs, to compare the fields'
  // states at the exit with.
  llvm::SmallVector<std::pair<unsigned, const dataflow::Formula *>, 2> Params;
  // Likewise the callable fields', to tell the fields a body leaves as they
  // were from those it changes.
  llvm::DenseMap<const FieldDecl *, const dataflow::Formula *> AtEntry;
  // Pointer parameters get their state where they are first read, not at
  // the entry (Transfer::readPointer): one the body never writes has that
  // same state at the exit, so it is read there.
  llvm::SmallVector<const ParmVarDecl *, 2> ReadLater;
  bool SawEntry = false;
  llvm::Error Err = runPolicyCallModel(
      Def, Ctx, Types, Oracle, MaxSolverIterations, MaxBlockVisits,
      [&](const CFGElement &, const PathQuery &Q) {
        if (std::exchange(SawEntry, true))
          return;
        for (const ParmVarDecl *P : Def.parameters()) {
          if (!Types.isNullable(P->getType()))
            continue;
          if (CallableState St = ::wrapguard::stateOf(*P, Q.env(), Types);
              St.NonEmpty)
            Params.push_back(
                {P->getFunctionScopeIndex(), &St.NonEmpty->formula()});
          else if (!isRecordKind(Types.classify(P->getType())) &&
                   neverWritten(*P, Def, Ctx))
            ReadLater.push_back(P);
        }
        if (const dataflow::RecordStorageLocation *This =
                Q.env().getThisPointeeStorageLocation())
          for (const auto &[D, L] : This->children())
            if (const auto *F = dyn_cast_or_null<FieldDecl>(D);
                F && L && Types.isNullable(F->getType()))
              if (CallableState St = stateAt(*L, F->getType(), Q.env(), Types);
                  St.NonEmpty)
                AtEntry[F] = &St.NonEmpty->formula();
      },
      [&](const PathQuery &Q) {
        for (const ParmVarDecl *P : ReadLater)
          if (CallableState St = ::wrapguard::stateOf(*P, Q.env(), Types);
              St.NonEmpty)
            Params.push_back(
                {P->getFunctionScopeIndex(), &St.NonEmpty->formula()});
        for (const FieldDecl *F : fieldsProvenSet(Q, Types))
          X.Set.insert(F);
        const dataflow::RecordStorageLocation *This =
            Q.env().getThisPointeeStorageLocation();
        if (!This)
          return;
        dataflow::Arena &A = Q.env().arena();
        // The bool members the constructor models, for the fields set
        // exactly where one of them is true. children() is keyed by
        // pointer, so its order changes from run to run: the flags are put
        // in declaration order before the cap and the first-match choice
        // below, or the facts would name a different flag each run. A flag
        // false on every path implies anything and says nothing: left out.
        using Flag = std::pair<const FieldDecl *, const dataflow::Formula *>;
        llvm::SmallVector<Flag, 4> AllFlags;
        for (const auto &[D, L] : This->children()) {
          const auto *F = dyn_cast_or_null<FieldDecl>(D);
          if (F && L && F->getType()->isBooleanType())
            if (const auto *B =
                    dyn_cast_or_null<dataflow::BoolValue>(Q.env().getValue(*L)))
              AllFlags.push_back({F, &B->formula()});
        }
        llvm::sort(AllFlags, [](const Flag &X, const Flag &Y) {
          return declaredBefore(*X.first, *Y.first);
        });
        llvm::SmallVector<Flag, 4> Flags;
        for (const Flag &F : AllFlags) {
          if (Flags.size() == MaxExitFlags)
            break;
          if (!Q.proves(A.makeNot(*F.second)))
            Flags.push_back(F);
        }
        for (const auto &[D, L] : This->children()) {
          const auto *F = dyn_cast<FieldDecl>(D);
          if (!F || X.Set.count(F) || !L)
            continue;
          CallableState St = stateAt(*L, F->getType(), Q.env(), Types);
          if (!St.NonEmpty)
            continue;
          for (const auto &[Index, Entry] : Params)
            if (Q.proves(A.makeEquals(St.NonEmpty->formula(), *Entry))) {
              X.SameAsParameter[F] = Index;
              break;
            }
          if (X.SameAsParameter.count(F))
            continue;
          if (!Types.isNullable(F->getType()))
            continue;
          if (judgeState(St, Q) == Emptiness::AlwaysEmpty)
            X.Emptied.insert(F);
          else if (const dataflow::Formula *Entry = AtEntry.lookup(F);
                   !Entry ||
                   !Q.proves(A.makeEquals(St.NonEmpty->formula(), *Entry)))
            X.Changed.insert(F);
          for (const auto &[Flag, Value] : Flags)
            if (Q.proves(A.makeImplies(*Value, St.NonEmpty->formula()))) {
              X.SetWhenFlag[F] = Flag;
              break;
            }
        }
      });
  // Over a budget, or a construct the engine skips: nothing is proved.
  if (Err)
    llvm::consumeError(std::move(Err));
  else
    X.Analysed = true;
  return X;
}

} // namespace wrapguard
