//===- PolicyCallModel.cpp - Dataflow model of nullable callables ---------===//

#include "PolicyCallModel.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/AdornedCFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/TypeErasedDataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {

CallResultOracle::~CallResultOracle() = default;

static constexpr llvm::StringLiteral NonEmptyName = "wg.nonempty";
static constexpr llvm::StringLiteral TrackedName = "wg.tracked";

//===----------------------------------------------------------------------===//
// Reading and writing the state of one value.
//===----------------------------------------------------------------------===//

// Environment::get<T> casts without checking; an integer where a boolean was
// expected would be read as garbage. These check the kind.
template <typename T, typename Key>
static T *valueAs(const Environment &Env, const Key &K) {
  return dyn_cast_or_null<T>(Env.getValue(K));
}
template <typename Key>
static RecordStorageLocation *recordLocAt(const Environment &Env,
                                          const Key &K) {
  return dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(K));
}

/// The record location E denotes: its own for a glvalue, its result object
/// for a prvalue.
static RecordStorageLocation *recordLocation(const Expr &E,
                                             const Environment &Env) {
  if (E.isPRValue()) {
    if (!E.getType()->isRecordType())
      return nullptr;
    return &Env.getResultObjectLocation(E);
  }
  if (auto *L = recordLocAt(Env, E))
    return L;
  // Implicit casts of a record glvalue (e.g. adding const) carry no location
  // of their own in the framework; the object is the same.
  const Expr *Inner = stripNoise(&E);
  if (Inner != &E && Inner->isGLValue())
    return recordLocAt(Env, *Inner);
  return nullptr;
}

/// The pointer value E evaluates to (a glvalue is read).
static PointerValue *pointerValue(const Expr &E, const Environment &Env) {
  if (E.isGLValue()) {
    if (StorageLocation *L = Env.getStorageLocation(E))
      return dyn_cast_or_null<PointerValue>(Env.getValue(*L));
    return nullptr;
  }
  if (auto *PV = valueAs<PointerValue>(Env, E))
    return PV;
  return nullptr;
}

static bool hasStateFields(const RecordStorageLocation &L) {
  for (const auto &Entry : L.synthetic_fields())
    if (Entry.getKey() == NonEmptyName)
      return true;
  return false;
}

static CallableState stateOfRecord(const RecordStorageLocation &L,
                                   const Environment &Env) {
  if (!hasStateFields(L))
    return {};
  return {valueAs<BoolValue>(Env, L.getSyntheticField(NonEmptyName)),
          valueAs<BoolValue>(Env, L.getSyntheticField(TrackedName))};
}

static CallableState stateOfPointer(const PointerValue &PV) {
  return {dyn_cast_or_null<BoolValue>(PV.getProperty(NonEmptyName)),
          dyn_cast_or_null<BoolValue>(PV.getProperty(TrackedName))};
}

CallableState PolicyCallModel::getState(const Expr &E, const Environment &Env,
                                        const CallableTypes &Types) {
  CallableKind K = Types.classify(E.getType());
  if (K == CallableKind::None)
    return {};
  if (isRecordKind(K)) {
    if (RecordStorageLocation *L = recordLocation(E, Env))
      return stateOfRecord(*L, Env);
    return {};
  }
  if (PointerValue *PV = pointerValue(E, Env))
    return stateOfPointer(*PV);
  return {};
}

//===----------------------------------------------------------------------===//
// The transfer function.
//===----------------------------------------------------------------------===//

class PolicyCallModel::Transfer {
public:
  Transfer(PolicyCallModel &M, Environment &Env)
      : Types(M.Types), Oracle(M.Oracle), Facts(M.Facts),
        KeyPresence(M.KeyPresence), Ctx(M.getASTContext()), Env(Env) {}

  void run(const Stmt &S) {
    const auto *E = dyn_cast<Expr>(&S);
    if (!E)
      return;
    if (transferMapLookup(*E))
      return;
    // The table, specific cases first. Each entry returns true when it
    // handled the expression.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      return transferConstruct(*CE);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      if (transferOperatorCall(*OC))
        return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      if (transferMemberCall(*MC))
        return;
    if (const auto *C = dyn_cast<CallExpr>(E))
      return transferCall(*C);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return transferBinary(*BO);
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return transferUnary(*UO);
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return transferCast(*Cast);
    if (isa<CXXNewExpr>(E))
      return setPointerState(*E, nonEmptyState());
    if (isa<InitListExpr, ImplicitValueInitExpr, CXXScalarValueInitExpr>(E))
      return transferValueInit(*E);
  }

private:
  struct Bools {
    BoolValue *NonEmpty;
    BoolValue *Tracked;
  };
  Bools nonEmptyState() { return {&lit(true), &lit(true)}; }
  Bools emptyState() { return {&lit(false), &lit(true)}; }
  Bools maybeEmptyState() { return {&fresh(), &lit(true)}; }
  Bools unknownState() { return {&fresh(), &fresh()}; }
  BoolValue &fresh() {
    BoolValue &B = Env.makeAtomicBoolValue();
    Facts.noteFresh(B.formula());
    return B;
  }
  /// The boolean a guard (`if (f)`, `f != nullptr`, ...) produces.
  BoolValue &guard(BoolValue &NonEmpty) {
    Facts.noteGuarded(NonEmpty.formula());
    return NonEmpty;
  }
  BoolValue &lit(bool B) { return Env.getBoolLiteralValue(B); }

