//===- FixIts.cpp - Repairs for unchecked policy calls --------------------===//

#include "FixIts.h"
#include "CallableSyntax.h"
#include "StripNoise.h"
#include "Wording.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace wrapguard {

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R),
                              Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

std::string spelledText(SourceRange R, const ASTContext &Ctx) {
  std::string Plain = sourceText(R, Ctx);
  if (!Plain.empty() || R.isInvalid())
    return Plain;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = SM.getSpellingLoc(R.getBegin());
  SourceLocation E = SM.getSpellingLoc(R.getEnd());
  if (SM.getFileID(B) != SM.getFileID(E) || SM.isBeforeInTranslationUnit(E, B))
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(B, E), SM,
                              Ctx.getLangOpts())
      .str();
}

enum class Use {
  StatementInBlock, ///< `{ f(x); }`: `if (f) f(x);` can replace it.
  OtherStatement,   ///< e.g. an unbraced if or loop body: no safe edit.
  Value,
};

/// How the call's result is used. A bare statement inside `{...}` can take a
/// guarding `if` without changing what an `else` binds to; a statement in
/// any other place cannot.
static Use useOf(const CallExpr &Call, const Stmt &Body) {
  // A parent map of the enclosing body only: ASTContext::getParents would
  // index the whole TU, LibTorch's headers included, which cost seconds.
  ParentMap PM(const_cast<Stmt *>(&Body));
  const Stmt *Node = &Call;
  for (int Depth = 0; Depth < 6; ++Depth) {
    const Stmt *S = PM.getParent(Node);
    if (!S)
      return Use::Value;
    if (isa<CompoundStmt>(S))
      return Use::StatementInBlock;
    // Cleanups, temporaries and implicit conversions wrap a statement call.
    if (isa<ExprWithCleanups, ImplicitCastExpr, CXXBindTemporaryExpr,
            MaterializeTemporaryExpr>(S)) {
      Node = S;
      continue;
    }
    if (isa<Expr>(S) || isa<ReturnStmt>(S) || isa<DeclStmt>(S))
      return Use::Value;
    const Stmt *Child = Node;
    // Conditions are values; bodies (and a for-increment) are statements.
    if (const auto *If = dyn_cast<IfStmt>(S))
      return If->getCond() == Child ? Use::Value : Use::OtherStatement;
    if (const auto *W = dyn_cast<WhileStmt>(S))
      return W->getCond() == Child ? Use::Value : Use::OtherStatement;
    if (const auto *D = dyn_cast<DoStmt>(S))
      return D->getCond() == Child ? Use::Value : Use::OtherStatement;
    if (const auto *F = dyn_cast<ForStmt>(S))
      return F->getCond() == Child ? Use::Value : Use::OtherStatement;
    if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      return Sw->getCond() == Child ? Use::Value : Use::OtherStatement;
    return Use::OtherStatement;
  }
  return Use::Value;
}

static bool sameValueType(QualType A, QualType B, ASTContext &Ctx) {
  A = A.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  B = B.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  return Ctx.hasSameType(A, B);
}

static std::string joinArgs(llvm::ArrayRef<const Expr *> Args,
                            const ASTContext &Ctx, bool &Ok) {
  std::string Out;
  for (const Expr *A : Args) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    std::string T = sourceText(A->getSourceRange(), Ctx);
    if (T.empty()) {
      Ok = false;
      return "";
    }
    if (!Out.empty())
      Out += ", ";
    Out += T;
  }
  return Out;
}

/// How a fix tests the callable: `f`, or `f != nullptr` for a class that
/// compares with nullptr but does not convert to bool.
static std::string testOf(const CallSite &Site, StringRef Name) {
  const auto *RD =
      Site.Callable->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (Site.Kind != CallableKind::FunctionObject || !RD ||
      RD->isInStdNamespace() || !RD->hasDefinition())
    return Name.str();
  for (const NamedDecl *D :
       RD->getDefinition()->getVisibleConversionFunctions())
    if (const auto *Conv = dyn_cast_or_null<CXXConversionDecl>(
            D->getUnderlyingDecl()->getAsFunction()))
      if (Conv->getConversionType()->isBooleanType())
        return Name.str();
  return (Name + " != nullptr").str();
}

void addRepair(const CallSite &Site, StringRef Name, const Stmt &Body,
               ASTContext &Ctx, const AnalysisOptions &Opts, Finding &F) {
  if (Opts.Fix == FixMode::None)
    return;
  const CallExpr &Call = *Site.Call;
  auto AddNote = [&] { F.Notes.push_back({F.Loc, checkBeforeCallNote(Name)}); };
  std::string CallText = sourceText(Call.getSourceRange(), Ctx);
  if (CallText.empty() || Name.empty() || Site.Callable->HasSideEffects(Ctx))
    return AddNote();

  bool ShimForm = Opts.Fix == FixMode::Shim && Site.Direct &&
                  (Site.Kind == CallableKind::FunctionObject ||
                   Site.Kind == CallableKind::FunctionPointer);
  CharSourceRange CallRange =
      CharSourceRange::getTokenRange(Call.getSourceRange());

  Use U = useOf(Call, Body);
  if (U == Use::OtherStatement)
    return AddNote();
  if (U == Use::StatementInBlock) {
    if (ShimForm) {
      bool Ok = true;
      std::string Args = joinArgs(Site.Args, Ctx, Ok);
      if (Ok) {
        F.Fixes.push_back(FixItHint::CreateReplacement(
            CallRange,
            Args.empty()
                ? llvm::formatv("WRAPGUARD_CALL_IF({0})", Name).str()
                : llvm::formatv("WRAPGUARD_CALL_IF({0}, {1})", Name, Args)
                      .str()));
        F.NeedsShimInclude = true;
        return;
      }
    }
    F.Fixes.push_back(FixItHint::CreateInsertion(
        Call.getBeginLoc(),
        llvm::formatv("if ({0}) ", testOf(Site, Name)).str()));
    return;
  }

  // A value: leave the argument untouched when the callable is empty, which
  // is what "don't wrap" means for a wrapper.
  if (Site.Args.empty() || isa<CXXDefaultArgExpr>(Site.Args[0]))
    return AddNote();
  // A by-value parameter copies its argument; the copy is not a side effect
  // of the argument itself.
  const Expr *First = stripNoise(Site.Args[0]);
  while (const auto *CE = dyn_cast<CXXConstructExpr>(First)) {
    if (!CE->getConstructor()->isCopyOrMoveConstructor() ||
        CE->getNumArgs() != 1)
      break;
    First = stripNoise(CE->getArg(0));
  }
  if (!sameValueType(Call.getType(), First->getType(), Ctx) ||
      First->HasSideEffects(Ctx))
    return AddNote();
  std::string ArgText = sourceText(First->getSourceRange(), Ctx);
  if (ArgText.empty())
    return AddNote();
  if (ShimForm && Site.Args.size() == 1) {
    F.Fixes.push_back(FixItHint::CreateReplacement(
        CallRange,
        llvm::formatv("WRAPGUARD_CALL_OR_IDENTITY({0}, {1})", Name, ArgText)
            .str()));
    F.NeedsShimInclude = true;
    return;
  }
  F.Fixes.push_back(FixItHint::CreateReplacement(
      CallRange,
      llvm::formatv("({0} ? {1} : {2})", testOf(Site, Name), CallText, ArgText)
          .str()));
}

} // namespace wrapguard
