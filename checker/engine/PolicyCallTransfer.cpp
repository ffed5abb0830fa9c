//===- PolicyCallTransfer.cpp - The model's transfer function -------------===//

#include "PolicyCallTransfer.h"
#include "CallableSyntax.h"
#include "CallableValues.h"
#include "ComparisonHelpers.h"
#include "HandleConstructors.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include <functional>

using namespace clang;
using namespace clang::dataflow;

namespace wrapguard {
namespace {

//===----------------------------------------------------------------------===//
// Which API a call is, identified by its declaration.
//===----------------------------------------------------------------------===//

/// Members of a nullable callable class (std::function, std::optional, the
/// smart pointers, or a class the options name) that change or read its
/// state.
enum class Member {
  Other,
  BoolConversion, ///< `explicit operator bool`
  HasValue,
  Reset,
  Emplace,
  Get,
  Release,
  Swap,
};

Member memberOf(const CXXMethodDecl &M) {
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(&M))
    return Conv->getConversionType()->isBooleanType() ? Member::BoolConversion
                                                      : Member::Other;
  if (!M.getIdentifier())
    return Member::Other;
  return llvm::StringSwitch<Member>(M.getName())
      .Case("has_value", Member::HasValue)
      .Case("reset", Member::Reset)
      .Case("emplace", Member::Emplace)
      .Case("get", Member::Get)
      .Case("release", Member::Release)
      .Case("swap", Member::Swap)
      .Default(Member::Other);
}

/// Members of a std::map or std::unordered_map of callables that say
/// whether a key is present.
enum class MapMember {
  Other,
  Find,
  End,
  Lookup,
  Present,
  Insert,
  Erase,
  Forget
};

MapMember mapMemberOf(const CXXMethodDecl &M) {
  if (!M.getIdentifier())
    return MapMember::Other;
  return llvm::StringSwitch<MapMember>(M.getName())
      .Case("find", MapMember::Find)
      .Cases("end", "cend", MapMember::End)
      .Cases("count", "contains", MapMember::Lookup)
      .Cases("at", "emplace", "try_emplace", "insert_or_assign",
             MapMember::Present)
      .Case("insert", MapMember::Insert)
      .Case("erase", MapMember::Erase)
      .Cases("clear", "swap", MapMember::Forget)
      .Default(MapMember::Other);
}

/// Whether a pointer of type PtrTy may point at a location of type LocTy as
/// the framework reads it: the same type up to qualifiers. Member pointers
/// are never dereferenced by the framework.
bool samePointee(QualType LocTy, QualType PtrTy) {
  const auto *PT = PtrTy->getAs<PointerType>();
  if (!PT)
    return true;
  return LocTy.getCanonicalType().getUnqualifiedType() ==
         PT->getPointeeType().getCanonicalType().getUnqualifiedType();
}

//===----------------------------------------------------------------------===//
// Writing states.
//===----------------------------------------------------------------------===//

/// A state under construction: the two booleans of CallableState.
struct Bools {
  BoolValue *NonEmpty;
  BoolValue *Tracked;
};

/// The state-writing half of the transfer function, shared by every case.
class StateWriter {
public:
  StateWriter(TransferContext &C, Environment &Env) : C(C), Env(Env) {}

  Bools nonEmptyState() { return {&lit(true), &lit(true)}; }
  Bools emptyState() { return {&lit(false), &lit(true)}; }
  Bools maybeEmptyState() { return {&fresh(), &lit(true)}; }
  Bools unknownState() { return {&fresh(), &fresh()}; }

  BoolValue &fresh() {
    BoolValue &B = Env.makeAtomicBoolValue();
    C.Atoms.noteFresh(B.formula());
    return B;
  }
  /// The boolean a guard (`if (f)`, `f != nullptr`, ...) produces.
  BoolValue &guard(BoolValue &NonEmpty) {
    C.Atoms.noteGuarded(NonEmpty.formula());
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

  CallableKind kindOf(const Expr &E) { return C.Types.classify(E.getType()); }
  bool isCallable(const Expr &E) { return kindOf(E) != CallableKind::None; }

  void setRecordState(RecordStorageLocation &L, Bools B) {
    if (!hasStateFields(L))
      return;
    Env.setValue(L.getSyntheticField(NonEmptyName), *B.NonEmpty);
    Env.setValue(L.getSyntheticField(TrackedName), *B.Tracked);
  }

  /// A fresh pointer value with the given state. Values are shared between
  /// environments, so an existing one is never mutated.
  PointerValue &makePointer(QualType T, Bools B) {
    QualType Pointee = C.Ctx.VoidTy;
    if (const auto *PT = T->getAs<PointerType>())
      Pointee = PT->getPointeeType();
    auto &PV = Env.create<PointerValue>(Env.createStorageLocation(
        Pointee->isRecordType() || Pointee->isFunctionType() ? Pointee
                                                             : C.Ctx.CharTy));
    PV.setProperty(NonEmptyName, *B.NonEmpty);
    PV.setProperty(TrackedName, *B.Tracked);
    return PV;
  }

  void setPointerState(const Expr &E, Bools B) {
    PointerValue &PV = makePointer(E.getType(), B);
    if (!E.isGLValue())
      return Env.setValue(E, PV);
    if (StorageLocation *L = Env.getStorageLocation(E))
      Env.setValue(*L, PV);
  }

  /// Forgets what is known of the callable fields of the object at Obj (its
  /// bases' too, and its member subobjects', a few levels deep): something
  /// out of sight may have set or emptied them.
  void forgetFields(RecordStorageLocation &Obj, unsigned Depth = 0) {
    // children(), not getChild(): only the fields the function uses are
    // modelled.
    for (const auto &[D, L] : Obj.children()) {
      const auto *F = dyn_cast_or_null<FieldDecl>(D);
      if (!F || !L)
        continue;
      CallableKind K = C.Types.classify(F->getType());
      if (K == CallableKind::None) {
        if (auto *R = dyn_cast<RecordStorageLocation>(L);
            R && Depth < 2 && !F->getType()->isReferenceType())
          forgetFields(*R, Depth + 1);
        continue;
      }
      if (!isRecordKind(K))
        Env.setValue(*L, makePointer(F->getType(), unknownState()));
      else if (auto *R = dyn_cast<RecordStorageLocation>(L))
        setRecordState(*R, unknownState());
    }
  }

  /// Sets the state of whatever nullable callable E denotes.
  void setState(const Expr &E, Bools B) {
    CallableKind K = kindOf(E);
    if (K == CallableKind::None)
      return;
    if (!isRecordKind(K))
      return setPointerState(E, B);
    if (RecordStorageLocation *L = recordLocation(E, Env))
      setRecordState(*L, B);
  }

  /// The state of E, inventing an unknown one where the framework has none
  /// (e.g. a pointer parameter, whose value carries no properties yet).
  Bools currentState(const Expr &E) {
    CallableState S = stateOf(E, Env, C.Types);
    if (S.NonEmpty && S.Tracked)
      return {const_cast<BoolValue *>(S.NonEmpty),
              const_cast<BoolValue *>(S.Tracked)};
    return unknownState();
  }
  /// The state of E, read to be copied into another object, which then
  /// holds its atoms too: they outlive E's scope (TestedAtoms::noteCopied).
  Bools stateOrUnknown(const Expr &E) {
    Bools B = currentState(E);
    C.Atoms.noteCopied(B.NonEmpty->formula());
    C.Atoms.noteCopied(B.Tracked->formula());
    return B;
  }
  /// The boolean a test of E produces; a test holds no copy of E.
  BoolValue &guardOf(const Expr &E) { return guard(*currentState(E).NonEmpty); }
  /// Likewise for the callable field F of the object at Obj, given an
  /// unknown state first where it has none, so that later reads of the
  /// field see the atom the test made; null when F is not modelled there.
  BoolValue *guardOfField(RecordStorageLocation &Obj, const FieldDecl &F) {
    StorageLocation *L = nullptr;
    // children(), not getChild(): only the fields the function uses are
    // modelled.
    for (const auto &[D, Child] : Obj.children())
      if (D == &F)
        L = Child;
    if (!L)
      return nullptr;
    CallableState S = stateAt(*L, F.getType(), Env, C.Types);
    if (S.NonEmpty && S.Tracked)
      return &guard(*const_cast<BoolValue *>(S.NonEmpty));
    Bools B = unknownState();
    CallableKind K = C.Types.classify(F.getType());
    if (isRecordKind(K)) {
      auto *R = dyn_cast<RecordStorageLocation>(L);
      if (!R || !hasStateFields(*R))
        return nullptr;
      setRecordState(*R, B);
    } else {
      Env.setValue(*L, makePointer(F.getType(), B));
    }
    return &guard(*B.NonEmpty);
  }

  /// The state a nullable callable gets from being initialised or assigned
  /// from Src: empties, other nullable callables, and everything else (a
  /// lambda, a functor, a function), which is non-empty.
  Bools stateFromSource(const Expr &Src) {
    if (isEmptyValue(&Src, C.Ctx))
      return emptyState();
    if (isCallable(Src))
      return stateOrUnknown(Src);
    const Expr *S = stripNoise(&Src);
    if (S != &Src && isCallable(*S))
      return stateOrUnknown(*S);
    return nonEmptyState();
  }

  /// `std::move(x)` given to Op, or to a constructor or assignment that
  /// moves x: x may be empty after, unless its class's move leaves it as
  /// it was (a class of raw pointers with an implicit move).
  void markMovedFrom(const Expr *Arg, const CXXMethodDecl *Op = nullptr) {
    if (const Expr *Obj = movedFromObject(Arg))
      if (isCallable(*Obj) && !moveLeavesSource(Obj->getType(), Op))
        setState(*Obj, maybeEmptyState());
  }

  /// Arguments passed by non-const reference or pointer may be reassigned by
  /// the callee: forget what we knew.
  void invalidateArgs(const FunctionDecl *FD,
                      llvm::ArrayRef<const Expr *> Args) {
    if (!FD)
      return;
    for (unsigned I = 0; I < Args.size() && I < FD->getNumParams(); ++I)
      invalidateArg(*Args[I], FD->getParamDecl(I)->getType());
    // A lambda handed to the call may run in it, or later from where the
    // callee keeps it: what it writes through its reference captures is
    // unknown from here on (pistache's `Promise p([&](.., Rejection &r) {
    // rejecter = std::make_unique<Rejection>(std::move(r)); });`, which
    // runs the lambda in the constructor).
    for (const Expr *Arg : Args)
      if (const CXXRecordDecl *Closure = closurePassed(*Arg))
        invalidateCapturesWritten(*Closure);
    // Calling a lambda runs it here.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda() &&
        MD == MD->getParent()->getLambdaCallOperator())
      invalidateCapturesWritten(*MD->getParent());
  }

