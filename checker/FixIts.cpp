//===- FixIts.cpp - Repairs for unchecked policy calls --------------------===//

#include "FixIts.h"
#include "PolicyCallModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
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

/// True when the call is a whole statement directly inside a `{...}` block,
/// where `if (f) f(x);` can replace it without changing what an `else`
/// binds to.
static bool isStatementInBlock(const CallExpr &Call, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(Call);
  for (int Depth = 0; Depth < 3; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return false;
    const DynTypedNode &P = Parents[0];
    if (P.get<CompoundStmt>())
      return true;
    // Cleanups and implicit conversions to void wrap a statement call.
    if (P.get<ExprWithCleanups>() || P.get<ImplicitCastExpr>()) {
      Node = P;
      continue;
    }
    return false;
  }
  return false;
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

void addRepair(const CallSite &Site, StringRef Name, ASTContext &Ctx,
               const AnalysisOptions &Opts, Finding &F) {
  if (Opts.Fix == FixMode::None)
    return;
  const CallExpr &Call = *Site.Call;
  auto AddNote = [&] {
    F.Notes.push_back({F.Loc, llvm::formatv("check that '{0}' is not empty "
                                            "before this call, e.g. 'if ({0})'",
                                            Name)
                                  .str()});
  };
  std::string CallText = sourceText(Call.getSourceRange(), Ctx);
  if (CallText.empty() || Name.empty() ||
      Site.Callable->HasSideEffects(Ctx))
    return AddNote();

  bool ShimForm = Opts.Fix == FixMode::Shim && Site.Direct &&
                  (Site.Kind == CallableKind::FunctionObject ||
                   Site.Kind == CallableKind::FunctionPointer);
  CharSourceRange CallRange = CharSourceRange::getTokenRange(Call.getSourceRange());

  if (isStatementInBlock(Call, Ctx)) {
    if (ShimForm) {
      bool Ok = true;
      std::string Args = joinArgs(Site.Args, Ctx, Ok);
      if (Ok) {
        F.Fixes.push_back(FixItHint::CreateReplacement(
            CallRange, Args.empty()
                           ? llvm::formatv("WRAPGUARD_CALL_IF({0})", Name).str()
                           : llvm::formatv("WRAPGUARD_CALL_IF({0}, {1})", Name,
                                           Args)
                                 .str()));
        F.NeedsShimInclude = true;
        return;
      }
    }
    F.Fixes.push_back(FixItHint::CreateInsertion(
        Call.getBeginLoc(), llvm::formatv("if ({0}) ", Name).str()));
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
    if (!CE->getConstructor()->isCopyOrMoveConstructor() || CE->getNumArgs() != 1)
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
      llvm::formatv("({0} ? {1} : {2})", Name, CallText, ArgText).str()));
}

} // namespace wrapguard
