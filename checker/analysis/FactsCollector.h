//===- FactsCollector.h - The project facts one TU holds -------*- C++ -*-===//
//
// Walks the user code of a translation unit (system headers skipped) and
// records what it says about nullable-callable sources: what each visible
// definition returns, where values from a source are tested for emptiness,
// what every constructor does with callable fields, how the project
// constructs classes with callable fields, what every call passes to
// callable parameters, and where a field is emptied or set. See ProjectFacts.h
// for how the facts of all TUs are used.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_FACTSCOLLECTOR_H
#define WRAPGUARD_ANALYSIS_FACTSCOLLECTOR_H

#include "BodyIndex.h"
#include "CallableTypes.h"
#include "Constructions.h"
#include "PassedValues.h"
#include "PolicySummaries.h"
#include "ProjectFacts.h"
#include "clang/AST/ASTContext.h"

namespace wrapguard {

/// Adds the facts of Ctx's translation unit to Out.
/// Function bodies are looked up in Indexes, constructions recognised by
/// Cs, the variables calls pass judged by Passed; the analysis shares them.
void collectTUFacts(clang::ASTContext &Ctx, const CallableTypes &Types,
                    PolicySummaries &Summaries, BodyIndexes &Indexes,
                    Constructions &Cs, PassedValues &Passed, ProjectFacts &Out);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_FACTSCOLLECTOR_H