  /// The closure class of the lambda Arg passes: the lambda expression
  /// itself, a std::function made from it, or a local variable initialised
  /// with one (moved or not).
  static const CXXRecordDecl *closurePassed(const Expr &Arg) {
    const Expr *E = stripNoise(&Arg);
    for (int Hop = 0; E && Hop < 3; ++Hop) {
      if (const Expr *Moved = movedFromObject(E))
        E = stripNoise(Moved);
      if (const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl();
          RD && RD->isLambda())
        return RD;
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
          CE && CE->getNumArgs() >= 1)
        E = stripNoise(CE->getArg(0));
      else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        E = VD && VD->hasLocalStorage() && VD->getInit()
                ? stripNoise(VD->getInit())
                : nullptr;
      } else
        E = nullptr;
    }
    return nullptr;
  }

  /// Sets unknown each nullable callable that the lambda of class Closure
  /// captures by reference and whose body may change it.
  void invalidateCapturesWritten(const CXXRecordDecl &Closure) {
    const CXXMethodDecl *Op = Closure.getLambdaCallOperator();
    const Stmt *Body = Op ? Op->getBody() : nullptr;
    if (!Body)
      return;
    std::optional<ExprMutationAnalyzer> Writes;
    for (const LambdaCapture &Cap : Closure.captures()) {
      if (!Cap.capturesVariable() || Cap.getCaptureKind() != LCK_ByRef)
        continue;
      const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar());
      bool Callable = V && C.Types.classify(V->getType()) != CallableKind::None;
      // An object with callable fields, which the body may set or empty.
      bool Holder = V && !Callable && V->getType()->isRecordType();
      if (!Callable && !Holder)
        continue;
      if (!Writes)
        Writes.emplace(*Body, C.Ctx);
      if (!Writes->isMutated(V))
        continue;
      StorageLocation *L = Env.getStorageLocation(*V);
      if (!L)
        continue;
      if (auto *R = dyn_cast<RecordStorageLocation>(L); R && Holder)
        forgetFields(*R);
      else if (R)
        setRecordState(*R, unknownState());
      else if (!V->getType()->isReferenceType())
        Env.setValue(*L, makePointer(V->getType(), unknownState()));
    }
  }

  void invalidateArg(const Expr &Arg, QualType ParamTy) {
    if (ParamTy->isLValueReferenceType() &&
        !ParamTy->getPointeeType().isConstQualified()) {
      if (isCallable(Arg) && Arg.isGLValue())
        setState(Arg, unknownState());
      // An object with callable fields (`configure(hooks)`): the callee
      // may set or empty them.
      else if (Arg.isGLValue() && Arg.getType()->isRecordType())
        if (RecordStorageLocation *R = objectOf(Arg, Env))
          forgetFields(*R);
      return;
    }
    const auto *PT = ParamTy->getAs<PointerType>();
    if (!PT || PT->getPointeeType().isConstQualified())
      return;
    const auto *AddrOf = dyn_cast<UnaryOperator>(stripNoise(&Arg));
    if (AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
        isCallable(*AddrOf->getSubExpr()))
      setState(*AddrOf->getSubExpr(), unknownState());
    // `configure(&hooks)`, `configure(p)`: what the pointer points to.
    else if (PT->getPointeeType()->isRecordType() && !isCallable(Arg))
      if (RecordStorageLocation *R = objectOf(Arg, Env))
        forgetFields(*R);
  }

  TransferContext &C;
  Environment &Env;
};

//===----------------------------------------------------------------------===//
// Key presence in maps of callables: `operator[]` inserts an empty value for
// a missing key.
//===----------------------------------------------------------------------===//

class MapKeys {
public:
  explicit MapKeys(StateWriter &W) : W(W), C(W.C), Env(W.Env) {}

  /// `m[k]`, `m.find(k) == m.end()`; true when handled.
  bool transferOperator(const CXXOperatorCallExpr &OC) {
    if (transferFindComparison(OC))
      return true;
    const Expr *Map = callableMapSubscript(OC, C.Types);
    if (!Map)
      return false;
    // `m[k]` is empty exactly when the key was missing; then it is present.
    std::string K = presenceKey(*Map, *OC.getArg(1));
    BoolValue &Present = K.empty() ? W.fresh() : presence(K);
    if (!Env.getStorageLocation(OC))
      Env.setStorageLocation(OC, Env.createObject(OC.getType()));
    W.setState(OC, {&Present, &W.lit(true)});
    setPresence(K, true);
    return true;
  }

  /// count, contains, at, insertions, erase, clear. True when the call's own
  /// value is set here; otherwise it is modelled as any other call's.
  bool transferMember(const CXXMemberCallExpr &MC) {
    const Expr *Map = MC.getImplicitObjectArgument();
    const CXXMethodDecl *M = MC.getMethodDecl();
    if (!Map || !M || !isCallableMap(Map->getType(), C.Types))
      return false;
    std::string K =
        MC.getNumArgs() >= 1 ? presenceKey(*Map, *MC.getArg(0)) : "";
    switch (mapMemberOf(*M)) {
    case MapMember::Lookup:
      if (K.empty())
        return false;
      Env.setValue(MC, W.guard(presence(K)));
      return true;
    case MapMember::Present:
      setPresence(K, true);
      return false;
    case MapMember::Insert:
      if (const Expr *Key =
              MC.getNumArgs() == 1 ? insertedKey(MC.getArg(0)) : nullptr)
        setPresence(presenceKey(*Map, *Key), true);
      return false;
    case MapMember::Erase:
      setPresence(K, false);
      return false;
    case MapMember::Forget:
      forgetKeys(*Map);
      return false;
    default:
      return false;
    }
  }

  /// `m.count(k) > 0`, `!= 0`, `== 1`, `0 == m.count(k)`: the count's
  /// presence.
  bool transferCountComparison(const BinaryOperator &BO) {
    if (!BO.isComparisonOp())
      return false;
    BoolValue *B = countComparison(*BO.getLHS(), BO.getOpcode(), *BO.getRHS());
    if (B)
      Env.setValue(BO, *B);
    return B;
  }

  /// `L Op R` where one side is a count of a key (or `contains`) and the
  /// other an integer literal: the key's presence, or its negation. A map
  /// with `operator[]` has unique keys, so the count is 0 or 1. Null when
  /// the comparison is no such test.
  BoolValue *countComparison(const Expr &L, BinaryOperatorKind Op,
                             const Expr &R) {
    // `static_cast<int>(m.count(k))` is still 0 or 1.
    const Expr *CountE = stripCasts(&L), *LitE = stripCasts(&R);
    if (!isa<IntegerLiteral>(LitE)) {
      std::swap(CountE, LitE);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    const auto *Count = dyn_cast<CXXMemberCallExpr>(CountE);
    const auto *Lit = dyn_cast<IntegerLiteral>(LitE);
    auto *P = Count && Lit ? valueAs<BoolValue>(Env, *Count) : nullptr;
    if (!P)
      return nullptr;
    uint64_t V = Lit->getValue().getZExtValue();
    auto Holds = [&](uint64_t N) {
      switch (Op) {
      case BO_EQ:
        return N == V;
      case BO_NE:
        return N != V;
      case BO_LT:
        return N < V;
      case BO_GT:
        return N > V;
      case BO_LE:
        return N <= V;
      case BO_GE:
        return N >= V;
      default:
        return false;
      }
    };
    bool IfPresent = Holds(1), IfAbsent = Holds(0);
    if (IfPresent == IfAbsent)
      return nullptr; // `count(k) == 2`: no test of the key.
    return IfPresent ? P : &Env.makeNot(*P);
  }

private:
  std::string text(const Expr &E) {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E.getSourceRange()),
               C.Ctx.getSourceManager(), C.Ctx.getLangOpts())
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
    StorageLocation *&Loc = C.KeyPresence[K];
    if (!Loc)
      Loc = &Env.createStorageLocation(C.Ctx.BoolTy);
    if (auto *B = valueAs<BoolValue>(Env, *Loc))
      return *B;
    BoolValue &B = W.fresh();
    Env.setValue(*Loc, B);
    return B;
  }

  void setPresence(StringRef K, bool Present) {
    if (K.empty())
      return;
    presence(K);
    Env.setValue(*C.KeyPresence[K], W.lit(Present));
  }

  /// Every key of this map is unknown again.
  void forgetKeys(const Expr &Map) {
    std::string Prefix = text(*stripNoise(&Map)) + "[";
    for (auto &Entry : C.KeyPresence)
      if (StringRef(Entry.getKey()).starts_with(Prefix))
        Env.setValue(*Entry.getValue(), W.fresh());
  }

  /// The map member call E is (through a variable it initialises, or a copy
  /// of an iterator), when it is one of Kind.
  const CXXMemberCallExpr *mapCall(const Expr *E, MapMember Kind) {
    E = stripNoise(E);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->getInit())
        E = stripNoise(V->getInit());
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1)
      E = stripNoise(CE->getArg(0));
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
    if (!MC || !MC->getMethodDecl() ||
        mapMemberOf(*MC->getMethodDecl()) != Kind)
      return nullptr;
    const Expr *Map = MC->getImplicitObjectArgument();
    return Map && isCallableMap(Map->getType(), C.Types) ? MC : nullptr;
  }

  /// `m.find(k) == m.end()` and `!=`, with the find in either operand.
  bool transferFindComparison(const CXXOperatorCallExpr &OC) {
    if ((OC.getOperator() != OO_EqualEqual &&
         OC.getOperator() != OO_ExclaimEqual) ||
        OC.getNumArgs() != 2)
      return false;
    for (unsigned I = 0; I < 2; ++I) {
      const CXXMemberCallExpr *Find = mapCall(OC.getArg(I), MapMember::Find);
      const CXXMemberCallExpr *End = mapCall(OC.getArg(1 - I), MapMember::End);
      if (!Find || !End || Find->getNumArgs() != 1 ||
          text(*stripNoise(End->getImplicitObjectArgument())) !=
              text(*stripNoise(Find->getImplicitObjectArgument())))
        continue;
      std::string K =
          presenceKey(*Find->getImplicitObjectArgument(), *Find->getArg(0));
      if (K.empty())
        return false;
      BoolValue &P = W.guard(presence(K));
      Env.setValue(OC,
                   OC.getOperator() == OO_ExclaimEqual ? P : Env.makeNot(P));
      return true;
    }
    return false;
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
      return CE->getNumArgs() == 1 ? insertedKey(CE->getArg(0)) : nullptr;
    }
    const auto *Call = dyn_cast_or_null<CallExpr>(Arg);
    if (Call && isStdFunction(Call->getDirectCallee(), "make_pair") &&
        Call->getNumArgs() == 2)
      return Call->getArg(0);
    return nullptr;
  }

  StateWriter &W;
  TransferContext &C;
  Environment &Env;
};

