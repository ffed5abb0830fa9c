//===- WrapguardTidyModule.cpp - registers the wrapguard-* checks ---------===//

#include "UncheckedPolicyCallCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace wrapguard {

class WrapguardTidyModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<UncheckedPolicyCallCheck>(
        "wrapguard-unchecked-policy-call");
  }
};

} // namespace wrapguard

// Registration happens when clang-tidy loads the plugin (or when the scanner
// links these objects); the anchor lets a static link keep the object.
static clang::tidy::ClangTidyModuleRegistry::Add<wrapguard::WrapguardTidyModule>
    X("wrapguard-module", "Checks for unchecked calls through policy results.");

volatile int WrapguardTidyModuleAnchorSource = 0;
