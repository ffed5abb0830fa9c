//===- VouchingFlags.cpp - Flags set only where a callable is set ---------===//

#include "VouchingFlags.h"
#include "Guards.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace wrapguard {

/// A class whose objects hold flags by number: a const `bool test(..)`
/// method (std::bitset, a project's enum-indexed bitset).
static bool isBitsetLike(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  for (const NamedDecl *D : RD->lookup(&RD->getASTContext().Idents.get("test")))
    if (const auto *M = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl()))
      if (M->isConst() && M->getReturnType()->isBooleanType())
        return true;
  return false;
}

/// The member E names, if it is a flag member of any object: a `bool`
/// (Bits false) or a bitset-like one (Bits true).
static const FieldDecl *flagMember(const Expr *E, bool Bits) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(stripNoise(E));
  const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!F)
    return nullptr;
  QualType T = F->getType().getNonReferenceType();
  return (Bits ? isBitsetLike(T) : T->isBooleanType()) ? F : nullptr;
}

/// The bit that a constant argument names (an enumerator, a literal, a
/// cast of either), as text.
static std::optional<std::string> bitOf(const Expr *Arg, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!Arg || Arg->isValueDependent() || !Arg->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return llvm::toString(R.Val.getInt(), /*Radix=*/10);
}

/// A constant truth value, if V is one.
static std::optional<bool> constantTruth(const Expr *V, ASTContext &Ctx) {
  bool B = false;
  if (!V || V->isValueDependent() || !V->EvaluateAsBooleanCondition(B, Ctx))
    return std::nullopt;
  return B;
}

/// Fills in what setting the flag to V means for W: nothing when V is false,
/// a vouch by the tests around when true, the tested callable when V tests
/// one for non-emptiness, and none otherwise.
static std::optional<FlagWrite>
setTo(FlagWrite W, const Expr *V, const CallableTypes &Types, ASTContext &Ctx) {
  if (std::optional<bool> Truth = constantTruth(V, Ctx)) {
    if (!*Truth)
      return std::nullopt;
    return W;
  }
  std::vector<CallableTest> Tests =
      V ? callableTestsOf(*V, /*Holds=*/true, Types, Ctx)
        : std::vector<CallableTest>();
  if (Tests.size() == 1 && Tests.front().NonEmpty)
    W.Tested = Tests.front().Tested;
  else
    W.Unknown = true;
  return W;
}

/// Whether Init gives a bitset-like object no bit: `{}`, `()`, a copy of
/// the same member of another object.
static bool setsNoBit(const Expr *Init, const FieldDecl &F) {
  Init = stripCasts(Init); // `Bits{}` is a functional cast of a list.
  if (!Init)
    return true;
  // `{}`: every member value-initialised or left to its default.
  if (const auto *ILE = dyn_cast<InitListExpr>(Init))
    return llvm::all_of(ILE->inits(), [](const Expr *I) {
      return isa<ImplicitValueInitExpr, CXXDefaultInitExpr>(I);
    });
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init)) {
    if (CE->getNumArgs() == 0)
      return true;
    if (CE->getConstructor()->isCopyOrMoveConstructor())
      return setsNoBit(CE->getArg(0), F);
    return false;
  }
  // Another object's flags: the same invariant holds of them.
  return flagMember(Init, /*Bits=*/true) == &F;
}