//===----------------------------------------------------------------------===//
// OpenMP's copies of callables (OpenMPCopies.h): references in a region name
// the copy, which is made at the region's first statement on a path and
// ends at the directive, after the region.
//===----------------------------------------------------------------------===//

class PrivateCopies {
  using Copy = OpenMPCopies::Copy;
  using Region = OpenMPCopies::Region;

public:
  PrivateCopies(StateWriter &W, OpenMPObjects &O) : W(W), O(O), Env(W.Env) {}

  /// Before S: the copies of every region S is in exist on this path.
  void enter(const Stmt &S) {
    if (const Region *R = O.Copies.regionOf(S))
      make(*R);
  }

  void redirect(const DeclRefExpr &E) {
    if (const Copy *C = O.Copies.copyAt(E))
      Env.setStorageLocation(E, object(*C));
  }

  /// After D's region: lastprivate copies go back to their originals, and a
  /// region run again makes its copies anew.
  void leave(const OMPExecutableDirective &D) {
    const Region *R = O.Copies.regionOpenedBy(D);
    if (!R)
      return;
    for (const Copy &C : R->Copies) {
      if (C.CopiesBack && made(C))
        if (StorageLocation *Orig = original(C))
          write(*Orig, C, stateAt(object(C), C));
      Env.setValue(madeFlag(C), W.lit(false));
    }
  }

private:
  void make(const Region &R) {
    if (R.Outer)
      make(*R.Outer);
    for (const Copy &C : R.Copies) {
      if (made(C))
        continue;
      StorageLocation *Orig = C.FromOriginal ? original(C) : nullptr;
      write(object(C), C, Orig ? stateAt(*Orig, C) : startState(C));
      Env.setValue(madeFlag(C), W.lit(true));
    }
  }

  /// A default-initialised copy: an empty std::function, or a pointer
  /// that holds nothing yet (called as it is, it may be anything).
  Bools startState(const Copy &C) {
    if (C.FromOriginal)
      return W.unknownState(); // The original has no location here.
    return isRecordKind(kindOf(C)) ? W.emptyState() : W.maybeEmptyState();
  }

  bool made(const Copy &C) {
    auto *B = valueAs<BoolValue>(Env, madeFlag(C));
    return B && B->formula().kind() == Formula::Literal &&
           B->formula().literal();
  }

  StorageLocation *original(const Copy &C) {
    if (C.Outer)
      return &object(*C.Outer);
    return Env.getStorageLocation(*C.Var);
  }

  CallableKind kindOf(const Copy &C) {
    return W.C.Types.classify(C.Var->getType());
  }
  QualType typeOf(const Copy &C) {
    return C.Var->getType().getNonReferenceType();
  }

  Bools stateAt(StorageLocation &L, const Copy &C) {
    CallableState S;
    if (auto *R = dyn_cast<RecordStorageLocation>(&L))
      S = stateOfRecord(*R, Env);
    else if (auto *P = valueAs<PointerValue>(Env, L))
      S = stateOfPointer(*P);
    if (!S.NonEmpty || !S.Tracked)
      return W.unknownState();
    return {const_cast<BoolValue *>(S.NonEmpty),
            const_cast<BoolValue *>(S.Tracked)};
  }

  void write(StorageLocation &L, const Copy &C, Bools B) {
    if (auto *R = dyn_cast<RecordStorageLocation>(&L))
      return W.setRecordState(*R, B);
    if (!isRecordKind(kindOf(C)))
      Env.setValue(L, W.makePointer(typeOf(C), B));
  }

  OpenMPObjects::Locations &locations(const Copy &C) {
    OpenMPObjects::Locations &L = O.Locs[&C];
    if (!L.Object) {
      L.Object = &Env.createStorageLocation(typeOf(C));
      L.Made = &Env.createStorageLocation(W.C.Ctx.BoolTy);
    }
    return L;
  }
  StorageLocation &object(const Copy &C) { return *locations(C).Object; }
  StorageLocation &madeFlag(const Copy &C) { return *locations(C).Made; }

  StateWriter &W;
  OpenMPObjects &O;
  Environment &Env;
};

//===----------------------------------------------------------------------===//
// The dispatch: one case per node kind.
//===----------------------------------------------------------------------===//

class Transfer : public ConstStmtVisitor<Transfer> {
public:
  Transfer(TransferContext &C, Environment &Env)
      : W(C, Env), Maps(W), C(C), Env(Env) {}

  void VisitCXXConstructExpr(const CXXConstructExpr *CE);
  void VisitCXXOperatorCallExpr(const CXXOperatorCallExpr *OC);
  void VisitArraySubscriptExpr(const ArraySubscriptExpr *AS);
  void VisitCXXMemberCallExpr(const CXXMemberCallExpr *MC);
  void VisitCallExpr(const CallExpr *Call);
  void VisitBinaryOperator(const BinaryOperator *BO);
  void VisitUnaryOperator(const UnaryOperator *UO);
  void VisitCastExpr(const CastExpr *Cast);
  void VisitDeclStmt(const DeclStmt *DS);
  void VisitStmtExpr(const StmtExpr *SE);
  void VisitConditionalOperator(const ConditionalOperator *CO);
  void VisitCXXNewExpr(const CXXNewExpr *E) {
    W.setPointerState(*E, W.nonEmptyState());
  }
  void VisitInitListExpr(const InitListExpr *E) {
    if (E->getNumInits() == 0)
      valueInit(*E);
  }
  void VisitImplicitValueInitExpr(const ImplicitValueInitExpr *E) {
    valueInit(*E);
  }
  void VisitCXXScalarValueInitExpr(const CXXScalarValueInitExpr *E) {
    valueInit(*E);
  }

private:
  void copyOrMoveConstruct(const CXXConstructExpr &CE,
                           RecordStorageLocation &L);
  bool assign(const CXXOperatorCallExpr &OC);
  void assignUnseenRecord(const CXXOperatorCallExpr &OC);
  BoolValue *nullTest(bool IsEq, const Expr &L, const Expr &R);
  const Expr *comparedCallable(const Expr &L, const Expr &R,
                               llvm::function_ref<bool(const Expr &)> Other);
  bool nullComparison(bool IsEq, const Expr *L, const Expr *R, const Expr &Cmp);
  bool functionComparison(bool IsEq, const Expr *L, const Expr *R,
                          const Expr &Cmp);
  bool member(const CXXMemberCallExpr &MC, const Expr &Obj, Member M);
  void provedByDereference(const Expr &Obj);
  bool unlistedMember(const CXXMemberCallExpr &MC, const Expr &Obj);
  void applyMethodEffect(RecordStorageLocation &Obj,
                         llvm::ArrayRef<const Expr *> Args,
                         const MethodEffect &Effect);
  Bools defaultArgumentState(const Expr &Default);
  bool referenceGetter(const CallExpr &Call, const FunctionDecl &FD);
  bool memberGetter(const CallExpr &Call, const FunctionDecl &FD);
  bool fieldTest(const CXXMemberCallExpr &MC);
  std::optional<std::vector<const void *>> pureKey(const CallExpr &Call,
                                                   const FunctionDecl &FD);
  bool pureCall(const CallExpr &Call, const FunctionDecl &FD);
  bool pureObject(const CallExpr &Call, const FunctionDecl &FD);
  bool containerElement(const CXXOperatorCallExpr &OC);
  bool smartPointee(const Expr &Access, const Expr &Accessed);
  bool ownPointerAccess(const CXXMethodDecl *Method, const Expr &Ptr);
  void forgetElements(const Expr &Changed);
  void newPointee(const StorageLocation &L);
  bool element(const Expr &Access, StorageLocation *Container,
               const Expr &Index);
  void freshScalar(const Expr &LHS);
  /// Whether E is a call of a run-time symbol loader (isLoader).
  bool loadedSymbol(const Expr &E);
  /// Whether E, a loader's call, is tested through `dlerror()`.
  bool loadTested(const Expr &E);
  void assignPointer(const BinaryOperator &BO);
  BoolValue *compared(const Expr &L, BinaryOperatorKind Op, const Expr &R);
  BoolValue *comparisonHelperResult(const Expr *Pointer);
  BoolValue *comparisonHelperTest(const Expr &Tested,
                                  const CXXConversionDecl *Conv);
  void unfoldIntegerComparison(const BinaryOperator &BO);
  void pointerCast(const CastExpr &Cast, Bools B);
  void readPointer(const CastExpr &Cast);
  void propagatePointer(const CastExpr &Cast);
  void propagateBool(const CastExpr &Cast);
  /// `WrapFnPtr f{};`, `return {};` for a pointer: null.
  void valueInit(const Expr &E) {
    CallableKind K = W.kindOf(E);
    if (K != CallableKind::None && !isRecordKind(K))
      W.setPointerState(E, W.emptyState());
  }