  Bools fromEmptiness(Emptiness E) {
    switch (E) {
    case Emptiness::NonEmpty:
      return nonEmptyState();
    case Emptiness::MayBeEmpty:
      return maybeEmptyState();
    case Emptiness::AlwaysEmpty:
      return emptyState();
    case Emptiness::Unknown:
      return unknownState();
    }
    return unknownState();
  }

  CallableKind kindOf(const Expr &E) { return Types.classify(E.getType()); }

  //===--------------------------------------------------------------------===//
  // Key presence in maps of callables.
  //===--------------------------------------------------------------------===//

  std::string text(const Expr &E) {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E.getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }

  /// `m[k]` as text, the identity of one key of one map within a function;
  /// "" inside macros, where the spelling cannot be read.
  std::string presenceKey(const Expr &Map, const Expr &Key) {
    std::string M = text(*stripNoise(&Map)), K = text(*stripNoise(&Key));
    if (M.empty() || K.empty())
      return "";
    return M + "[" + K + "]";
  }

  /// The boolean "the key is present", as this path knows it.
  BoolValue &presence(StringRef K) {
    StorageLocation *&Loc = KeyPresence[K];
    if (!Loc)
      Loc = &Env.createStorageLocation(Ctx.BoolTy);
    if (auto *B = dyn_cast_or_null<BoolValue>(Env.getValue(*Loc)))
      return *B;
    BoolValue &B = fresh();
    Env.setValue(*Loc, B);
    return B;
  }

  void setPresence(StringRef K, bool Present) {
    if (K.empty())
      return;
    presence(K);
    Env.setValue(*KeyPresence[K], lit(Present));
  }

  /// The map and key of `m.find(k)`, also through a variable it initialises.
  std::optional<std::pair<const Expr *, const Expr *>> findCall(const Expr *E) {
    E = stripNoise(E);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (V->getInit())
          E = stripNoise(V->getInit());
    // A copy of an iterator wraps the call in a constructor.
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
      if (CE->getNumArgs() == 1)
        E = stripNoise(CE->getArg(0));
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
    if (!MC || MC->getNumArgs() != 1 || !MC->getMethodDecl() ||
        !MC->getMethodDecl()->getIdentifier() ||
        MC->getMethodDecl()->getName() != "find")
      return std::nullopt;
    const Expr *Map = MC->getImplicitObjectArgument();
    if (!Map || !isCallableMap(Map->getType(), Types))
      return std::nullopt;
    return std::make_pair(Map, MC->getArg(0));
  }

