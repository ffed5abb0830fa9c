//===- Wording.h - Every message the check writes ---------------*- C++ -*-===//
//
// The wording of findings, notes and skips is an interface: lit tests match
// it exactly, the scanner reads findings back, and users grep for it. It is
// spelled here once, for every layer: the analysis's findings and notes, the
// notes that name the project's evidence, and the check's own diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_VOCAB_WORDING_H
#define WRAPGUARD_VOCAB_WORDING_H

#include "SkipReason.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace wrapguard {

//===----------------------------------------------------------------------===//
// Findings.
//===----------------------------------------------------------------------===//

/// "call through possibly empty callable 'NAME'"
std::string possiblyEmptyMessage(llvm::StringRef Name);
/// "call through callable 'NAME', which is always empty here"
std::string alwaysEmptyMessage(llvm::StringRef Name);
bool isAlwaysEmptyMessage(llvm::StringRef Message);

/// A function not analysed: "'NAME' was not analysed: it exceeds the budget
/// OPTION", or "... it contains CONSTRUCT" ("a function" when the name is
/// empty). The check's warning and the scanner's notification both say this.
std::string skippedMessage(llvm::StringRef Name, const SkipReason &Why);
/// The check's warning for a skip: "function 'NAME' was not analysed: it
/// exceeds the budget OPTION (LIMIT)", or "lambda in 'NAME' ...". A
/// construct's skip has no limit to show, and Limit is not used.
std::string skippedWarning(bool InLambda, llvm::StringRef Name,
                           const SkipReason &Why, long long Limit);
/// The scanner's summary of the check's work: "analysed N functions, skipped
/// M over budget", followed by ", K with unsupported constructs" when some
/// were skipped for a construct.
std::string analysisSummary(unsigned Analysed, unsigned OverBudget,
                            unsigned Unsupported);

//===----------------------------------------------------------------------===//
// Constructs the engine cannot analyse soundly: "it contains CONSTRUCT".
//===----------------------------------------------------------------------===//

/// `#pragma clang __debug captured`: the CFG keeps the body out of the
/// function's flow.
inline constexpr llvm::StringLiteral CapturedStatementConstruct =
    "a captured statement";
/// A deferred OpenMP task (task, taskloop, target nowait) that shares a
/// callable: the body may run after the code that follows it.
inline constexpr llvm::StringLiteral SharedInTaskConstruct =
    "an OpenMP task that shares a callable";
/// `reduction(op : f)` over a callable: its private copies start from op's
/// initializer.
inline constexpr llvm::StringLiteral CallableReductionConstruct =
    "an OpenMP reduction over a callable";
/// `co_await`/`co_yield` whose result is an object: Clang 19's dataflow
/// framework crashes on it before any of our code runs.
inline constexpr llvm::StringLiteral ObjectSuspensionConstruct =
    "a co_await or co_yield whose result is an object";

//===----------------------------------------------------------------------===//
// Notes the analysis attaches: where the value came from, and the repair.
//===----------------------------------------------------------------------===//

/// "'NAME' comes from 'CALLEE', which may return an empty callable" (or
/// "which always returns an empty callable").
std::string comesFromNote(llvm::StringRef Name, llvm::StringRef Callee,
                          bool Always);
/// "'NAME' is made empty here"
std::string madeEmptyHereNote(llvm::StringRef Name);
/// "'NAME' is moved from here"
std::string movedFromHereNote(llvm::StringRef Name);
/// At an OpenMP `private` or `lastprivate` clause: "'NAME' is a private copy
/// in the region, which starts empty" (a pointer: "which starts
/// uninitialised").
std::string privateCopyNote(llvm::StringRef Name, bool StartsEmpty);
/// "'operator[]' inserts an empty 'TYPE' when the key is missing"
std::string subscriptInsertsNote(llvm::StringRef MappedType);
/// "check that 'NAME' is not empty before this call, e.g. 'if (NAME)'"
std::string checkBeforeCallNote(llvm::StringRef Name);

//===----------------------------------------------------------------------===//
// Notes that name the project's evidence. WHERE is "file.cpp:41".
//===----------------------------------------------------------------------===//

/// "'NAME' comes from 'SOURCE', which returns an empty callable on some path
/// (WHERE)" (or "which always returns an empty callable (WHERE)").
std::string returnsEmptyNote(llvm::StringRef Name, llvm::StringRef Source,
                             bool Always, llvm::StringRef Where);
/// "a value from 'SOURCE' is checked for emptiness in 'FUNCTION' (WHERE)"
std::string checkedElsewhereNote(llvm::StringRef Source,
                                 llvm::StringRef Function,
                                 llvm::StringRef Where);
/// "'FIELD' is not set by the constructor 'CTOR' (WHERE)"
std::string notSetByConstructorNote(llvm::StringRef Field, llvm::StringRef Ctor,
                                    llvm::StringRef Where);
/// "'FIELD' is set by the constructor 'CTOR' only when 'CONDITION' holds
/// (WHERE)"
std::string setOnlyWhenNote(llvm::StringRef Field, llvm::StringRef Ctor,
                            llvm::StringRef Condition, llvm::StringRef Where);
/// "'FIELD' is assigned the result of 'LOADER', which is null when the
/// symbol is missing, in 'FUNCTION' (WHERE)"
std::string loadedInNote(llvm::StringRef Field, llvm::StringRef Loader,
                         llvm::StringRef Function, llvm::StringRef Where);