  StateWriter W;
  MapKeys Maps;
  TransferContext &C;
  Environment &Env;
};

void Transfer::VisitCXXConstructExpr(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (!Ctor)
    return;
  W.invalidateArgs(Ctor, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
  CallableKind K = W.kindOf(*CE);
  if (!isRecordKind(K)) {
    // An object with callable fields: what its constructor's body leaves
    // in them, read at the constructor's exit (ExitEffects.h).
    if (CE->getType()->isRecordType())
      if (const MethodEffect *Effect = C.Oracle.constructorEffect(*Ctor))
        applyMethodEffect(Env.getResultObjectLocation(*CE),
                          llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
                          *Effect);
    return;
  }
  RecordStorageLocation &L = Env.getResultObjectLocation(*CE);
  if (llvm::all_of(CE->arguments(),
                   [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); })) {
    // The standard's nullable types are empty when default-constructed; any
    // other class is what its constructor leaves (a LibTorch module holder
    // constructs its module).
    if (Ctor->getParent()->isInStdNamespace())
      return W.setRecordState(L, W.emptyState());
    return W.setRecordState(L,
                            W.fromEmptiness(C.Oracle.afterConstruction(*CE)));
  }
  if (Ctor->isCopyOrMoveConstructor())
    return copyOrMoveConstruct(*CE, L);
  const Expr *Arg0 = CE->getArg(0);
  // In-place construction of an optional's value, e.g. optional<F>(in_place).
  if (K == CallableKind::Optional && !isNullLiteral(Arg0, C.Ctx) &&
      W.kindOf(*Arg0) != CallableKind::Optional)
    return W.setRecordState(L, W.nonEmptyState());
  W.setRecordState(L, W.stateFromSource(*Arg0));
  if (Ctor->getNumParams() > 0 &&
      Ctor->getParamDecl(0)->getType()->isRValueReferenceType())
    W.markMovedFrom(Arg0);
}

void Transfer::copyOrMoveConstruct(const CXXConstructExpr &CE,
                                   RecordStorageLocation &L) {
  const Expr *Arg0 = CE.getArg(0);
  // The framework copies the record, synthetic fields included; make sure a
  // source without state does not leave stale state behind.
  if (!stateOfRecord(L, Env).NonEmpty)
    W.setRecordState(L, W.stateOrUnknown(*Arg0));
  if (CE.getConstructor()->isMoveConstructor())
    W.markMovedFrom(Arg0, CE.getConstructor());
}

/// Whether M is the non-const half of an accessor pair: it returns `T &`,
/// and its class declares a const method of the same name and parameters
/// that returns `const T &` (`NodeConfig &config();` beside `const
/// NodeConfig &config() const;`). Such a pair hands out one member; the
/// non-const half exists to let callers write through the reference, not to
/// change the object's other members.
static bool accessorPairHalf(const CXXMethodDecl &M) {
  QualType Ret = M.getReturnType();
  if (M.isConst() || !M.getIdentifier() || !Ret->isLValueReferenceType() ||
      Ret->getPointeeType().isConstQualified())
    return false;
  for (const NamedDecl *D : M.getParent()->lookup(M.getDeclName())) {
    const auto *Twin = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl());
    if (!Twin || Twin == &M || !Twin->isConst() ||
        Twin->getNumParams() != M.getNumParams())
      continue;
    QualType TwinRet = Twin->getReturnType();
    if (!TwinRet->isLValueReferenceType() ||
        !TwinRet->getPointeeType().isConstQualified() ||
        !M.getASTContext().hasSameUnqualifiedType(TwinRet->getPointeeType(),
                                                  Ret->getPointeeType()))
      continue;
    bool SameParams = true;
    for (unsigned I = 0; I < M.getNumParams(); ++I)
      SameParams &= M.getASTContext().hasSameType(
          M.getParamDecl(I)->getType(), Twin->getParamDecl(I)->getType());
    if (SameParams)
      return true;
  }
  return false;
}

/// std::vector, std::deque and std::array: `v[i]` is the same element for
/// the same container and index until the container changes.
static bool isStdSequence(QualType T) {
  StringRef N = stdRecordName(T);
  return N == "vector" || N == "deque" || N == "array";
}

/// `if (v[i].f) v[i].f(x);`: both subscripts denote one element, so the
/// test guards the call.
bool Transfer::containerElement(const CXXOperatorCallExpr &OC) {
  if (OC.getOperator() != OO_Subscript || OC.getNumArgs() != 2 ||
      !OC.isGLValue() || !isStdSequence(OC.getArg(0)->getType()))
    return false;
  return element(OC, Env.getStorageLocation(*OC.getArg(0)), *OC.getArg(1));
}

/// `a[i]` of a built-in array or of a pointer that the function reads from
/// a variable or a field (`_handlers[i]`): one element per array and index
/// value, as for a standard sequence, so that `if (!a[i].f) continue;
/// a[i].f(x);` is guarded. The array is the variable or field holding it;
/// assigning it, or passing it where the elements may be written, forgets
/// its elements (forgetElements).
void Transfer::VisitArraySubscriptExpr(const ArraySubscriptExpr *AS) {
  const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
  if (!isa<DeclRefExpr, MemberExpr>(Base) ||
      !(Base->getType()->isPointerType() || Base->getType()->isArrayType()))
    return;
  element(*AS, Env.getStorageLocation(*Base), *AS->getIdx());
}

/// Gives Access, an element of Container at Index, the element's one
/// location.
bool Transfer::element(const Expr &Access, StorageLocation *Container,
                       const Expr &Index) {
  const void *IndexId = Env.getValue(Index);
  if (!IndexId)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Index.IgnoreParenImpCasts()))
      IndexId = Env.getStorageLocation(*DRE);
  if (!Container || !IndexId || !Access.isGLValue())
    return false;
  QualType T = Access.getType().getNonReferenceType();
  StorageLocation *&Loc = C.Elements[{Container, IndexId}];
  if (!Loc)
    Loc = &Env.createStorageLocation(T);
  Env.setStorageLocation(Access, *Loc);
  if (W.isCallable(Access) && !stateOf(Access, Env, C.Types).NonEmpty)
    W.setState(Access, W.unknownState());
  return true;
}

static bool isStdSmartPointer(QualType T) {
  StringRef N = stdRecordName(T);
  return N == "shared_ptr" || N == "unique_ptr";
}

/// Whether Method, called on Ptr, is the pointer accessor of a smart pointer
/// of the project's own. The standard library's classes are modelled by
/// what they are (an iterator's `operator*` is no smart pointer's), and
/// those of other system headers are not the project's.
bool Transfer::ownPointerAccess(const CXXMethodDecl *Method, const Expr &Ptr) {
  const CXXRecordDecl *RD = Ptr.getType()->getAsCXXRecordDecl();
  return Method && RD && !RD->isInStdNamespace() &&
         !C.Ctx.getSourceManager().isInSystemHeader(RD->getLocation()) &&
         C.Oracle.isPointerAccessor(*Method);
}

/// `if (p && p->f) p->f(x);` with `p` a std::shared_ptr or unique_ptr:
/// each `p->`, `*p` and `p.get()` is a call the framework gives a new
/// object, so the test would guard nothing. While nothing changes `p` (an
/// assignment, `reset`, `swap`: forgetElements), they denote one object,
/// whose fields hold what they hold where the function first reads them.
/// Which object is the environment's to say (PointeeSlots), so that it
/// follows the paths: a change after the call in the code, or on one branch
/// only, is seen where it happens.
bool Transfer::smartPointee(const Expr &Access, const Expr &Accessed) {
  // libstdc++ declares the operators in a base (`__shared_ptr_access`).
  const Expr &Ptr = *Accessed.IgnoreImpCasts();
  // A smart pointer of the project's own: an accessor that returns its
  // pointer member (`optional_ptr<T>::operator->`).
  const auto *Call = dyn_cast<CallExpr>(&Access);
  const auto *Method =
      Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  if ((!isStdSmartPointer(Ptr.getType()) && !ownPointerAccess(Method, Ptr)) ||
      W.isCallable(Ptr) || W.isCallable(Access))
    return false;
  QualType Pointee;
  if (Access.isPRValue() && Access.getType()->isPointerType())
    Pointee = Access.getType()->getPointeeType();
  else if (Access.isGLValue())
    Pointee = Access.getType();
  if (Pointee.isNull() || !Pointee->isRecordType() ||
      Pointee->isIncompleteType())
    return false;
  StorageLocation *Owner = Env.getStorageLocation(Ptr);
  if (!Owner)
    return false;
  QualType Type = Pointee.getUnqualifiedType();
  StorageLocation *&Slot = C.PointeeSlots[Owner];
  if (!Slot)
    Slot = &Env.createStorageLocation(C.Ctx.getPointerType(Type));
  StorageLocation *Loc = nullptr;
  if (const auto *PV = dyn_cast_or_null<PointerValue>(Env.getValue(*Slot));
      PV && PV->getPointeeLoc().getType().getCanonicalType() ==
                Type.getCanonicalType())
    Loc = &PV->getPointeeLoc();
  if (!Loc) {
    // No object on this path yet: the pointer has not changed since the
    // function began (a change gives the slot one, see forgetElements), so
    // it points where it pointed then, on every such path.
    StorageLocation *&First = C.FirstPointees[Owner];
    if (!First ||
        First->getType().getCanonicalType() != Type.getCanonicalType())
      First = &Env.createObject(Type);
    else if (auto *Record = dyn_cast<RecordStorageLocation>(First))
      Env.initializeFieldsWithValues(*Record);
    Loc = First;
    Env.setValue(*Slot, Env.create<PointerValue>(*Loc));
  } else if (auto *Record = dyn_cast<RecordStorageLocation>(Loc)) {
    // An object reached on one path only (`if (f) { t = f; --t->n; }`), or
    // made by a join, lost its fields' values there: give them values once,
    // so that a test and the call after it read the same ones.
    Env.initializeFieldsWithValues(*Record);
  }
  if (Access.isPRValue())
    Env.setValue(Access, Env.create<PointerValue>(*Loc));
  else
    Env.setStorageLocation(Access, *Loc);
  return true;
}