  /// The map of `m.end()` / `m.cend()`.
  const Expr *endCall(const Expr *E) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(stripNoise(E));
    if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier())
      return nullptr;
    StringRef N = MC->getMethodDecl()->getName();
    if (N != "end" && N != "cend")
      return nullptr;
    const Expr *Map = MC->getImplicitObjectArgument();
    return Map && isCallableMap(Map->getType(), Types) ? Map : nullptr;
  }

  /// `m.find(k) == m.end()` and `!=`, with the find in either operand.
  bool transferFindComparison(const CXXOperatorCallExpr &OC) {
    if ((OC.getOperator() != OO_EqualEqual &&
         OC.getOperator() != OO_ExclaimEqual) ||
        OC.getNumArgs() != 2)
      return false;
    for (unsigned I = 0; I < 2; ++I) {
      auto Find = findCall(OC.getArg(I));
      const Expr *End = endCall(OC.getArg(1 - I));
      if (!Find || !End ||
          text(*stripNoise(End)) != text(*stripNoise(Find->first)))
        continue;
      std::string K = presenceKey(*Find->first, *Find->second);
      if (K.empty())
        return false;
      BoolValue &P = guard(presence(K));
      Env.setValue(OC,
                   OC.getOperator() == OO_ExclaimEqual ? P : Env.makeNot(P));
      return true;
    }
    return false;
  }

  /// `m[k]` is empty exactly when the key was missing (then it inserts it);
  /// count, contains, at and insertions say the key is present.
  bool transferMapLookup(const Expr &E) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&E)) {
      if (transferFindComparison(*OC))
        return true;
      const Expr *Map = callableMapSubscript(*OC, Types);
      if (!Map)
        return false;
      std::string K = presenceKey(*Map, *OC->getArg(1));
      BoolValue &Present = K.empty() ? fresh() : presence(K);
      if (!Env.getStorageLocation(*OC))
        Env.setStorageLocation(*OC, Env.createObject(OC->getType()));
      setState(*OC, {&Present, &lit(true)});
      setPresence(K, true);
      return true;
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(&E);
    const Expr *Map = MC ? MC->getImplicitObjectArgument() : nullptr;
    if (!Map || !isCallableMap(Map->getType(), Types) || !MC->getMethodDecl() ||
        !MC->getMethodDecl()->getIdentifier())
      return false;
    StringRef N = MC->getMethodDecl()->getName();
    std::string K =
        MC->getNumArgs() >= 1 ? presenceKey(*Map, *MC->getArg(0)) : "";
    if ((N == "count" || N == "contains") && !K.empty()) {
      Env.setValue(*MC, guard(presence(K)));
      return true;
    }
    if (N == "at" || N == "emplace" || N == "try_emplace" ||
        N == "insert_or_assign")
      setPresence(K, true);
    else if (N == "insert" && MC->getNumArgs() == 1) {
      if (const Expr *Key = insertedKey(MC->getArg(0)))
        setPresence(presenceKey(*Map, *Key), true);
    } else if (N == "erase")
      setPresence(K, false);
    else if (N == "clear" || N == "swap") {
      // Every key of this map is unknown again.
      std::string Prefix = text(*stripNoise(Map)) + "[";
      for (auto &Entry : KeyPresence)
        if (StringRef(Entry.getKey()).starts_with(Prefix))
          Env.setValue(*Entry.getValue(), fresh());
    }
    return false; // The call's own value is modelled as any other's.
  }

  /// The key of `insert({k, f})`, `insert(std::make_pair(k, f))` or
  /// `insert(value_type(k, f))`.
  const Expr *insertedKey(const Expr *Arg) {
    Arg = stripNoise(Arg);
    if (const auto *ILE = dyn_cast_or_null<InitListExpr>(Arg))
      return ILE->getNumInits() >= 1 ? ILE->getInit(0) : nullptr;
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Arg)) {
      if (CE->getNumArgs() >= 2)
        return CE->getArg(0);
      if (CE->getNumArgs() == 1)
        return insertedKey(CE->getArg(0));
    }
    if (const auto *C = dyn_cast_or_null<CallExpr>(Arg))
      if (const FunctionDecl *FD = C->getDirectCallee();
          FD && FD->isInStdNamespace() && FD->getIdentifier() &&
          FD->getName() == "make_pair" && C->getNumArgs() == 2)
        return C->getArg(0);
    return nullptr;
  }

  /// `m.count(k) > 0`, `!= 0`, `== 0`, `>= 1`: the count's presence.
  bool transferCountComparison(const BinaryOperator &BO) {
    const auto *Count = dyn_cast<CXXMemberCallExpr>(stripNoise(BO.getLHS()));
    const auto *Lit = dyn_cast<IntegerLiteral>(stripNoise(BO.getRHS()));
    if (!Count || !Lit)
      return false;
    auto *P = valueAs<BoolValue>(Env, *Count);
    if (!P)
      return false;
    uint64_t V = Lit->getValue().getZExtValue();
    BinaryOperatorKind Op = BO.getOpcode();
    if ((Op == BO_GT || Op == BO_NE) && V == 0)
      Env.setValue(BO, *P);
    else if (Op == BO_GE && V == 1)
      Env.setValue(BO, *P);
    else if (Op == BO_EQ && V == 0)
      Env.setValue(BO, Env.makeNot(*P));
    else
      return false;
    return true;
  }

  void setRecordState(RecordStorageLocation &L, Bools B) {
    if (!hasStateFields(L))
      return;
    Env.setValue(L.getSyntheticField(NonEmptyName), *B.NonEmpty);
    Env.setValue(L.getSyntheticField(TrackedName), *B.Tracked);
  }

  /// A fresh pointer value with the given state. Values are shared between
  /// environments, so an existing one is never mutated.
  PointerValue &makePointer(QualType T, Bools B) {
    QualType Pointee = Ctx.VoidTy;
    if (const auto *PT = T->getAs<PointerType>())
      Pointee = PT->getPointeeType();
    auto &PV = Env.create<PointerValue>(Env.createStorageLocation(
        Pointee->isRecordType() || Pointee->isFunctionType() ? Pointee
                                                             : Ctx.CharTy));
    PV.setProperty(NonEmptyName, *B.NonEmpty);
    PV.setProperty(TrackedName, *B.Tracked);
    return PV;
  }

  void setPointerState(const Expr &E, Bools B) {
    PointerValue &PV = makePointer(E.getType(), B);
    if (E.isGLValue()) {
      if (StorageLocation *L = Env.getStorageLocation(E))
        Env.setValue(*L, PV);
      return;
    }
    Env.setValue(E, PV);
  }

  /// Sets the state of whatever nullable callable E denotes.
  void setState(const Expr &E, Bools B) {
    CallableKind K = kindOf(E);
    if (K == CallableKind::None)
      return;
    if (isRecordKind(K)) {
      if (RecordStorageLocation *L = recordLocation(E, Env))
        setRecordState(*L, B);
      return;
    }
    setPointerState(E, B);
  }

  /// The state of E, inventing an unknown one where the framework has none
  /// (e.g. a pointer parameter, whose value carries no properties yet).
  Bools stateOrUnknown(const Expr &E) {
    CallableState S = PolicyCallModel::getState(E, Env, Types);
    if (S.NonEmpty && S.Tracked)
      return {const_cast<BoolValue *>(S.NonEmpty),
              const_cast<BoolValue *>(S.Tracked)};
    return unknownState();
  }

  /// The state a nullable callable gets from being initialised or assigned
  /// from Src: empties, other nullable callables, and everything else (a
  /// lambda, a functor, a function), which is non-empty.
  Bools stateFromSource(const Expr &Src) {
    if (isNullLiteral(&Src, Ctx))
      return emptyState();
    const Expr *S = stripNoise(&Src);
    if (kindOf(Src) != CallableKind::None)
      return stateOrUnknown(Src);
    if (S != &Src && kindOf(*S) != CallableKind::None)
      return stateOrUnknown(*S);
    return nonEmptyState();
  }

  void markMovedFrom(const Expr *Arg) {
    if (const Expr *Obj = movedFromObject(Arg))
      if (kindOf(*Obj) != CallableKind::None)
        setState(*Obj, maybeEmptyState());
  }

  /// Arguments passed by non-const reference or pointer may be reassigned by
  /// the callee: forget what we knew.
  void invalidateArgs(const FunctionDecl *FD,
                      llvm::ArrayRef<const Expr *> Args) {
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *Arg = Args[I];
      QualType ParamTy;
      if (FD && I < FD->getNumParams())
        ParamTy = FD->getParamDecl(I)->getType();
      if (ParamTy.isNull())
        continue;
      if (ParamTy->isLValueReferenceType() &&
          !ParamTy->getPointeeType().isConstQualified()) {
        if (kindOf(*Arg) != CallableKind::None && Arg->isGLValue())
          setState(*Arg, unknownState());
        continue;
      }
      if (const auto *PT = ParamTy->getAs<PointerType>()) {
        if (PT->getPointeeType().isConstQualified())
          continue;
        const auto *AddrOf = dyn_cast<UnaryOperator>(stripNoise(Arg));
        if (AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
            kindOf(*AddrOf->getSubExpr()) != CallableKind::None)
          setState(*AddrOf->getSubExpr(), unknownState());
      }
    }
  }

  void transferConstruct(const CXXConstructExpr &CE) {
    const CXXConstructorDecl *Ctor = CE.getConstructor();
    if (Ctor)
      invalidateArgs(Ctor, llvm::ArrayRef(CE.getArgs(), CE.getNumArgs()));
    CallableKind K = kindOf(CE);
    if (!isRecordKind(K) || !Ctor)
      return;
    RecordStorageLocation &L = Env.getResultObjectLocation(CE);
    unsigned Explicit = 0;
    for (const Expr *Arg : CE.arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        ++Explicit;
    if (Explicit == 0)
      return setRecordState(L, emptyState());
    const Expr *Arg0 = CE.getArg(0);
    if (Ctor->isCopyOrMoveConstructor()) {
      // The framework copies the record, synthetic fields included; make sure
      // a source without state does not leave stale state behind.
      if (!stateOfRecord(L, Env).NonEmpty)
        setRecordState(L, stateOrUnknown(*Arg0));
      if (Ctor->isMoveConstructor())
        markMovedFrom(Arg0);
      return;
    }
    // In-place construction of an optional's value, e.g. optional<F>(in_place).
    if (K == CallableKind::Optional && !isNullLiteral(Arg0, Ctx) &&
        kindOf(*Arg0) != CallableKind::Optional)
      return setRecordState(L, nonEmptyState());
    setRecordState(L, stateFromSource(*Arg0));
    if (Ctor->getNumParams() > 0 &&
        Ctor->getParamDecl(0)->getType()->isRValueReferenceType())
      markMovedFrom(Arg0);
  }

  bool transferOperatorCall(const CXXOperatorCallExpr &OC) {
    switch (OC.getOperator()) {
    case OO_Equal:
      return transferAssign(OC);
    case OO_EqualEqual:
    case OO_ExclaimEqual:
      return transferNullComparison(OC.getOperator() == OO_EqualEqual,
                                    OC.getArg(0), OC.getArg(1), OC);
    default:
      return false;
    }
  }

  bool transferAssign(const CXXOperatorCallExpr &OC) {
    if (OC.getNumArgs() != 2)
      return false;
    const Expr *LHS = OC.getArg(0);
    const Expr *RHS = OC.getArg(1);
    if (!isRecordKind(kindOf(*LHS)))
      return false;
    RecordStorageLocation *L = recordLocation(*LHS, Env);
    if (!L)
      return true;
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(OC.getDirectCallee());
    if (Method && (Method->isCopyAssignmentOperator() ||
                   Method->isMoveAssignmentOperator())) {
      // The framework has copied the fields; a source without state would
      // otherwise leave the old state in place.
      setRecordState(*L, stateOrUnknown(*RHS));
      if (Method->isMoveAssignmentOperator())
        markMovedFrom(RHS);
    } else {
      setRecordState(*L, stateFromSource(*RHS));
      markMovedFrom(RHS);
    }
    // The assignment expression denotes the assigned object.
    Env.setStorageLocation(OC, *L);
    return true;
  }

  /// `x == nullptr`, `nullptr != x`, `o == std::nullopt`, ...
  bool transferNullComparison(bool IsEq, const Expr *L, const Expr *R,
                              const Expr &Cmp) {
    const Expr *Subject = nullptr;
    if (isNullLiteral(R, Ctx) && kindOf(*L) != CallableKind::None)
      Subject = L;
    else if (isNullLiteral(L, Ctx) && kindOf(*R) != CallableKind::None)
      Subject = R;
    if (!Subject)
      return false;
    BoolValue &NonEmpty = guard(*stateOrUnknown(*Subject).NonEmpty);
    Env.setValue(Cmp, IsEq ? Env.makeNot(NonEmpty) : NonEmpty);
    return true;
  }

  bool transferMemberCall(const CXXMemberCallExpr &MC) {
    const Expr *Obj = MC.getImplicitObjectArgument();
    const CXXMethodDecl *Method = MC.getMethodDecl();
    // Smart pointers declare operator bool, get() and reset() in a base.
    if (Obj && kindOf(*Obj) == CallableKind::None)
      Obj = stripNoise(Obj);
    if (!Obj || !Method || kindOf(*Obj) == CallableKind::None)
      return false;
    CallableKind K = kindOf(*Obj);
    if (const auto *Conv = dyn_cast<CXXConversionDecl>(Method)) {
      if (Conv->getConversionType()->isBooleanType()) {
        Env.setValue(MC, guard(*stateOrUnknown(*Obj).NonEmpty));
        return true;
      }
      return false;
    }
    if (!Method->getIdentifier())
      return false;
    StringRef Name = Method->getName();
    if (Name == "has_value") {
      Env.setValue(MC, guard(*stateOrUnknown(*Obj).NonEmpty));
      return true;
    }
    if (Name == "reset") {
      if (MC.getNumArgs() == 0 || isNullLiteral(MC.getArg(0), Ctx))
        setState(*Obj, emptyState());
      else
        setState(*Obj, stateFromSource(*MC.getArg(0)));
      return true;
    }
    if (Name == "emplace") {
      setState(*Obj, nonEmptyState());
      return true;
    }
    if (Name == "get" && K == CallableKind::SmartPointer) {
      Bools S = stateOrUnknown(*Obj);
      Env.setValue(MC, makePointer(MC.getType(), S));
      return true;
    }
    if (Name == "release" && K == CallableKind::SmartPointer) {
      Bools S = stateOrUnknown(*Obj);
      Env.setValue(MC, makePointer(MC.getType(), S));
      setState(*Obj, emptyState());
      return true;
    }
    if (Name == "swap" && MC.getNumArgs() == 1) {
      Bools Mine = stateOrUnknown(*Obj);
      Bools Theirs = stateOrUnknown(*MC.getArg(0));
      setState(*Obj, Theirs);
      setState(*MC.getArg(0), Mine);
      return true;
    }
    // Any other non-const member may change the target (e.g. assign()).
    if (!Method->isConst() && !Method->isOverloadedOperator() &&
        !isa<CXXConversionDecl>(Method) && !MC.getType()->isReferenceType() &&
        Types.classify(MC.getType()) == CallableKind::None) {
      setState(*Obj, unknownState());
      return true;
    }
    return false;
  }

  void transferCall(const CallExpr &C) {
    const FunctionDecl *FD = C.getDirectCallee();
    if (FD && FD->getBuiltinID() == Builtin::BI__builtin_expect &&
        C.getNumArgs() >= 1) {
      if (auto *B = valueAs<BoolValue>(Env, *stripNoise(C.getArg(0))))
        Env.setValue(C, *B);
      else if (auto *B = valueAs<BoolValue>(Env, *C.getArg(0)))
        Env.setValue(C, *B);
      return;
    }
    if (FD && FD->isInStdNamespace() && FD->getIdentifier() &&
        (FD->getName() == "move" || FD->getName() == "forward"))
      return;
    // Operator calls pass the object as argument 0 where a method has no
    // parameter for it.
    llvm::ArrayRef<const Expr *> Args(C.getArgs(), C.getNumArgs());
    if (isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(FD) &&
        !Args.empty())
      Args = Args.drop_front();
    invalidateArgs(FD, Args);

    if (kindOf(C) == CallableKind::None)
      return;
    Bools Result = fromEmptiness(Oracle.classifyCallResult(C));
    if (C.isPRValue() && !C.getType()->isRecordType()) {
      Env.setValue(C, makePointer(C.getType(), Result));
      return;
    }
    // A reference to a record from an unmodelled call (e.g. a map lookup)
    // has no location yet; give it one so the state has somewhere to live.
    if (C.isGLValue() && C.getType()->isRecordType() &&
        !Env.getStorageLocation(C))
      Env.setStorageLocation(C, Env.createObject(C.getType()));
    setState(C, Result);
  }

  void transferBinary(const BinaryOperator &BO) {
    if (transferCountComparison(BO))
      return;
    switch (BO.getOpcode()) {
    case BO_EQ:
    case BO_NE: {
      if (transferNullComparison(BO.getOpcode() == BO_EQ, BO.getLHS(),
                                 BO.getRHS(), BO))
        return;
      // The framework folds a comparison of two unmodelled integers (enum
      // constants among them) to a literal, which makes one branch of
      // `if (k == Kind::A)` unreachable; integers are not ours to decide.
      QualType T = BO.getLHS()->getType();
      if (T->isIntegralOrEnumerationType() && !T->isBooleanType())
        if (auto *B = valueAs<BoolValue>(Env, BO);
            B && B->formula().kind() == Formula::Literal)
          Env.setValue(BO, Env.makeAtomicBoolValue());
      return;
    }
    case BO_Assign: {
      if (kindOf(*BO.getLHS()) == CallableKind::None ||
          isRecordKind(kindOf(*BO.getLHS())))
        return;
      Bools S = stateFromSource(*BO.getRHS());
      PointerValue &PV = makePointer(BO.getLHS()->getType(), S);
      if (StorageLocation *L = Env.getStorageLocation(*BO.getLHS())) {
        Env.setValue(*L, PV);
        Env.setStorageLocation(BO, *L);
      }
      return;
    }
    default:
      return;
    }
  }

  void transferUnary(const UnaryOperator &UO) {
    // `&function`, `&Class::method`, `&functor`: never null.
    if (UO.getOpcode() == UO_AddrOf && kindOf(UO) != CallableKind::None)
      setPointerState(UO, nonEmptyState());
  }

  void transferCast(const CastExpr &Cast) {
    const Expr *Sub = Cast.getSubExpr();
    switch (Cast.getCastKind()) {
    case CK_NullToPointer:
    case CK_NullToMemberPointer:
      if (kindOf(Cast) != CallableKind::None)
        setPointerState(Cast, emptyState());
      return;
    case CK_FunctionToPointerDecay:
      setPointerState(Cast, nonEmptyState());
      return;
    case CK_PointerToBoolean:
    case CK_MemberPointerToBoolean:
      if (kindOf(*Sub) != CallableKind::None)
        Env.setValue(Cast, guard(*stateOrUnknown(*Sub).NonEmpty));
      return;
    case CK_LValueToRValue:
      // Member pointers have no value in the framework; give them ours.
      if (kindOf(Cast) == CallableKind::MemberFunctionPointer &&
          !Env.getValue(Cast))
        if (StorageLocation *L = Env.getStorageLocation(*Sub))
          if (Value *V = Env.getValue(*L))
            Env.setValue(Cast, *V);
      return;
    case CK_NoOp:
    case CK_BitCast:
    case CK_BaseToDerived:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      if (Cast.isPRValue() && kindOf(Cast) != CallableKind::None &&
          !isRecordKind(kindOf(Cast)) && !Env.getValue(Cast))
        if (Value *V = Env.getValue(*Sub))
          Env.setValue(Cast, *V);
      propagateBool(Cast);
      return;
    case CK_UserDefinedConversion:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_ConstructorConversion:
      propagateBool(Cast);
      return;
    default:
      return;
    }
  }

  /// `static_cast<bool>(f)`, the integer casts around __builtin_expect in
  /// TORCH_CHECK, and similar wrappers keep the test's truth value.
  void propagateBool(const CastExpr &Cast) {
    if (!Cast.isPRValue() ||
        !(Cast.getType()->isBooleanType() || Cast.getType()->isIntegerType()))
      return;
    auto *B = valueAs<BoolValue>(Env, *Cast.getSubExpr());
    if (!B)
      B = valueAs<BoolValue>(Env, *stripNoise(Cast.getSubExpr()));
    if (B)
      Env.setValue(Cast, *B);
  }

  void transferValueInit(const Expr &E) {
    // `WrapFnPtr f{};`, `return {};` for a pointer: null.
    if (const auto *ILE = dyn_cast<InitListExpr>(&E))
      if (ILE->getNumInits() != 0)
        return;
    CallableKind K = kindOf(E);
    if (K != CallableKind::None && !isRecordKind(K))
      setPointerState(E, emptyState());
  }

  const CallableTypes &Types;
  CallResultOracle &Oracle;
  PathFacts &Facts;
  llvm::StringMap<StorageLocation *> &KeyPresence;
  ASTContext &Ctx;
  Environment &Env;
};

