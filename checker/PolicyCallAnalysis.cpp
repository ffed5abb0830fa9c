#include "PolicyCallAnalysis.h"

using namespace clang;

namespace wrapguard {

bool parseFixMode(llvm::StringRef Text, FixMode &Out) {
  if (Text == "guard")
    Out = FixMode::Guard;
  else if (Text == "none")
    Out = FixMode::None;
  else if (Text == "shim")
    Out = FixMode::Shim;
  else
    return false;
  return true;
}

llvm::StringRef fixModeName(FixMode Mode) {
  switch (Mode) {
  case FixMode::Guard:
    return "guard";
  case FixMode::None:
    return "none";
  case FixMode::Shim:
    return "shim";
  }
  return "guard";
}

class PolicyCallAnalyzer::Impl {
public:
  Impl(ASTContext &Ctx, AnalysisOptions Opts) : Ctx(Ctx), Opts(std::move(Opts)) {}
  ASTContext &Ctx;
  AnalysisOptions Opts;
};

PolicyCallAnalyzer::PolicyCallAnalyzer(ASTContext &Ctx, AnalysisOptions Options)
    : I(std::make_unique<Impl>(Ctx, std::move(Options))) {}
PolicyCallAnalyzer::~PolicyCallAnalyzer() = default;
const AnalysisOptions &PolicyCallAnalyzer::options() const { return I->Opts; }

std::vector<Finding> PolicyCallAnalyzer::analyze(const FunctionDecl &FD,
                                                 AnalysisStatus *Status) {
  if (Status)
    *Status = AnalysisStatus::Skipped;
  return {};
}

} // namespace wrapguard
