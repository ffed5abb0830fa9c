//===- CompiledOutAssertions.cpp - Assertions this build left out ---------===//

#include "CompiledOutAssertions.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace wrapguard {
namespace {

/// Whether E is a condition the compiler decides: `false`, `0`, and
/// `0 && !(cond)` (short-circuit), as Chromium-style `DCHECK_IS_ON() &&`
/// leaves it.
std::optional<bool> constantCondition(const Expr &E, const ASTContext &Ctx) {
  bool Value = false;
  if (E.isValueDependent() || !E.EvaluateAsBooleanCondition(Value, Ctx))
    return std::nullopt;
  return Value;
}

/// Whether S computes anything that can run: a compiled-out assertion leaves
/// only constants, casts of them and empty statements (`((void)0)`,
/// `static_cast<void>(0)`, `do {} while (0)`), or code behind a condition
/// the compiler decides is false (glog's `while (false) CHECK(c)` under
/// NDEBUG, `0 && !(c) ? (void)0 : log()`).
bool computes(const Stmt &S, const ASTContext &Ctx) {
  auto Decided = [&](const Expr *Cond) {
    return Cond ? constantCondition(*Cond, Ctx) : std::nullopt;
  };
  if (const auto *W = dyn_cast<WhileStmt>(&S);
      W && !W->getConditionVariable() && Decided(W->getCond()) == false)
    return false;
  if (const auto *If = dyn_cast<IfStmt>(&S);
      If && !If->getInit() && !If->getConditionVariable()) {
    std::optional<bool> Taken = Decided(If->getCond());
    if (Taken) {
      const Stmt *Runs = *Taken ? If->getThen() : If->getElse();
      return Runs && computes(*Runs, Ctx);
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(&S)) {
    if (std::optional<bool> Taken = Decided(CO->getCond()))
      return computes(*Taken ? *CO->getTrueExpr() : *CO->getFalseExpr(), Ctx);
  }
  if (!isa<IntegerLiteral, CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, ParenExpr,
           CastExpr, CompoundStmt, DoStmt, NullStmt>(S))
    return true;
  for (const Stmt *Child : S.children())
    if (Child && computes(*Child, Ctx))
      return true;
  return false;
}

/// The position of the `)` that closes the `(` at Open in Text, or npos.
size_t closingParen(StringRef Text, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    if (Text[I] == '(' || Text[I] == '[')
      ++Depth;
    else if ((Text[I] == ')' || Text[I] == ']') && --Depth == 0)
      return I;
  }
  return StringRef::npos;
}

/// Text split at top-level occurrences of Sep (outside brackets).
SmallVector<StringRef, 4> splitTopLevel(StringRef Text, StringRef Sep) {
  SmallVector<StringRef, 4> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
    else if (Depth == 0 && Text.substr(I).starts_with(Sep)) {
      Out.push_back(Text.slice(Start, I));
      I += Sep.size() - 1;
      Start = I + 1;
    }
  }
  Out.push_back(Text.substr(Start));
  return Out;
}

/// The first argument of an invocation spelled `NAME(ARGS)`, the whole of
/// Text; nullopt when Text is not one.
std::optional<std::string> firstArgument(StringRef Text) {
  Text = Text.trim();
  size_t NameEnd = 0;
  while (NameEnd < Text.size() &&
         (isAlnum(Text[NameEnd]) || Text[NameEnd] == '_'))
    ++NameEnd;
  if (NameEnd == 0 || isDigit(Text[0]))
    return std::nullopt;
  size_t Open = Text.find_first_not_of(" \t\r\n", NameEnd);
  if (Open == StringRef::npos || Text[Open] != '(' ||
      closingParen(Text, Open) != Text.size() - 1)
    return std::nullopt;
  StringRef Args = Text.slice(Open + 1, Text.size() - 1);
  StringRef First = splitTopLevel(Args, ",").front().trim();
  if (First.empty())
    return std::nullopt;
  return First.str();
}

/// Text without its whitespace, and without parentheses around the whole.
std::string normalized(StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!isSpace(C))
      Out += C;
  while (Out.size() >= 2 && Out.front() == '(' &&
         closingParen(Out, 0) == Out.size() - 1)
    Out = Out.substr(1, Out.size() - 2);
  return Out;
}

} // namespace

std::optional<std::string> compiledOutMacroArgument(const Stmt &S,
                                                    const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *N = dyn_cast<NullStmt>(&S)) {
    // A macro that expanded to nothing: the `;` is all that is left, and
    // the invocation is the text right before it.
    SourceLocation Semi = N->getSemiLoc();
    if (!N->hasLeadingEmptyMacro() || !Semi.isFileID())
      return std::nullopt;
    auto [File, Offset] = SM.getDecomposedLoc(Semi);
    bool Invalid = false;
    StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid || Offset > Buffer.size())
      return std::nullopt;
    StringRef Before = Buffer.take_front(Offset).rtrim();
    if (!Before.ends_with(")"))
      return std::nullopt;
    // Back to the matching `(`, then the name before it.
    int Depth = 0;
    size_t I = Before.size();
    while (I > 0) {
      char C = Before[--I];
      if (C == ')')
        ++Depth;
      else if (C == '(' && --Depth == 0)
        break;
    }
    if (Depth != 0)
      return std::nullopt;
    StringRef Name = Before.take_front(I).rtrim();
    size_t Start = Name.size();
    while (Start > 0 && (isAlnum(Name[Start - 1]) || Name[Start - 1] == '_'))
      --Start;
    return firstArgument(Before.substr(Start));
  }
  // A macro that expanded to code that reads nothing, and is the whole
  // statement.
  if (!S.getBeginLoc().isMacroID() || computes(S, Ctx))
    return std::nullopt;
  CharSourceRange R = SM.getExpansionRange(S.getSourceRange());
  if (!R.getBegin().isFileID() || !R.getEnd().isFileID())
    return std::nullopt;
  return firstArgument(Lexer::getSourceText(R, SM, Ctx.getLangOpts()));
}

bool statesSet(StringRef Condition, StringRef Callable) {
  std::string T = normalized(Callable);
  if (T.empty())
    return false;
  std::string Whole = normalized(Condition);
  for (StringRef Part : splitTopLevel(Whole, "&&")) {
    std::string C = normalized(Part);
    for (const std::string &Form :
         {T, T + "!=nullptr", T + "!=NULL", T + "!=0", "nullptr!=" + T,
          "NULL!=" + T, "0!=" + T, "!!" + T, "static_cast<bool>(" + T + ")",
          "bool(" + T + ")"})
      if (C == Form)
        return true;
  }
  return false;
}

bool assertedOutOfBuild(const CallExpr &Call, StringRef Callable,
                        const ParentMap &PM, const ASTContext &Ctx) {
  const Stmt *Child = &Call;
  for (const Stmt *P = PM.getParent(Child); P; Child = P, P = PM.getParent(P)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    for (const Stmt *S : Block->body()) {
      if (S == Child)
        break;
      if (std::optional<std::string> Arg = compiledOutMacroArgument(*S, Ctx);
          Arg && statesSet(*Arg, Callable))
        return true;
    }
  }
  return false;
}

} // namespace wrapguard
