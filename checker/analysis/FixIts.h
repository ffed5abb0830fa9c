//===- FixIts.h - Repairs for unchecked policy calls -----------*- C++ -*-===//
//
// Builds the edit that guards one flagged call, in the chosen FixMode, or a
// note that says which check to add when no edit is known to compile.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_FIXITS_H
#define WRAPGUARD_ANALYSIS_FIXITS_H

#include "AnalysisOptions.h"
#include "CallSite.h"
#include "Finding.h"
#include "clang/AST/Expr.h"

namespace wrapguard {

/// Adds the repair for Site to F (Fixes, or a note when there is none).
/// Body is the enclosing function's body, where the call's use is looked up.
void addRepair(const CallSite &Site, llvm::StringRef Name,
               const clang::Stmt &Body, clang::ASTContext &Ctx,
               const AnalysisOptions &Opts, Finding &F);

/// The source text of a range of tokens, or "" inside macros.
std::string sourceText(clang::SourceRange R, const clang::ASTContext &Ctx);

/// The text as the user spelled it, also for an expression passed to a
/// macro (for messages, never for edits).
std::string spelledText(clang::SourceRange R, const clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_FIXITS_H