/// A container that may change (a non-const method, an assignment) holds
/// other elements afterwards; a smart pointer, another object.
/// A smart pointer at L denotes another object from here on, which no
/// other path shares.
void Transfer::newPointee(const StorageLocation &L) {
  StorageLocation *Slot = C.PointeeSlots.lookup(&L);
  if (!Slot)
    return;
  QualType Type = Slot->getType()->getPointeeType();
  if (!Type.isNull() && Type->isRecordType())
    Env.setValue(*Slot, Env.create<PointerValue>(Env.createObject(Type)));
  else
    Env.clearValue(*Slot);
}

void Transfer::forgetElements(const Expr &Changed) {
  const Expr &Container = *Changed.IgnoreImpCasts();
  // Any record: a smart pointer of the project's own too.
  if (!Container.getType()->isRecordType() &&
      !Container.getType()->isPointerType() &&
      !Container.getType()->isArrayType())
    return;
  const StorageLocation *L = Env.getStorageLocation(Container);
  if (!L)
    return;
  newPointee(*L);
  for (auto It = C.Elements.begin(); It != C.Elements.end();)
    It = It->first.first == L ? C.Elements.erase(It) : std::next(It);
}

void Transfer::VisitCXXOperatorCallExpr(const CXXOperatorCallExpr *OC) {
  if (Maps.transferOperator(*OC))
    return;
  if (containerElement(*OC))
    return;
  if ((OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star) &&
      OC->getNumArgs() == 1 && smartPointee(*OC, *OC->getArg(0)))
    return;
  if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    forgetElements(*OC->getArg(0));
  switch (OC->getOperator()) {
  case OO_Equal:
    if (assign(*OC))
      return;
    assignUnseenRecord(*OC);
    break;
  case OO_EqualEqual:
  case OO_ExclaimEqual:
    if (OC->getNumArgs() == 2 &&
        nullComparison(OC->getOperator() == OO_EqualEqual, OC->getArg(0),
                       OC->getArg(1), *OC))
      return;
    break;
  default:
    break;
  }
  VisitCallExpr(OC);
}

bool Transfer::assign(const CXXOperatorCallExpr &OC) {
  if (OC.getNumArgs() != 2 || !isRecordKind(W.kindOf(*OC.getArg(0))))
    return false;
  const Expr *RHS = OC.getArg(1);
  RecordStorageLocation *L = recordLocation(*OC.getArg(0), Env);
  if (!L)
    return true;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(OC.getDirectCallee());
  if (Method && (Method->isCopyAssignmentOperator() ||
                 Method->isMoveAssignmentOperator())) {
    // The framework has copied the fields; a source without state would
    // otherwise leave the old state in place.
    W.setRecordState(*L, W.stateOrUnknown(*RHS));
    if (Method->isMoveAssignmentOperator())
      W.markMovedFrom(RHS, Method);
  } else {
    W.setRecordState(*L, W.stateFromSource(*RHS));
    W.markMovedFrom(RHS);
  }
  // The assignment expression denotes the assigned object.
  Env.setStorageLocation(OC, *L);
  return true;
}

/// `u = queue.front();` for a struct with callable fields: the framework
/// copies the source's fields, but a source it has no object for (a
/// reference from an unmodelled call, a library container's element) copies
/// nothing, and the destination would keep its old fields (`UserCode u =
/// {nullptr, nullptr};` stayed "always empty"). Its callable fields, nested
/// structs' too, are then unknown.
void Transfer::assignUnseenRecord(const CXXOperatorCallExpr &OC) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(OC.getDirectCallee());
  if (OC.getNumArgs() != 2 || !Method ||
      !(Method->isCopyAssignmentOperator() ||
        Method->isMoveAssignmentOperator()) ||
      Env.getStorageLocation(*OC.getArg(1)))
    return;
  RecordStorageLocation *L = recordLocation(*OC.getArg(0), Env);
  if (!L)
    return;
  std::function<void(RecordStorageLocation &, unsigned)> Forget =
      [&](RecordStorageLocation &R, unsigned Depth) {
        for (const auto &[Field, Loc] : R.children()) {
          if (!Field || !Loc)
            continue;
          QualType T = Field->getType();
          CallableKind K = C.Types.classify(T);
          auto *Rec = dyn_cast<RecordStorageLocation>(Loc);
          if (K != CallableKind::None && !isRecordKind(K) &&
              !T->isReferenceType())
            Env.setValue(*Loc, W.makePointer(T, W.unknownState()));
          else if (K != CallableKind::None && Rec)
            W.setRecordState(*Rec, W.unknownState());
          else if (Rec && Depth < 3)
            Forget(*Rec, Depth + 1);
        }
      };
  Forget(*L, 0);
}

/// `x == nullptr`, `nullptr != x`, `o == std::nullopt`, ...: the truth of
/// the test of a nullable callable against null; null when it is no such
/// test.
BoolValue *Transfer::nullTest(bool IsEq, const Expr &L, const Expr &R) {
  const Expr *Subject = comparedCallable(
      L, R, [&](const Expr &Other) { return isNullLiteral(&Other, C.Ctx); });
  if (!Subject)
    return nullptr;
  BoolValue &NonEmpty = W.guardOf(*Subject);
  return IsEq ? &Env.makeNot(NonEmpty) : &NonEmpty;
}

/// The operand of `L == R` (or `!=`) that is a nullable callable where the
/// other one is what Other accepts (null, a function's address); null when
/// neither is. A pointer bound to a reference parameter (a check macro's
/// helper) is not read, so it may have no state yet; it gets the one a read
/// would.
const Expr *
Transfer::comparedCallable(const Expr &L, const Expr &R,
                           llvm::function_ref<bool(const Expr &)> Other) {
  const Expr *Subject = nullptr;
  if (Other(R) && W.isCallable(L))
    Subject = &L;
  else if (Other(L) && W.isCallable(R))
    Subject = &R;
  if (Subject && Subject->isGLValue() &&
      !stateOf(*Subject, Env, C.Types).NonEmpty &&
      !isRecordKind(W.kindOf(*Subject)))
    W.setPointerState(*Subject, W.unknownState());
  return Subject;
}

bool Transfer::nullComparison(bool IsEq, const Expr *L, const Expr *R,
                              const Expr &Cmp) {
  BoolValue *B = nullTest(IsEq, *L, *R);
  if (B)
    Env.setValue(Cmp, *B);
  return B;
}

/// Whether E is the address of a function (`kf_undo`, `&kf_undo`): never
/// null.
static bool isFunctionAddress(const Expr &E) {
  const Expr *Inner = stripNoise(&E);
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inner);
      UO && UO->getOpcode() == UO_AddrOf)
    Inner = stripNoise(UO->getSubExpr());
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Inner);
  return DRE && isa<FunctionDecl>(DRE->getDecl());
}

/// `f == kf_undo`, with kf_undo a function: where it holds, f is that
/// function, so not null (fltk's `Fl_Text_Editor::handle_key`, `if (f ==
/// kf_undo || f == kf_redo) { if (!f(key, this)) .. }`). Where it fails,
/// f may be anything.
bool Transfer::functionComparison(bool IsEq, const Expr *L, const Expr *R,
                                  const Expr &Cmp) {
  const Expr *Subject = comparedCallable(*L, *R, isFunctionAddress);
  if (!Subject || isRecordKind(W.kindOf(*Subject)))
    return false;
  BoolValue &NonEmpty = W.guardOf(*Subject);
  BoolValue &Same = Env.makeAtomicBoolValue();
  Env.assume(Env.arena().makeImplies(Same.formula(), NonEmpty.formula()));
  Env.setValue(Cmp, IsEq ? Same : Env.makeNot(Same));
  return true;
}

void Transfer::VisitCXXMemberCallExpr(const CXXMemberCallExpr *MC) {
  if (Maps.transferMember(*MC))
    return;
  if (const auto *Conv =
          dyn_cast_or_null<CXXConversionDecl>(MC->getMethodDecl()))
    if (const Expr *Obj = MC->getImplicitObjectArgument())
      if (BoolValue *B = comparisonHelperTest(*Obj, Conv))
        return Env.setValue(*MC, *B);
  if (fieldTest(*MC))
    return;
  if (const CXXMethodDecl *M = MC->getMethodDecl();
      M && M->getIdentifier() && M->getName() == "get" &&
      MC->getNumArgs() == 0 && MC->getImplicitObjectArgument() &&
      smartPointee(*MC, *MC->getImplicitObjectArgument()))
    return;
  if (const CXXMethodDecl *M = MC->getMethodDecl(); M && !M->isConst())
    if (const Expr *Obj = MC->getImplicitObjectArgument())
      forgetElements(*Obj);
  const Expr *Obj = MC->getImplicitObjectArgument();
  const CXXMethodDecl *Method = MC->getMethodDecl();
  // Smart pointers declare operator bool, get() and reset() in a base.
  if (Obj && !W.isCallable(*Obj))
    Obj = stripNoise(Obj);
  if (Obj && Method && W.isCallable(*Obj) &&
      member(*MC, *Obj, memberOf(*Method)))
    return;
  VisitCallExpr(MC);
  const Expr *Object = MC->getImplicitObjectArgument();
  RecordStorageLocation *Loc =
      Method && Object ? objectOf(*Object, Env) : nullptr;
  if (!Loc)
    return;
  // A getter (one statement that returns a member) writes nothing; its
  // flow summary may still count the member's first read as a change.
  if (!C.Oracle.fieldReturned(*Method).empty())
    return;
  if (const MethodEffect *Effect = C.Oracle.methodEffect(*Method))
    applyMethodEffect(*Loc, llvm::ArrayRef(MC->getArgs(), MC->getNumArgs()),
                      *Effect);
  // A method whose effect is not known (no definition here, virtual, over
  // budget) may set or empty the fields of its object, unless it is const
  // or the non-const half of an accessor pair.
  else if (!Method->isConst() && !Method->isStatic() &&
           !accessorPairHalf(*Method))
    W.forgetFields(*Loc);
}