PolicyCallModel::PolicyCallModel(ASTContext &Ctx, Environment &Env,
                                 const CallableTypes &Types,
                                 CallResultOracle &Oracle, PathFacts &Facts)
    : DataflowAnalysis(Ctx), Types(Types), Oracle(Oracle), Facts(Facts) {
  QualType BoolTy = Ctx.BoolTy;
  const CallableTypes *T = &Types;
  Env.getDataflowAnalysisContext().setSyntheticFieldCallback(
      [T, BoolTy](QualType Ty) -> llvm::StringMap<QualType> {
        if (!isRecordKind(T->classify(Ty)))
          return {};
        return {{NonEmptyName, BoolTy}, {TrackedName, BoolTy}};
      });
}

void PolicyCallModel::transfer(const CFGElement &Elt, PathLattice &,
                               Environment &Env) {
  if (auto S = Elt.getAs<CFGStmt>())
    Transfer(*this, Env).run(*S->getStmt());
}

void PolicyCallModel::transferBranch(bool Branch, const Stmt *Cond,
                                     PathLattice &L, const Environment &Env) {
  const auto *E = dyn_cast_or_null<Expr>(Cond);
  if (!E)
    return;
  if (const auto *V = Env.get<BoolValue>(*E))
    L.assume(V->formula(), Branch, Facts);
}

