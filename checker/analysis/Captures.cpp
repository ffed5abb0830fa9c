//===- Captures.cpp - What a lambda's captured callables hold -------------===//

#include "Captures.h"
#include "CallableSyntax.h"
#include "CallableValues.h"
#include "PolicyCallModel.h"
#include "StripNoise.h"
#include "ValueSources.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

/// The function whose body makes the lambda of class RD.
static const FunctionDecl *enclosingFunction(const CXXRecordDecl &RD) {
  for (const DeclContext *DC = RD.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      return FD;
  return nullptr;
}

namespace {

/// Lambdas stored in a local (`auto run = [&f] { f(); };`) that the
/// function only calls, or hands whole to a call (`std::thread t(run);`,
/// `pool.submit(run)`): for what they capture by reference, the state that
/// matters is the one where they are called, or where they are handed on
/// (for a variable nothing writes after its initialisation, which then
/// holds the same value whenever the lambda runs).
class LocalLambdas : public RecursiveASTVisitor<LocalLambdas> {
public:
  explicit LocalLambdas(ParentMap &Parents) : Parents(Parents) {}

  bool VisitVarDecl(VarDecl *V) {
    if (const auto *L = dyn_cast_or_null<LambdaExpr>(stripNoise(V->getInit())))
      Holder[V] = L;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Call && OC->getNumArgs() > 0)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(OC->getArg(0))))
        CallUses.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    Uses.push_back(DRE);
    return true;
  }
  // `[g = f]`, `[g = std::move(f)]`: the variable each init-capture reads,
  // by the expression that initialises it.
  bool VisitLambdaExpr(LambdaExpr *L) {
    auto Init = L->capture_init_begin();
    for (const LambdaCapture &C : L->captures()) {
      const Expr *InitExpr = *Init++;
      const auto *V = C.capturesVariable()
                          ? dyn_cast<VarDecl>(C.getCapturedVar())
                          : nullptr;
      if (!V || !V->isInitCapture() || !InitExpr)
        continue;
      // What the initializer copies or moves, as an argument would: a
      // variable, or a field of `*this` (`[old = m_completion]`).
      const Expr *Read = passedRead(*InitExpr);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Read);
          DRE && isa<VarDecl>(DRE->getDecl()))
        InitCaptures[InitExpr->IgnoreImplicit()] = Read;
      if (const auto *ME = dyn_cast<MemberExpr>(Read);
          ME && isa<FieldDecl>(ME->getMemberDecl()) &&
          isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        InitCaptures[InitExpr->IgnoreImplicit()] = Read;
    }
    return true;
  }

  /// Init-capture initializers (past implicit nodes), each with what it
  /// reads: a variable (a DeclRefExpr) or a field of `*this` (a
  /// MemberExpr).
  llvm::DenseMap<const Expr *, const Expr *> InitCaptures;

  /// The lambdas whose holder is used only to call them or to hand them
  /// on (HandOffs then names the calls that take them).
  llvm::DenseMap<const VarDecl *, const LambdaExpr *> onlyCalled() {
    llvm::DenseMap<const VarDecl *, const LambdaExpr *> Out = Holder;
    std::vector<std::pair<const Expr *, const VarDecl *>> Taken;
    for (const DeclRefExpr *DRE : Uses) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      auto It = Out.find(V);
      if (It == Out.end() || CallUses.count(DRE))
        continue;
      if (const Expr *Taker = handedTo(*DRE, *It->second))
        Taken.push_back({Taker, V});
      else
        Out.erase(It);
    }
    // Only the hand-offs of holders that no other use disqualified.
    for (const auto &[Taker, V] : Taken)
      if (Out.count(V))
        HandOffs[Taker] = V;
    return Out;
  }

  /// The calls and constructions that take a holder above whole, with it.
  llvm::DenseMap<const Expr *, const VarDecl *> HandOffs;