/// `if (pool->userPool()) pool->rawAlloc(n);` where the accessor's one
/// statement is `return rawAlloc;`: its result is the test of that field of
/// the object it is called on, so the call through the field is guarded.
/// Accessors of this shape (`hasCallback()`, `IsEmpty()`, `valid()`) are
/// how classes say whether a callable member is set.
bool Transfer::fieldTest(const CXXMemberCallExpr &MC) {
  const CXXMethodDecl *M = MC.getMethodDecl();
  std::optional<AccessorTest> Test =
      M ? C.Oracle.accessorTest(*M) : std::nullopt;
  if (!Test)
    return false;
  const llvm::SmallVector<const FieldDecl *, 4> &Fields = Test->Fields;
  bool Negated = Test->Negated;
  const Expr *Obj = MC.getImplicitObjectArgument();
  // A nullable callable's own `operator bool` (`llvm::function_ref`'s
  // `return callback;`) tests the callable itself: its state, not the
  // field behind it, is what its calls read. That is a question about the
  // object's class: a pointer to an object of a class that merely has a
  // call operator (`this` in the class's own methods) is no such callable.
  if (Fields.empty() || !Obj)
    return false;
  QualType ObjType = stripNoise(Obj)->getType();
  if (ObjType->isPointerType())
    ObjType = ObjType->getPointeeType();
  if (C.Types.classify(ObjType) != CallableKind::None)
    return false;
  RecordStorageLocation *Loc = objectOf(*Obj, Env);
  BoolValue *G = nullptr;
  for (const FieldDecl *F : Fields) {
    BoolValue *One = Loc ? W.guardOfField(*Loc, *F) : nullptr;
    if (!One)
      return false;
    G = G ? &Env.makeAnd(*G, *One) : One;
  }
  // A predicate that also checks other state: true only where the fields
  // are set, and false for reasons the analysis does not see.
  if (Test->Partial)
    G = &Env.makeAnd(*G, Env.makeAtomicBoolValue());
  Env.setValue(MC, Negated ? Env.makeNot(*G) : *G);
  return true;
}

/// `get()` where get returns a reference to a static: every call denotes
/// the same storage, so `if (get()) get()(x);` is guarded, and so is `if
/// (instance().cb) instance().cb(x);` for a static object with callable
/// fields. What the storage holds where the function first reads it is
/// unknown (anyone may write it through the reference).
bool Transfer::referenceGetter(const CallExpr &Call, const FunctionDecl &FD) {
  const VarDecl *V = C.Oracle.storageReturned(FD);
  if (!V)
    return false;
  StorageLocation *&Loc = C.Statics[V];
  if (!Loc) {
    Loc = Env.getStorageLocation(*V);
    if (!Loc)
      Loc = &Env.createStorageLocation(V->getType());
  }
  Env.setStorageLocation(Call, *Loc);
  if (W.isCallable(Call) && !stateOf(Call, Env, C.Types).NonEmpty)
    W.setState(Call, W.unknownState());
  return true;
}

/// `cfg.cb()` where cb returns a member of its object. By reference, the
/// call denotes that member of that object, so `if (cfg.cb()) cfg.cb()(x);`
/// is guarded as `if (cfg.m_cb) cfg.m_cb(x);` is (cpprestsdk's
/// `get_ssl_context_callback()`). By value, it gives a copy of what the
/// member holds there: the same atoms, so that `if (rec->func() !=
/// nullptr) rec->func()(x);` is guarded too where nothing in between
/// writes the member (amrex's `DeriveRec::derFuncFab()`).
bool Transfer::memberGetter(const CallExpr &Call, const FunctionDecl &FD) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  FieldPath Path = MC && MD ? C.Oracle.fieldReturned(*MD) : FieldPath();
  const Expr *Obj = !Path.empty() ? MC->getImplicitObjectArgument() : nullptr;
  RecordStorageLocation *Loc = Obj ? objectOf(*Obj, Env) : nullptr;
  for (unsigned I = 0; Loc && I + 1 < Path.size(); ++I)
    Loc =
        dyn_cast_or_null<RecordStorageLocation>(modelledChild(*Loc, *Path[I]));
  StorageLocation *L = Loc ? modelledChild(*Loc, *Path.back()) : nullptr;
  if (!L)
    return false;
  if (Call.isGLValue()) {
    Env.setStorageLocation(Call, *L);
    if (!stateOf(Call, Env, C.Types).NonEmpty)
      W.setState(Call, W.unknownState());
    return true;
  }
  // The member gets its state first where it has none, so that every copy
  // shares it; the copies' atoms outlive this call (as any copy's do).
  QualType T = Path.back()->getType();
  CallableState S = stateAt(*L, T, Env, C.Types);
  if (!S.NonEmpty || !S.Tracked) {
    Bools Fresh = W.unknownState();
    if (auto *RL = dyn_cast<RecordStorageLocation>(L))
      W.setRecordState(*RL, Fresh);
    else
      Env.setValue(*L, W.makePointer(T, Fresh));
    S = stateAt(*L, T, Env, C.Types);
    if (!S.NonEmpty || !S.Tracked)
      return false;
  }
  Bools Copy{const_cast<BoolValue *>(S.NonEmpty),
             const_cast<BoolValue *>(S.Tracked)};
  C.Atoms.noteCopied(Copy.NonEmpty->formula());
  C.Atoms.noteCopied(Copy.Tracked->formula());
  W.setState(Call, Copy);
  return true;
}

/// The callee and its arguments' values (or storage), when FD is pure and
/// the environment tracks every argument: two calls with equal keys give
/// the same result.
std::optional<std::vector<const void *>>
Transfer::pureKey(const CallExpr &Call, const FunctionDecl &FD) {
  if (!C.Oracle.isPure(FD))
    return std::nullopt;
  std::vector<const void *> Key{FD.getCanonicalDecl()};
  for (const Expr *A : Call.arguments()) {
    const void *Id = nullptr;
    if (A->isGLValue())
      Id = Env.getStorageLocation(*A);
    else
      Id = Env.getValue(*A);
    // An argument the environment does not track could change unseen.
    if (!Id)
      return std::nullopt;
    Key.push_back(Id);
  }
  return Key;
}

/// `is_quantized(t->type)` twice with the same argument values: one boolean
/// for both, so the solver sees that the second test repeats the first.
bool Transfer::pureCall(const CallExpr &Call, const FunctionDecl &FD) {
  std::optional<std::vector<const void *>> Key = pureKey(Call, FD);
  if (!Key)
    return false;
  BoolValue *&B = C.PureResults[*Key];
  if (!B)
    B = &Env.makeAtomicBoolValue();
  Env.setValue(Call, *B);
  return true;
}

/// `traits(t)->from_float` twice with the same argument values, where
/// `traits` is pure (`return &table[t];` of a constant table): one object
/// for both, so `if (traits(t)->f) { auto q = traits(t)->f; q(x); }` is
/// guarded. What the object's fields hold where the function first reads
/// them is unknown.
bool Transfer::pureObject(const CallExpr &Call, const FunctionDecl &FD) {
  QualType T = Call.getType();
  // Of a complete type: an object of a declared-only class has no fields
  // to model (`const Opaque *handle(int)`).
  bool Pointer = Call.isPRValue() && T->isPointerType() &&
                 T->getPointeeType()->isRecordType() &&
                 !T->getPointeeType()->isIncompleteType();
  bool Reference =
      Call.isGLValue() && T->isRecordType() && !T->isIncompleteType();
  if ((!Pointer && !Reference) || W.isCallable(Call))
    return false;
  std::optional<std::vector<const void *>> Key = pureKey(Call, FD);
  if (!Key)
    return false;
  StorageLocation *&Loc = C.PureObjects[*Key];
  if (!Loc)
    Loc = &Env.createObject(Pointer ? T->getPointeeType() : T);
  if (Pointer)
    Env.setValue(Call, Env.create<PointerValue>(*Loc));
  else
    Env.setStorageLocation(Call, *Loc);
  return true;
}

bool Transfer::loadedSymbol(const Expr &E) {
  const auto *Call = dyn_cast<CallExpr>(E.IgnoreParenImpCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && C.Oracle.isLoader(*FD);
}

bool Transfer::loadTested(const Expr &E) {
  const auto *Call = dyn_cast<CallExpr>(E.IgnoreParenImpCasts());
  const FunctionDecl *Owner = Env.getCurrentFunc();
  return Call && Owner && C.Oracle.loadTested(*Call, *Owner);
}

/// The state of a default argument (`const Cb &cb = nullptr`, `= &log`),
/// which the analysis never evaluated: empty for an empty value, set for a
/// function or a lambda, unknown otherwise.
Bools Transfer::defaultArgumentState(const Expr &Default) {
  if (isEmptyValue(&Default, C.Ctx))
    return W.emptyState();
  const Expr *E = stripCasts(&Default);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = stripCasts(CE->getArg(0));
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = stripCasts(UO->getSubExpr());
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (isa_and_nonnull<LambdaExpr>(E) ||
      (DRE && isa<FunctionDecl>(DRE->getDecl())))
    return W.nonEmptyState();
  return W.unknownState();
}

/// What a method does to the callable fields of its object Obj (`*this`, a
/// variable, what a pointer or a smart pointer points to), given the call's
/// arguments, or what a constructor leaves in the object it builds:
/// `ws->set(cb)`, whose body copies its argument into the field, leaves the
/// field exactly as non-empty as `cb`; `reset_to_default()` sets it;
/// `Timer t(nullptr)` leaves `cb_` empty.
void Transfer::applyMethodEffect(RecordStorageLocation &Obj,
                                 llvm::ArrayRef<const Expr *> Args,
                                 const MethodEffect &Effect) {
  auto Write = [&](const FieldDecl &F, Bools B) {
    StorageLocation *L = modelledChild(Obj, F);
    if (!L)
      return;
    if (auto *RL = dyn_cast<RecordStorageLocation>(L))
      W.setRecordState(*RL, B);
    else
      Env.setValue(*L, W.makePointer(F.getType(), B));
  };
  for (const FieldDecl *F : Effect.Set)
    Write(*F, W.nonEmptyState());
  for (const FieldDecl *F : Effect.Emptied)
    Write(*F, W.emptyState());
  for (const FieldDecl *F : Effect.Changed)
    Write(*F, W.unknownState());
  for (const auto &[F, Index] : Effect.FromParameter) {
    if (Index >= Args.size())
      continue;
    const Expr *Arg = Args[Index];
    const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg);
    Write(*F, Default ? defaultArgumentState(*Default->getExpr())
                      : W.stateFromSource(*Arg));
  }
}