//===----------------------------------------------------------------------===//
// Joins and widening of pointer states. Record states live in synthetic bool
// fields, which the framework joins and widens itself.
//===----------------------------------------------------------------------===//

static bool sameBool(const BoolValue *B1, const Environment &Env1,
                     const BoolValue *B2, const Environment &Env2) {
  if (B1 == B2)
    return true;
  if (!B1 || !B2)
    return false;
  if (isa<TopBoolValue>(B1) && isa<TopBoolValue>(B2))
    return true;
  if (provesCheaply(Env1, B1->formula()) && provesCheaply(Env2, B2->formula()))
    return true;
  auto &A1 = Env1.arena();
  auto &A2 = Env2.arena();
  return Env1.proves(A1.makeNot(B1->formula())) &&
         Env2.proves(A2.makeNot(B2->formula()));
}

ComparisonResult PolicyCallModel::compare(QualType Type, const Value &Val1,
                                          const Environment &Env1,
                                          const Value &Val2,
                                          const Environment &Env2) {
  if (Facts.exhausted())
    return ComparisonResult::Unknown;
  const auto *P1 = dyn_cast<PointerValue>(&Val1);
  const auto *P2 = dyn_cast<PointerValue>(&Val2);
  if (!P1 || !P2)
    return ComparisonResult::Unknown;
  CallableState S1 = stateOfPointer(*P1), S2 = stateOfPointer(*P2);
  if (!S1.NonEmpty && !S2.NonEmpty)
    return ComparisonResult::Unknown;
  return sameBool(S1.NonEmpty, Env1, S2.NonEmpty, Env2) &&
                 sameBool(S1.Tracked, Env1, S2.Tracked, Env2)
             ? ComparisonResult::Same
             : ComparisonResult::Different;
}