private:
  /// The call or construction (of another class) that Use, a holder of L,
  /// is an argument of, copied, moved or bound to a reference on the way;
  /// null for any other use (an assignment, a return, a member access).
  const Expr *handedTo(const DeclRefExpr &Use, const LambdaExpr &L) {
    const Stmt *Cur = &Use;
    for (const Stmt *P = Parents.getParent(Cur); P;
         Cur = P, P = Parents.getParent(P)) {
      if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
              ParenExpr>(P))
        continue;
      if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
        // A copy or move of the lambda itself.
        if (CE->getConstructor()->getParent() == L.getLambdaClass())
          continue;
      }
      if (const auto *Call = dyn_cast<CallExpr>(P))
        if (const FunctionDecl *FD = Call->getDirectCallee();
            FD && FD->isInStdNamespace() && FD->getIdentifier() &&
            FD->getName() == "move" && Call->getNumArgs() == 1)
          continue;
      const Expr *Taker = dyn_cast<Expr>(P);
      bool Takes = false;
      if (const auto *Call = dyn_cast_or_null<CallExpr>(Taker))
        Takes = llvm::is_contained(Call->arguments(), Cur) &&
                !isa<CXXOperatorCallExpr>(Call);
      else if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Taker))
        Takes = llvm::is_contained(CE->arguments(), Cur);
      return Takes && !returned(*Taker) ? Taker : nullptr;
    }
    return nullptr;
  }

  /// Whether E's value is what the function returns (`return call;` as a
  /// `std::function`, `return pool.submit(run);`): the lambda outlives the
  /// locals it refers to, and no state here says what it reads.
  bool returned(const Expr &E) {
    const Stmt *P = Parents.getParent(&E);
    while (P && isa<Expr>(P))
      P = Parents.getParent(P);
    return P && isa<ReturnStmt>(P);
  }

  ParentMap &Parents;
  llvm::DenseMap<const VarDecl *, const LambdaExpr *> Holder;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CallUses;
  std::vector<const DeclRefExpr *> Uses;
};

/// The state of several calls taken together.
Emptiness joinCalls(Emptiness A, Emptiness B) {
  if (A == B)
    return A;
  if (A == Emptiness::Unknown || B == Emptiness::Unknown)
    return Emptiness::Unknown;
  return Emptiness::MayBeEmpty;
}

} // namespace

/// The state of what an init-capture reads (LocalLambdas::InitCaptures).
static CallableState readStateIn(const Expr &Read, const Environment &Env,
                                 const CallableTypes &Types) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(&Read))
    return stateOf(*cast<VarDecl>(DRE->getDecl()), Env, Types);
  const auto *ME = cast<MemberExpr>(&Read);
  const RecordStorageLocation *This = Env.getThisPointeeStorageLocation();
  StorageLocation *L =
      This ? modelledChild(*This, *ME->getMemberDecl()) : nullptr;
  return L ? stateAt(*L, ME->getType(), Env, Types) : CallableState();
}

void Captures::analyse(const FunctionDecl &Enclosing) {
  if (!Analysed.try_emplace(&Enclosing, true).second)
    return;
  const FunctionDecl *Def = nullptr;
  if (!Enclosing.hasBody(Def) || !Def || Def->isDependentContext())
    return;
  LocalLambdas Locals(parentsOf(*Def));
  Locals.TraverseStmt(Def->getBody());
  auto Called = Locals.onlyCalled();
  InitStates.clear();
  // By-reference captures of the lambdas above, judged at each call.
  llvm::DenseMap<const CXXRecordDecl *, PerLambda> AtCalls;
  llvm::Error Err = runPolicyCallModel(
      *Def, Ctx, Types, Oracle, Opts.MaxSolverIterations, Opts.MaxBlockVisits,
      [&](const CFGElement &Elt, const PathQuery &Q) {
        auto S = Elt.getAs<CFGStmt>();
        if (!S)
          return;
        if (const auto *L = dyn_cast<LambdaExpr>(S->getStmt()))
          return recordCaptures(*L, *Def, Q);
        // An init-capture's value is its source's before the initializer
        // runs (which may move from it): the state before this element.
        if (const auto *E = dyn_cast<Expr>(S->getStmt()))
          if (auto It = Locals.InitCaptures.find(E->IgnoreImplicit());
              It != Locals.InitCaptures.end()) {
            CallableState St = readStateIn(*It->second, Q.env(), Types);
            Emptiness Pre =
                St.NonEmpty ? judgeState(St, Q) : Emptiness::Unknown;
            auto [PIt, New] = InitStates.try_emplace(It->first, Pre);
            if (!New)
              PIt->second = joinCalls(PIt->second, Pre);
            return;
          }
        const auto *OC = dyn_cast<CXXOperatorCallExpr>(S->getStmt());
        const auto *DRE =
            OC && OC->getOperator() == OO_Call && OC->getNumArgs() > 0
                ? dyn_cast<DeclRefExpr>(stripNoise(OC->getArg(0)))
                : nullptr;
        const VarDecl *Holder =
            DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
        if (const auto *E = dyn_cast<Expr>(S->getStmt()); E && !Holder)
          if (auto HIt = Locals.HandOffs.find(E); HIt != Locals.HandOffs.end())
            Holder = HIt->second;
        auto It = Holder ? Called.find(Holder) : Called.end();
        if (It == Called.end())
          return;
        PerLambda &Vars = AtCalls[It->second->getLambdaClass()];
        for (const LambdaCapture &C : It->second->captures()) {
          const auto *V = C.capturesVariable()
                              ? dyn_cast<VarDecl>(C.getCapturedVar())
                              : nullptr;
          if (!V || C.getCaptureKind() != LCK_ByRef ||
              !Types.isNullable(V->getType()))
            continue;
          CallableState St = stateOf(*V, Q.env(), Types);
          Emptiness E = St.NonEmpty ? judgeState(St, Q) : Emptiness::Unknown;
          auto [VIt, New] =
              Vars.try_emplace(V, CaptureState{E, {}, nullptr, nullptr});
          if (!New)
            VIt->second.State = joinCalls(VIt->second.State, E);
        }
      });
  // A function over budget tells nothing of its captures.
  if (Err) {
    llvm::consumeError(std::move(Err));
    return;
  }
  // A lambda handed on runs later: what it captures by reference holds its
  // state at the hand-off only if nothing writes it after that.
  llvm::SmallPtrSet<const CXXRecordDecl *, 4> HandedOn;
  for (const auto &[Taker, Holder] : Locals.HandOffs)
    HandedOn.insert(Called.lookup(Holder)->getLambdaClass());
  for (auto &[Class, Vars] : AtCalls)
    for (auto &[V, AtCall] : Vars) {
      auto It = States[Class].find(V);
      if (It == States[Class].end())
        continue;
      It->second.State = HandedOn.count(Class) &&
                                 writtenIn(*Def->getBody(), *V, parentsOf(*Def))
                             ? Emptiness::Unknown
                             : AtCall.State;
    }
}