/// A test of the object a pointer to a callable class points to (`*p` in
/// `for (; *p; ++p) (*p)(x);`, a null-terminated list): p was dereferenced,
/// so it is not null afterwards, on both branches.
void Transfer::provedByDereference(const Expr &Obj) {
  const auto *UO = dyn_cast<UnaryOperator>(stripNoise(&Obj));
  if (!UO || UO->getOpcode() != UO_Deref)
    return;
  const Expr *P = stripNoise(UO->getSubExpr());
  if (P->isGLValue() && W.kindOf(*P) == CallableKind::RawPointer)
    W.setState(*P, W.nonEmptyState());
}

bool Transfer::member(const CXXMemberCallExpr &MC, const Expr &Obj, Member M) {
  bool IsSmartPointer = W.kindOf(Obj) == CallableKind::SmartPointer;
  switch (M) {
  case Member::BoolConversion:
  case Member::HasValue:
    provedByDereference(Obj);
    Env.setValue(MC, W.guardOf(Obj));
    return true;
  case Member::Reset:
    W.setState(Obj, MC.getNumArgs() == 0 || isEmptyValue(MC.getArg(0), C.Ctx)
                        ? W.emptyState()
                        : W.stateFromSource(*MC.getArg(0)));
    return true;
  case Member::Emplace:
    W.setState(Obj, W.nonEmptyState());
    return true;
  case Member::Get:
  case Member::Release:
    if (!IsSmartPointer)
      return unlistedMember(MC, Obj);
    Env.setValue(MC, W.makePointer(MC.getType(), W.stateOrUnknown(Obj)));
    if (M == Member::Release)
      W.setState(Obj, W.emptyState());
    return true;
  case Member::Swap: {
    if (MC.getNumArgs() != 1)
      return unlistedMember(MC, Obj);
    Bools Mine = W.stateOrUnknown(Obj),
          Theirs = W.stateOrUnknown(*MC.getArg(0));
    W.setState(Obj, Theirs);
    W.setState(*MC.getArg(0), Mine);
    return true;
  }
  case Member::Other:
    return unlistedMember(MC, Obj);
  }
  return false;
}

/// Any other non-const member may change the target (e.g. assign()).
bool Transfer::unlistedMember(const CXXMemberCallExpr &MC, const Expr &Obj) {
  const CXXMethodDecl *Method = MC.getMethodDecl();
  if (Method->isConst() || Method->isOverloadedOperator() ||
      isa<CXXConversionDecl>(Method) || MC.getType()->isReferenceType() ||
      W.isCallable(MC))
    return false;
  W.setState(Obj, W.unknownState());
  return true;
}

void Transfer::VisitCallExpr(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (FD && FD->getBuiltinID() == Builtin::BI__builtin_expect &&
      Call->getNumArgs() >= 1) {
    const Expr *Arg = Call->getArg(0);
    auto *B = valueAs<BoolValue>(Env, *stripNoise(Arg));
    if (B || (B = valueAs<BoolValue>(Env, *Arg)))
      Env.setValue(*Call, *B);
    return;
  }
  if (isStdFunction(FD, "move") || isStdFunction(FD, "forward"))
    return;
  if (FD && Call->isPRValue() && Call->getType()->isBooleanType() &&
      pureCall(*Call, *FD))
    return;
  if (FD && pureObject(*Call, *FD))
    return;
  // Operator calls pass the object as argument 0 where a method has no
  // parameter for it.
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(FD) &&
      !Args.empty())
    Args = Args.drop_front();
  // A container or smart pointer the callee may change (a non-const
  // reference, an address) holds other elements, or points to another
  // object, afterwards.
  for (unsigned I = 0; FD && I < Args.size() && I < FD->getNumParams(); ++I) {
    QualType P = FD->getParamDecl(I)->getType();
    const auto *AddrOf =
        dyn_cast<UnaryOperator>(Args[I]->IgnoreParenImpCasts());
    if (P->isReferenceType() && !P.getNonReferenceType().isConstQualified())
      forgetElements(*Args[I]);
    else if (AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      forgetElements(*AddrOf->getSubExpr());
    else if (const auto *PT = P->getAs<PointerType>();
             PT && !PT->getPointeeType().isConstQualified())
      forgetElements(*Args[I]); // An array the callee may write.
  }
  W.invalidateArgs(FD, Args);
  // `instance().m_cb`: the object a reference getter hands out is one
  // object for every call, so a test of its field guards a call of it.
  if (!W.isCallable(*Call)) {
    if (FD && Call->isGLValue() && Call->getType()->isRecordType())
      referenceGetter(*Call, *FD);
    return;
  }
  if (FD && Call->isGLValue() && referenceGetter(*Call, *FD))
    return;
  if (FD && memberGetter(*Call, *FD))
    return;
  Bools Result = W.fromEmptiness(C.Oracle.classifyCallResult(*Call));
  if (Call->isPRValue() && !Call->getType()->isRecordType())
    return Env.setValue(*Call, W.makePointer(Call->getType(), Result));
  // A reference to a record from an unmodelled call (e.g. a map lookup) has
  // no location yet; give it one so the state has somewhere to live.
  if (Call->isGLValue() && Call->getType()->isRecordType() &&
      !Env.getStorageLocation(*Call))
    Env.setStorageLocation(*Call, Env.createObject(Call->getType()));
  W.setState(*Call, Result);
}

void Transfer::VisitBinaryOperator(const BinaryOperator *BO) {
  if (Maps.transferCountComparison(*BO))
    return;
  if (BO->isCompoundAssignmentOp() ||
      (BO->getOpcode() == BO_Assign && !Env.getValue(*BO->getRHS())))
    freshScalar(*BO->getLHS());
  if (BO->isCompoundAssignmentOp())
    forgetElements(*BO->getLHS()); // `p += n`
  switch (BO->getOpcode()) {
  case BO_EQ:
  case BO_NE:
    if (!nullComparison(BO->getOpcode() == BO_EQ, BO->getLHS(), BO->getRHS(),
                        *BO) &&
        !functionComparison(BO->getOpcode() == BO_EQ, BO->getLHS(),
                            BO->getRHS(), *BO))
      unfoldIntegerComparison(*BO);
    return;
  case BO_Assign:
    if (BO->getLHS()->getType()->isPointerType())
      forgetElements(*BO->getLHS());
    return assignPointer(*BO);
  default:
    return;
  }
}

/// The truth of `L Op R` on this path, where the transfer models it: a key's
/// count against a literal, a nullable callable against null. Forwarders
/// around the operands (glog's GetReferenceableValue) are looked through.
BoolValue *Transfer::compared(const Expr &L, BinaryOperatorKind Op,
                              const Expr &R) {
  const Expr &A = forwardedValue(L), &B = forwardedValue(R);
  if (BoolValue *Count = Maps.countComparison(A, Op, B))
    return Count;
  if (Op != BO_EQ && Op != BO_NE)
    return nullptr;
  return nullTest(Op == BO_EQ, A, B);
}

/// Whether Pointer, a call of a comparison helper (ComparisonHelpers.h), is
/// not null on this path: whether its comparison fails (or holds, for a
/// helper that returns null when it fails). Null when unknown.
BoolValue *Transfer::comparisonHelperResult(const Expr *Pointer) {
  const auto *Call = dyn_cast_or_null<CallExpr>(stripNoise(Pointer));
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  std::optional<ComparisonResult> S = F ? comparisonHelper(*F) : std::nullopt;
  if (!S || S->LHS >= Call->getNumArgs() || S->RHS >= Call->getNumArgs())
    return nullptr;
  BoolValue *Holds =
      compared(*Call->getArg(S->LHS), S->Op, *Call->getArg(S->RHS));
  if (!Holds)
    return nullptr;
  return S->NullWhenTrue ? &Env.makeNot(*Holds) : Holds;
}

/// `while (std::string *r = Check_EQImpl(a, b, ..)) fatal(r);` and glog's
/// release form, where r is a CheckOpString whose `operator bool` tests the
/// pointer (Conv): the test of a variable that holds a comparison helper's
/// result is the negation of the comparison. The variable's initialiser is
/// evaluated in the same block as the test, so the operands' values are
/// still at hand; elsewhere this gives no value, and the test is an atom.
BoolValue *Transfer::comparisonHelperTest(const Expr &Tested,
                                          const CXXConversionDecl *Conv) {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripNoise(&Tested));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getInit())
    return nullptr;
  if (!Conv)
    return V->getType()->isPointerType() ? comparisonHelperResult(V->getInit())
                                         : nullptr;
  return comparisonHelperResult(wrappedPointer(*V, *Conv));
}

/// The framework folds a comparison of two unmodelled integers (enum
/// constants among them) to a literal, which makes one branch of
/// `if (k == Kind::A)` unreachable; integers are not ours to decide.
void Transfer::unfoldIntegerComparison(const BinaryOperator &BO) {
  QualType T = BO.getLHS()->getType();
  if (!T->isIntegralOrEnumerationType() || T->isBooleanType())
    return;
  if (auto *B = valueAs<BoolValue>(Env, BO);
      B && B->formula().kind() == Formula::Literal)
    Env.setValue(BO, Env.makeAtomicBoolValue());
}

void Transfer::assignPointer(const BinaryOperator &BO) {
  CallableKind K = W.kindOf(*BO.getLHS());
  if (K == CallableKind::None || isRecordKind(K))
    return;
  PointerValue &PV =
      W.makePointer(BO.getLHS()->getType(), W.stateFromSource(*BO.getRHS()));
  if (StorageLocation *L = Env.getStorageLocation(*BO.getLHS())) {
    Env.setValue(*L, PV);
    Env.setStorageLocation(BO, *L);
  }
}