/// "'FIELD' is made empty in 'FUNCTION' (WHERE)"
std::string emptiedInNote(llvm::StringRef Field, llvm::StringRef Function,
                          llvm::StringRef Where);

/// "'FIELD' is set by none of the N constructions of 'CLASS' in the
/// project" ("is not set by the only construction" when N is 1); "is not
/// surely set" when some construction sets it from a value that may be empty.
std::string neverSetNote(llvm::StringRef Field, llvm::StringRef Class,
                         unsigned Constructions, bool Surely = true);
/// "'OBJECT' is constructed here with 'CTOR', which leaves 'FIELD' empty"
std::string constructedEmptyHereNote(llvm::StringRef Object,
                                     llvm::StringRef Ctor,
                                     llvm::StringRef Field);
/// "'CLASS' is constructed with 'CTOR', which leaves 'FIELD' empty, in
/// 'FUNCTION' (WHERE)"
std::string constructionLeavesEmptyNote(llvm::StringRef Class,
                                        llvm::StringRef Ctor,
                                        llvm::StringRef Field,
                                        llvm::StringRef Function,
                                        llvm::StringRef Where);

/// A construction that sets the field from a value of another source that
/// may be empty (the source's evidence follows).
std::string constructionMayLeaveEmptyNote(llvm::StringRef Class,
                                          llvm::StringRef Ctor,
                                          llvm::StringRef Field,
                                          llvm::StringRef Function,
                                          llvm::StringRef Where);
/// "'FIELD' is set only after construction, in 'FUNCTION' (WHERE); the
/// destructor also runs for objects where that never happened" (or "; it is
/// still empty while the constructor runs").
std::string setOnlyAfterConstructionNote(llvm::StringRef Field,
                                         llvm::StringRef Function,
                                         llvm::StringRef Where,
                                         bool InDestructor);
/// "a callable that may be empty is stored in 'ELEMENT' in 'FUNCTION'
/// (WHERE)": a write into a container's elements (ContainerElements.h) of
/// a value empty on some path (nullptr, moved from).
std::string storedEmptyNote(llvm::StringRef Element, llvm::StringRef Function,
                            llvm::StringRef Where);
/// "'ELEMENT' is given the value of 'SOURCE' in 'FUNCTION' (WHERE)".
std::string storedFromNote(llvm::StringRef Element, llvm::StringRef Source,
                           llvm::StringRef Function, llvm::StringRef Where);
/// "'PARAM' of 'FUNCTION' is passed an empty callable in 'CALLER' (WHERE)"
std::string passedEmptyNote(llvm::StringRef Param, llvm::StringRef Function,
                            llvm::StringRef Caller, llvm::StringRef Where);
/// "'PARAM' of 'FUNCTION' may be passed a moved-from, empty callable in
/// 'CALLER' (WHERE): another argument of that call moves from it, and the
/// order in which arguments are evaluated is unspecified"
std::string passedMovedBySiblingNote(llvm::StringRef Param,
                                     llvm::StringRef Function,
                                     llvm::StringRef Caller,
                                     llvm::StringRef Where);
/// "'PARAM' of 'FUNCTION' is passed a value from 'SOURCE' in 'CALLER'
/// (WHERE)"
/// A field of the object a function receives (Param: a parameter's name, or
/// "this" for a method's own object), proven empty by the caller's flow
/// analysis where it calls Function.
std::string passedObjectEmptyNote(llvm::StringRef Param,
                                  llvm::StringRef Function,
                                  llvm::StringRef Field, llvm::StringRef Caller,
                                  llvm::StringRef Where);
std::string passedFromNote(llvm::StringRef Param, llvm::StringRef Function,
                           llvm::StringRef Source, llvm::StringRef Caller,
                           llvm::StringRef Where);
/// "'FIELD' is assigned a value from 'SOURCE' in 'FUNCTION' (WHERE)"
std::string assignedFromNote(llvm::StringRef Field, llvm::StringRef Source,
                             llvm::StringRef Function, llvm::StringRef Where);

//===----------------------------------------------------------------------===//
// Notes the analysis attaches to calls through captures and named methods.
//===----------------------------------------------------------------------===//

/// "'NAME' is captured here by reference, and may be empty when the lambda
/// runs": what the lambda reads is the variable's value then, which the
/// evidence that follows is about.
std::string capturedByReferenceNote(llvm::StringRef Name);
/// "'NAME' is captured here, where it may be empty" (or "where it is
/// empty").
std::string capturedHereNote(llvm::StringRef Name, bool Always);

//===----------------------------------------------------------------------===//
// The check's configuration diagnostics, as clang-tidy format strings.
//===----------------------------------------------------------------------===//

/// %0 pattern, %1 check name, %2 option, %3 the regex error, %4 the default.
inline constexpr llvm::StringLiteral InvalidRegexDiag =
    "invalid regular expression '%0' in option '%1.%2': %3; using the "
    "default %4";
/// %0 check name, %1 why.
inline constexpr llvm::StringLiteral FactsFileDiag =
    "cannot use FactsFile of %0: %1";

} // namespace wrapguard

#endif // WRAPGUARD_VOCAB_WORDING_H