static BoolValue &joinBool(const BoolValue *B1, const Environment &Env1,
                           const BoolValue *B2, const Environment &Env2,
                           Environment &JoinedEnv) {
  if (B1 && B1 == B2)
    return const_cast<BoolValue &>(*B1);
  BoolValue &J = JoinedEnv.makeAtomicBoolValue();
  if (!B1 || !B2)
    return J;
  Arena &A = JoinedEnv.arena();
  JoinedEnv.assume(
      A.makeOr(A.makeAnd(A.makeAtomRef(Env1.getFlowConditionToken()),
                         A.makeEquals(J.formula(), B1->formula())),
               A.makeAnd(A.makeAtomRef(Env2.getFlowConditionToken()),
                         A.makeEquals(J.formula(), B2->formula()))));
  return J;
}

void PolicyCallModel::join(QualType Type, const Value &Val1,
                           const Environment &Env1, const Value &Val2,
                           const Environment &Env2, Value &JoinedVal,
                           Environment &JoinedEnv) {
  const auto *P1 = dyn_cast<PointerValue>(&Val1);
  const auto *P2 = dyn_cast<PointerValue>(&Val2);
  if (!P1 || !P2 || !isa<PointerValue>(JoinedVal))
    return;
  CallableState S1 = stateOfPointer(*P1), S2 = stateOfPointer(*P2);
  if (!S1.NonEmpty && !S2.NonEmpty)
    return;
  JoinedVal.setProperty(
      NonEmptyName, joinBool(S1.NonEmpty, Env1, S2.NonEmpty, Env2, JoinedEnv));
  JoinedVal.setProperty(
      TrackedName, joinBool(S1.Tracked, Env1, S2.Tracked, Env2, JoinedEnv));
}