ParentMap &Captures::parentsOf(const FunctionDecl &Def) {
  std::unique_ptr<ParentMap> &PM = Parents[&Def];
  if (!PM)
    PM = std::make_unique<ParentMap>(Def.getBody());
  return *PM;
}

void Captures::recordCaptures(const LambdaExpr &L, const FunctionDecl &Def,
                              const PathQuery &Q) {
  PerLambda &Vars = States[L.getLambdaClass()];
  auto Init = L.capture_init_begin();
  for (const LambdaCapture &C : L.captures()) {
    const Expr *InitExpr = *Init++;
    if (!C.capturesVariable())
      continue;
    const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
    if (!V || !Types.isNullable(V->getType()))
      continue;
    CallableState St = stateOf(*V, Q.env(), Types);
    CaptureState CS;
    CS.State = St.NonEmpty ? judgeState(St, Q) : Emptiness::Unknown;
    // An init-capture is not a variable of this function: its source's
    // state before the initializer ran, where the model saw it.
    if (V->isInitCapture() && InitExpr) {
      auto It = InitStates.find(InitExpr->IgnoreImplicit());
      CS.State = It != InitStates.end() ? It->second : Emptiness::Unknown;
    }
    // A reference capture reads the variable when the lambda runs, not when
    // it is made (`f = [&f] { f(); };` calls what f holds by then): unknown
    // here, unless the lambda's calls in this function say (analyse), or the
    // variable is set here and nothing in the function writes it after its
    // initialisation (`if (const auto &h = p.handler()) run([&h] { h(x);
    // });`), so that it holds the same value whenever the lambda runs.
    if (C.getCaptureKind() == LCK_ByRef &&
        (CS.State != Emptiness::NonEmpty || !Def.getBody() ||
         writtenIn(*Def.getBody(), *V, parentsOf(Def))))
      CS.State = Emptiness::Unknown;
    CS.ByRef = C.getCaptureKind() == LCK_ByRef;
    CS.Loc = C.isImplicit() ? L.getBeginLoc() : C.getLocation();
    CS.Init = InitExpr;
    CS.Enclosing = &Def;
    // In the converged state: a lambda made in a loop sees what every
    // iteration may have left.
    Vars.try_emplace(V, CS);
  }
}

std::optional<CaptureState> Captures::of(const FunctionDecl &CallOp,
                                         const VarDecl &V) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&CallOp);
  if (!MD || !MD->getParent()->isLambda())
    return std::nullopt;
  const CXXRecordDecl *RD = MD->getParent();
  if (const FunctionDecl *Enclosing = enclosingFunction(*RD))
    analyse(*Enclosing);
  auto It = States.find(RD);
  if (It == States.end())
    return std::nullopt;
  auto VIt = It->second.find(&V);
  if (VIt == It->second.end())
    return std::nullopt;
  return VIt->second;
}

} // namespace wrapguard
