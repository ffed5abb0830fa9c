//===- AnalysisOptions.h - What the analysis is asked to do -----*- C++ -*-===//
//
// The analysis's options, with their defaults. The clang-tidy check reads
// them from CheckOptions (docs/checks/unchecked-policy-call.md), the scanner
// through the same check, and the unit tests set them directly.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_VOCAB_ANALYSISOPTIONS_H
#define WRAPGUARD_VOCAB_ANALYSISOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace wrapguard {

/// How a finding is repaired.
enum class FixMode {
  Guard, ///< `f(m)` -> `(f ? f(m) : m)`, `f(x);` -> `if (f) f(x);`
  None,  ///< Diagnose only.
  Shim,  ///< Rewrite to the runtime shim's null-safe helpers.
};

/// Parses "guard", "none" or "shim"; returns false on anything else.
bool parseFixMode(llvm::StringRef Text, FixMode &Out);
llvm::StringRef fixModeName(FixMode Mode);

struct AnalysisOptions {
  /// Regex (case-insensitive) that a callee's name must match to count as a
  /// policy when its definition is not visible.
  std::string PolicyNames = "policy";
  /// Extra nullable callable types: regexes over fully qualified names with a
  /// leading "::", e.g. "::llvm::unique_function".
  std::vector<std::string> NullableCallableTypes;
  /// Functions without a visible body that may return a null pointer to a
  /// callable, or an empty handle (registries, plugin loaders): regexes over
  /// fully qualified names with a leading "::", e.g. "::tvm::Registry::Get".
  std::vector<std::string> LookupFunctions;
  /// Methods of nullable-callable classes that invoke the callable by name
  /// rather than with operator(): regexes over fully qualified names, e.g.
  /// "::tvm::runtime::PackedFunc::CallPacked". A method whose body calls the
  /// object's own callable unchecked is one without being named here.
  std::vector<std::string> InvokeMethods;
  /// Also report callables of unknown origin (parameters, fields, lookups).
  bool StrictMode = false;
  FixMode Fix = FixMode::Guard;
  /// Header the shim fix-its include.
  std::string ShimHeader = "wrapguard/call.h";
  /// Budgets per analysed function. A function that exceeds one yields no
  /// findings (AnalysisStatus::BudgetExceeded); the check reports the skip
  /// only when asked (ReportSkippedFunctions).
  std::int64_t MaxSolverIterations = 20000000;
  std::int32_t MaxBlockVisits = 50000;
  /// Leave sources the TU cannot judge (no visible definition, a virtual
  /// call, a field, a parameter) to the project's facts: such calls become
  /// Finding::Deferred candidates instead of being decided by PolicyNames
  /// here. The check and the scanner set it; the engine alone does not.
  bool DeferToProjectFacts = false;
};

} // namespace wrapguard

#endif // WRAPGUARD_VOCAB_ANALYSISOPTIONS_H