/// Widens one boolean towards Top; a value that is already Top, or is the
/// same literal on both sides, stays. This makes widening idempotent, so
/// loops converge.
static BoolValue &widenBool(const BoolValue *Prev, const Environment &PrevEnv,
                            const BoolValue *Cur, Environment &CurEnv,
                            bool &Changed) {
  if (Prev && (isa<TopBoolValue>(Prev) || Prev == Cur))
    return const_cast<BoolValue &>(*Prev);
  if (Prev && Cur) {
    bool T1 = provesCheaply(PrevEnv, Prev->formula()),
         T2 = provesCheaply(CurEnv, Cur->formula());
    if (T1 && T2)
      return CurEnv.getBoolLiteralValue(true);
    if (PrevEnv.proves(PrevEnv.arena().makeNot(Prev->formula())) &&
        CurEnv.proves(CurEnv.arena().makeNot(Cur->formula())))
      return CurEnv.getBoolLiteralValue(false);
  }
  Changed = true;
  return CurEnv.makeTopBoolValue();
}

std::optional<WidenResult> PolicyCallModel::widen(QualType Type, Value &Prev,
                                                  const Environment &PrevEnv,
                                                  Value &Current,
                                                  Environment &CurrentEnv) {
  auto *P1 = dyn_cast<PointerValue>(&Prev);
  auto *P2 = dyn_cast<PointerValue>(&Current);
  if (!P1 || !P2 || Facts.exhausted())
    return std::nullopt;
  CallableState S1 = stateOfPointer(*P1), S2 = stateOfPointer(*P2);
  if (!S1.NonEmpty && !S2.NonEmpty)
    return std::nullopt;
  if (sameBool(S1.NonEmpty, PrevEnv, S2.NonEmpty, CurrentEnv) &&
      sameBool(S1.Tracked, PrevEnv, S2.Tracked, CurrentEnv))
    return WidenResult{&Prev, LatticeEffect::Unchanged};
  bool Changed = false;
  BoolValue &N =
      widenBool(S1.NonEmpty, PrevEnv, S2.NonEmpty, CurrentEnv, Changed);
  BoolValue &T =
      widenBool(S1.Tracked, PrevEnv, S2.Tracked, CurrentEnv, Changed);
  if (!Changed && &N == S1.NonEmpty && &T == S1.Tracked)
    return WidenResult{&Prev, LatticeEffect::Unchanged};
  auto &W = CurrentEnv.create<PointerValue>(P2->getPointeeLoc());
  W.setProperty(NonEmptyName, N);
  W.setProperty(TrackedName, T);
  return WidenResult{&W, LatticeEffect::Changed};
}