std::optional<FlagWrite> flagWriteOf(const Expr &E, const CallableTypes &Types,
                                     ASTContext &Ctx) {
  // The collector asks this of every operator and member call in the TU:
  // the cheap tests of the operation come before the member's type.
  if (const auto *BO = dyn_cast<BinaryOperator>(&E)) {
    // `b |= x`, `b ^= x` may set it; `b &= x` only clears.
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op != BO_Assign && Op != BO_OrAssign && Op != BO_XorAssign)
      return std::nullopt;
    const FieldDecl *F = flagMember(BO->getLHS(), /*Bits=*/false);
    if (!F)
      return std::nullopt;
    if (Op == BO_Assign)
      return setTo(FlagWrite{F, "", nullptr, false}, BO->getRHS(), Types, Ctx);
    return FlagWrite{F, "", nullptr, true};
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(&E)) {
    OverloadedOperatorKind Op = OC->getOperator();
    if ((Op != OO_Equal && Op != OO_PipeEqual && Op != OO_CaretEqual) ||
        OC->getNumArgs() != 2)
      return std::nullopt;
    const FieldDecl *F = flagMember(OC->getArg(0), /*Bits=*/true);
    if (!F)
      return std::nullopt;
    // Any assignment or `|=`, `^=` of the whole may set any bit, but `{}` or
    // another object's same flags.
    if (Op == OO_Equal && setsNoBit(OC->getArg(1), *F))
      return std::nullopt;
    return FlagWrite{F, "*", nullptr, true};
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&E);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  if (!M || M->isConst() || isa<CXXConstructorDecl, CXXDestructorDecl>(M))
    return std::nullopt;
  const FieldDecl *F =
      flagMember(MC->getImplicitObjectArgument(), /*Bits=*/true);
  if (!F)
    return std::nullopt;
  StringRef Name = M->getIdentifier() ? M->getName() : "";
  // Clearing sets nothing.
  if (Name == "reset" || Name == "clear")
    return std::nullopt;
  std::optional<std::string> Bit =
      MC->getNumArgs() ? bitOf(MC->getArg(0), Ctx) : std::nullopt;
  FlagWrite W{F, Bit.value_or("*"), nullptr, false};
  if (Name == "set")
    // `set(K)`, `set(K, v)`, `set()` (every bit).
    return MC->getNumArgs() >= 2 ? setTo(W, MC->getArg(1), Types, Ctx) : W;
  // `flip(K)` and whatever else a project's bitset offers may set bits.
  W.Unknown = true;
  if (Name != "flip")
    W.Value = "*";
  return W;
}

std::optional<FlagWrite> flagInitOf(const FieldDecl &F, const Expr *Init,
                                    const CallableTypes &Types,
                                    ASTContext &Ctx) {
  if (!Init)
    return std::nullopt;
  QualType T = F.getType().getNonReferenceType();
  if (T->isBooleanType())
    return setTo(FlagWrite{&F, "", nullptr, false}, Init, Types, Ctx);
  if (isBitsetLike(T) && !setsNoBit(Init, F))
    return FlagWrite{&F, "*", nullptr, true};
  return std::nullopt;
}

/// The atom of the flag Leaf tests true, if it tests one.
static std::optional<std::string> flagTested(const Expr *Leaf,
                                             ASTContext &Ctx) {
  if (const FieldDecl *F = flagMember(Leaf, /*Bits=*/false))
    if (std::optional<std::string> Key = fieldKey(*F))
      return flagAtom(*Key, "");
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(stripNoise(Leaf));
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier() || M->getName() != "test" || !M->isConst() ||
      MC->getNumArgs() != 1)
    return std::nullopt;
  const FieldDecl *F = flagMember(MC->getImplicitObjectArgument(), true);
  std::optional<std::string> Bit = bitOf(MC->getArg(0), Ctx);
  std::optional<std::string> Key = F ? fieldKey(*F) : std::nullopt;
  if (!Bit || !Key)
    return std::nullopt;
  return flagAtom(*Key, *Bit);
}

static void flagsWhen(const Expr *Cond, bool Holds, ASTContext &Ctx,
                      std::vector<std::string> &Out) {
  Cond = stripNoise(Cond);
  if (!Cond)
    return;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot)
    return flagsWhen(UO->getSubExpr(), !Holds, Ctx, Out);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && ((BO->getOpcode() == BO_LAnd && Holds) ||
             (BO->getOpcode() == BO_LOr && !Holds))) {
    flagsWhen(BO->getLHS(), Holds, Ctx, Out);
    flagsWhen(BO->getRHS(), Holds, Ctx, Out);
    return;
  }
  if (Holds)
    if (std::optional<std::string> Atom = flagTested(Cond, Ctx))
      Out.push_back(std::move(*Atom));
}

std::vector<std::string> flagsTrueAt(const Stmt &S, ParentMap &PM,
                                     ASTContext &Ctx) {
  std::vector<std::string> Out;
  forEachConditionAt(S, PM, [&](const Expr &Cond, bool Holds) {
    flagsWhen(&Cond, Holds, Ctx, Out);
  });
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

} // namespace wrapguard