/// A scalar written with a value the framework does not model (`x = 4`,
/// `x += n`, `++x`) keeps its old value there; give it a new one, so that
/// nothing that keys on values (pure calls) takes it for unchanged.
void Transfer::freshScalar(const Expr &LHS) {
  // Only keys of pure calls made so far can be misled; before the first one
  // (and in functions with none) values need not change, which keeps loops
  // converging as fast as before.
  if (C.PureResults.empty() && C.PureObjects.empty() && C.Elements.empty())
    return;
  QualType T = LHS.getType();
  if (!T->isScalarType() || W.isCallable(LHS))
    return;
  if (StorageLocation *L = Env.getStorageLocation(LHS))
    if (Value *V = Env.createValue(T))
      Env.setValue(*L, *V);
}

void Transfer::VisitUnaryOperator(const UnaryOperator *UO) {
  if (UO->isIncrementDecrementOp()) {
    freshScalar(*UO->getSubExpr());
    forgetElements(*UO->getSubExpr()); // `++p`: p[i] is another element.
  }
  // `&function`, `&Class::method`, `&functor`: never null.
  if (UO->getOpcode() == UO_AddrOf && W.isCallable(*UO))
    W.setPointerState(*UO, W.nonEmptyState());
  // `+[](void *p) { .. }`, the idiom that converts a lambda to a function
  // pointer: the pointer its operand is.
  if (UO->getOpcode() == UO_Plus && W.isCallable(*UO) && !Env.getValue(*UO))
    if (auto *PV = valueAs<PointerValue>(Env, *UO->getSubExpr()))
      Env.setValue(*UO, *PV);
}

void Transfer::VisitCastExpr(const CastExpr *Cast) {
  const Expr *Sub = Cast->getSubExpr();
  switch (Cast->getCastKind()) {
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    return pointerCast(*Cast, W.emptyState());
  case CK_FunctionToPointerDecay:
    return W.setPointerState(*Cast, W.nonEmptyState());
  case CK_PointerToBoolean:
  case CK_MemberPointerToBoolean:
    if (W.isCallable(*Sub))
      Env.setValue(*Cast, W.guardOf(*Sub));
    else if (BoolValue *B = comparisonHelperTest(*Sub, nullptr))
      Env.setValue(*Cast, *B);
    return;
  case CK_LValueToRValue:
    return readPointer(*Cast);
  case CK_BitCast:
    // `(init_fn)dlsym(h, "init")`: null when the symbol is missing.
    // Unless the code tests the load through `dlerror()` right after it
    // stores it (LoaderChecks.h).
    if (W.isCallable(*Cast) && loadedSymbol(*Sub))
      return pointerCast(*Cast, loadTested(*Sub) ? W.nonEmptyState()
                                                 : W.maybeEmptyState());
    [[fallthrough]];
  case CK_NoOp:
  case CK_BaseToDerived:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
    propagatePointer(*Cast);
    return propagateBool(*Cast);
  case CK_UserDefinedConversion:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_ConstructorConversion:
    return propagateBool(*Cast);
  default:
    return;
  }
}

/// `({ ...; e; })` has e's value, which the framework does not hand on: a
/// guard computed in a statement expression (`if (({ ok; }))`) was lost. A
/// record's result object is the framework's to propagate.
void Transfer::VisitStmtExpr(const StmtExpr *SE) {
  const CompoundStmt *Body = SE->getSubStmt();
  const auto *Last =
      Body->body_empty() ? nullptr : dyn_cast<Expr>(Body->body_back());
  if (!Last || !SE->isPRValue() || SE->getType()->isRecordType() ||
      Env.getValue(*SE))
    return;
  if (Value *V = Env.getValue(*Last))
    Env.setValue(*SE, *V);
}

/// `c ? 1 : 0` (or `c ? 0 : 1`) is c's truth value as an integer (or its
/// negation), which the framework leaves unmodelled. Many projects spell
/// `unlikely(x)` as `__builtin_expect((x) ? 1 : 0, 0)` (tensorpipe's
/// `TP_DCHECK` and `TP_THROW_ASSERT_IF`): without this, the test behind the
/// macro proved nothing, and the call it guards was a finding.
void Transfer::VisitConditionalOperator(const ConditionalOperator *CO) {
  if (!CO->isPRValue() ||
      !(CO->getType()->isIntegerType() || CO->getType()->isBooleanType()))
    return;
  Expr::EvalResult T, F;
  if (!CO->getTrueExpr()->EvaluateAsInt(T, C.Ctx) ||
      !CO->getFalseExpr()->EvaluateAsInt(F, C.Ctx))
    return;
  bool TrueArm = T.Val.getInt().getBoolValue();
  if (TrueArm == F.Val.getInt().getBoolValue())
    return;
  auto *B = valueAs<BoolValue>(Env, *CO->getCond());
  if (!B)
    B = valueAs<BoolValue>(Env, *stripNoise(CO->getCond()));
  if (B)
    Env.setValue(*CO, TrueArm ? *B : Env.makeNot(*B));
}

void Transfer::pointerCast(const CastExpr &Cast, Bools B) {
  if (W.isCallable(Cast))
    W.setPointerState(Cast, B);
}

/// `static const Fn *f = lookup(..);`: the framework leaves a function-local
/// static to be initialised elsewhere, as a global. It is initialised once,
/// with this value, so every later read sees it (or an assignment's).
void Transfer::VisitDeclStmt(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    // A smart pointer declared again (in a loop) points to a new object.
    if (V && V->getType()->isRecordType())
      if (const StorageLocation *L = Env.getStorageLocation(*V))
        newPointee(*L);
    if (!V || !V->isStaticLocal() || !V->getInit() ||
        !W.isCallable(*V->getInit()))
      continue;
    CallableKind K = C.Types.classify(V->getType());
    if (K == CallableKind::None || V->getType()->isReferenceType())
      continue;
    StorageLocation *L = Env.getStorageLocation(*V);
    if (!L) {
      L = &Env.createObject(V->getType());
      Env.setStorageLocation(*V, *L);
    }
    Bools B = W.stateFromSource(*V->getInit());
    if (auto *R = dyn_cast<RecordStorageLocation>(L))
      W.setRecordState(*R, B);
    else
      Env.setValue(*L, W.makePointer(V->getType(), B));
  }
}

/// Reading a pointer callable from its location. The framework gives
/// pointers it knows nothing of (a parameter, a field of a struct reached
/// through a pointer, `b->iface.fn`, a global) a value without our state, or
/// none (member pointers); such a pointer gets an unknown state, kept at its
/// location, so that a test of it guards the calls after it.
void Transfer::readPointer(const CastExpr &Cast) {
  CallableKind K = W.kindOf(Cast);
  if (K == CallableKind::None || isRecordKind(K))
    return;
  StorageLocation *L = Env.getStorageLocation(*Cast.getSubExpr());
  if (!L)
    return;
  auto *PV = valueAs<PointerValue>(Env, *L);
  if (!PV || !stateOfPointer(*PV).NonEmpty) {
    PV = &W.makePointer(Cast.getType(), W.unknownState());
    Env.setValue(*L, *PV);
  }
  Env.setValue(Cast, *PV);
}

/// A cast that keeps a pointer callable's value keeps its state.
/// The framework reads `*p` as an object of p's pointee location's type, so a
/// cast that changes the pointee type (`static_cast<Fn *>(void_ptr)`, a
/// base-to-derived cast) gets a pointer of its own, to an object of the new
/// type: handing on the operand's value made the framework copy a `void`
/// location as a record, and crash.
void Transfer::propagatePointer(const CastExpr &Cast) {
  CallableKind K = W.kindOf(Cast);
  if (!Cast.isPRValue() || K == CallableKind::None || isRecordKind(K) ||
      Env.getValue(Cast))
    return;
  auto *PV = valueAs<PointerValue>(Env, *Cast.getSubExpr());
  if (!PV)
    return;
  if (samePointee(PV->getPointeeLoc().getType(), Cast.getType()))
    return Env.setValue(Cast, *PV);
  Env.setValue(Cast, W.makePointer(Cast.getType(),
                                   W.stateOrUnknown(*Cast.getSubExpr())));
}

/// `static_cast<bool>(f)`, the integer casts around __builtin_expect in
/// TORCH_CHECK, and similar wrappers keep the test's truth value.
void Transfer::propagateBool(const CastExpr &Cast) {
  if (!Cast.isPRValue() ||
      !(Cast.getType()->isBooleanType() || Cast.getType()->isIntegerType()))
    return;
  auto *B = valueAs<BoolValue>(Env, *Cast.getSubExpr());
  if (!B)
    B = valueAs<BoolValue>(Env, *stripNoise(Cast.getSubExpr()));
  if (B)
    Env.setValue(Cast, *B);
}

} // namespace

void transferStatement(const Stmt &S, TransferContext &C, Environment &Env) {
  if (C.OpenMP) {
    StateWriter W(C, Env);
    PrivateCopies Copies(W, *C.OpenMP);
    Copies.enter(S);
    if (const auto *E = dyn_cast<DeclRefExpr>(&S))
      Copies.redirect(*E);
    else if (const auto *D = dyn_cast<OMPExecutableDirective>(&S))
      Copies.leave(*D);
  }
  if (isa<Expr, DeclStmt>(S))
    Transfer(C, Env).Visit(&S);
  // A truth value the framework does not model (an integer comparison, a
  // call returning bool) gets an atom of its own, so that a local keeping it
  // (`const bool resizable = (flags & k) != 0;`) is one condition at every
  // test of it: otherwise the local has no value, and each branch on it
  // makes a fresh atom, which forgets what an earlier branch on it proved.
  if (const auto *E = dyn_cast<Expr>(&S);
      E && E->isPRValue() && E->getType()->isBooleanType() && !Env.getValue(*E))
    Env.setValue(*E, Env.makeAtomicBoolValue());
}

} // namespace wrapguard