//===----------------------------------------------------------------------===//
// Driver.
//===----------------------------------------------------------------------===//

char BudgetExceeded::ID;

void BudgetExceeded::log(llvm::raw_ostream &OS) const {
  OS << "budget " << Option << " exceeded";
}

std::error_code BudgetExceeded::convertToErrorCode() const {
  return std::make_error_code(std::errc::interrupted);
}

llvm::Error runPolicyCallModel(
    const FunctionDecl &FD, ASTContext &Ctx, const CallableTypes &Types,
    CallResultOracle &Oracle, std::int64_t MaxSolverIterations,
    std::int32_t MaxBlockVisits,
    llvm::function_ref<void(const CFGElement &, const PathQuery &)> Visit) {
  llvm::Expected<AdornedCFG> CFG = AdornedCFG::build(FD);
  if (!CFG)
    return CFG.takeError();
  BudgetedSolver Solver(MaxSolverIterations);
  DataflowAnalysisContext DACtx(Solver);
  Environment Env(DACtx, FD);
  PathFacts Facts;
  Facts.setSolver(&Solver);
  PolicyCallModel Model(Ctx, Env, Types, Oracle, Facts);
  CFGEltCallbacksTypeErased Callbacks;
  Callbacks.Before = [&](const CFGElement &Elt,
                         const TypeErasedDataflowAnalysisState &State) {
    Visit(Elt,
          PathQuery(State.Env,
                    llvm::any_cast<const PathLattice &>(State.Lattice.Value),
                    Facts));
  };
  auto States = runTypeErasedDataflowAnalysis(*CFG, Model, Env, Callbacks,
                                              MaxBlockVisits);
  if (Solver.reachedLimit()) {
    if (!States)
      llvm::consumeError(States.takeError());
    return llvm::make_error<BudgetExceeded>("MaxSolverIterations");
  }
  if (!States)
    // The framework reports its block-visit limit as timed_out.
    return llvm::handleErrors(
        States.takeError(), [](const llvm::StringError &E) -> llvm::Error {
          if (E.convertToErrorCode() ==
              std::make_error_code(std::errc::timed_out))
            return llvm::make_error<BudgetExceeded>("MaxBlockVisits");
          return llvm::createStringError(E.convertToErrorCode(),
                                         E.getMessage());
        });
  return llvm::Error::success();
}

} // namespace wrapguard
