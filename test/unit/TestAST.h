//===- TestAST.h - Helpers for the engine's unit tests ---------*- C++ -*-===//
//
// Parses a snippet into an AST and runs PolicyCallAnalyzer over the functions
// defined in it; reads inline expectations written as `// [[unsafe]]`
// (possibly empty) and `// [[always]]` (always empty) at the end of a line.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_TEST_UNIT_TESTAST_H
#define WRAPGUARD_TEST_UNIT_TESTAST_H

#include "PolicyCallAnalysis.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace wrapguard::test {

/// The finding kinds an expectation can name.
enum class Expect { Unsafe, Always };

/// Line (1-based) -> expected finding, from the `// [[...]]` markers.
std::map<unsigned, Expect> parseExpectations(llvm::StringRef Code);

/// Parses C++17 code (standard headers allowed). Fails the current test and
/// returns null when the code does not compile.
std::unique_ptr<clang::ASTUnit> parse(llvm::StringRef Code);

struct FunctionResult {
  std::string Name;
  AnalysisStatus Status = AnalysisStatus::Skipped;
  /// Why, when Status is BudgetExceeded or UnsupportedConstruct.
  SkipReason Why;
  std::vector<Finding> Findings;
};

/// Runs one analyzer over every function defined in the main file (lambda
/// call operators and template instantiations included), in source order.
std::vector<FunctionResult> analyzeAll(clang::ASTUnit &AST,
                                       const AnalysisOptions &Options);

/// Line -> finding kind over all results; a line with two findings fails.
std::map<unsigned, Expect> findingsByLine(clang::ASTUnit &AST,
                                          const std::vector<FunctionResult> &R);

/// The result for the function named Name (first match), or null.
const FunctionResult *find(const std::vector<FunctionResult> &R,
                           llvm::StringRef Name);

/// Prints an expectation map for test failure messages.
std::string describe(const std::map<unsigned, Expect> &M);

} // namespace wrapguard::test

#endif
