//===- SkippedConstructs.cpp - Constructs the engine skips ----------------===//

#include "SkippedConstructs.h"
#include "Wording.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace wrapguard {
namespace {

class ConstructFinder : public RecursiveASTVisitor<ConstructFinder> {
public:
  // Coroutines' suspensions around the body (initial and final suspend)
  // are implicit code, and the framework sees them too.
  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

  bool VisitCXXTryStmt(CXXTryStmt *) {
    Scan.Try = true;
    return true;
  }
  bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
    Scan.OpenMP = true;
    // The CFG lays out the statement inside a directive's captured
    // statements (combined directives nest several) in place.
    Stmt *S = D->hasAssociatedStmt() ? D->getAssociatedStmt() : nullptr;
    while (auto *CS = dyn_cast_or_null<CapturedStmt>(S)) {
      OpenMPCaptures.insert(CS);
      S = CS->getCapturedStmt();
    }
    return true;
  }
  bool VisitCapturedStmt(CapturedStmt *S) {
    return OpenMPCaptures.contains(S) || found(CapturedStatementConstruct);
  }
  bool VisitCoroutineSuspendExpr(CoroutineSuspendExpr *E) {
    return !(E->isPRValue() && E->getType()->isRecordType()) ||
           found(ObjectSuspensionConstruct);
  }

  ConstructScan Scan;

private:
  /// Stops the walk.
  bool found(llvm::StringRef Construct) {
    Scan.Unsupported = Construct;
    return false;
  }
  llvm::SmallPtrSet<const CapturedStmt *, 4> OpenMPCaptures;
};

} // namespace

ConstructScan scanConstructs(const FunctionDecl &FD) {
  ConstructFinder Finder;
  Finder.TraverseStmt(FD.getBody());
  return Finder.Scan;
}

} // namespace wrapguard
