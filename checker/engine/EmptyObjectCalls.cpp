//===- EmptyObjectCalls.cpp - Can calling an empty object fail? -----------===//

#include "EmptyObjectCalls.h"
#include "HandleWitnesses.h"
#include "StripNoise.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace wrapguard {

/// How far calls to the object's own methods are followed from operator()
/// (`operator()` -> `forEachIf` -> `doForEachIf`). Past it the answer is
/// "can fail", which keeps the class a nullable callable.
static constexpr unsigned MaxOwnCallDepth = 4;

/// A type whose value can be dereferenced or called: a pointer, a member
/// pointer, or a class with operator->, operator* or operator() (smart
/// pointers and function wrappers, their bases included), or an array of
/// one.
static bool isPointerLike(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  // An array of them (`slots[2]`) holds targets too.
  while (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    T = AT->getElementType().getCanonicalType();
  if (T->isAnyPointerType() || T->isMemberPointerType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  auto HasOperator = [](const CXXRecordDecl &C) {
    DeclarationNameTable &Names = C.getASTContext().DeclarationNames;
    for (OverloadedOperatorKind Op : {OO_Arrow, OO_Star, OO_Call})
      if (!C.lookup(Names.getCXXOperatorName(Op)).empty())
        return true;
    return false;
  };
  if (HasOperator(*RD))
    return true;
  return !RD->forallBases(
      [&](const CXXRecordDecl *Base) { return !HasOperator(*Base); });
}

static bool isThis(const Expr *E) {
  E = stripNoise(E);
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = stripNoise(UO->getSubExpr());
  return isa_and_nonnull<CXXThisExpr>(E);
}

namespace {

/// In one function's body: which watched fields of the object (its
/// witnesses, and its pointer-like fields) are used and which are tested,
/// which of the object's own methods it calls, and whether it does
/// something this reading cannot follow. A local copied from a watched field
/// (`node = head;`) stands for that field, so `while (node) node->f();` is
/// a tested use of `head`.
class WatchedUses : public RecursiveASTVisitor<WatchedUses> {
public:
  /// Instance, when given, is the class whose method's template pattern
  /// is read (its TU never instantiated the method): the pattern's members,
  /// and the members it names in dependent bases, are that class's members
  /// of the same name.
  WatchedUses(llvm::ArrayRef<const FieldDecl *> Witnesses,
              const CXXRecordDecl *Instance = nullptr)
      : Witnesses(Witnesses), Instance(Instance) {}

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->isLocalVarDeclOrParm() && VD->hasInit())
      copied(VD, VD->getInit());
    return true;
  }
  bool VisitExpr(Expr *E) {
    for (const Expr *Operand : emptinessTestOperands(*E))
      tested(Operand);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      assigned(BO->getLHS(), BO->getRHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      assigned(OC->getArg(0), OC->getArg(1));
    // `*p`, `p->x`, `p(..)` of a smart pointer or a function wrapper.
    if ((OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow ||
         OC->getOperator() == OO_Call || OC->getOperator() == OO_ArrowStar) &&
        OC->getNumArgs() > 0)
      dereferenced(OC->getArg(0));
    // `(*this)(..)` and other operators of the object itself.
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(OC->getCalleeDecl());
        M && OC->getNumArgs() > 0 && isThis(OC->getArg(0))) {
      ownCall(*M, /*Qualified=*/false);
      escapes(llvm::ArrayRef(OC->getArgs(), OC->getNumArgs()).drop_front());
      return true;
    }
    escapes(llvm::ArrayRef(OC->getArgs(), OC->getNumArgs()));
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (const auto *Conv = dyn_cast_or_null<CXXConversionDecl>(M);
        Conv && Conv->getConversionType()->isBooleanType())
      tested(Obj);
    if (M && Obj && isThis(Obj)) {
      // `Base::call(..)` names the method it runs; a plain `call(..)` of a
      // virtual method dispatches on the object's class.
      const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
      ownCall(*M, /*Qualified=*/ME && ME->hasQualifier());
    }
    escapes(llvm::ArrayRef(MC->getArgs(), MC->getNumArgs()));
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee(); FD && FD->isNoReturn())
      Unfollowed = true;
    // A call through a function pointer field.
    if (!C->getDirectCallee() && !isa<CXXMemberCallExpr>(C))
      dereferenced(C->getCallee());
    // In a pattern: `this->call(..)`, `call(..)`, `Base<T>::call(..)`.
    if (Instance)
      dependentOwnCall(C->getCallee());
    if (!isa<CXXOperatorCallExpr, CXXMemberCallExpr>(C))
      escapes(llvm::ArrayRef(C->getArgs(), C->getNumArgs()));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    escapes(llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *) {
    Unfollowed = true;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const FieldDecl *F = watched(ME); F && !Handled.count(ME))
      used(*F, ME);
    // `p->x` dereferences p.
    if (ME->isArrow())
      dereferenced(ME->getBase());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const FieldDecl *F = watched(DRE); F && !Handled.count(DRE))
      used(*F, DRE);
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *DME) {
    if (const FieldDecl *F = watched(DME); F && !Handled.count(DME))
      used(*F, DME);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_Deref)
      dereferenced(UO->getSubExpr());
    return true;
  }

  /// A watched field is used where this function does not test it.
  bool usesUntested() const {
    return llvm::any_of(Used,
                        [&](const FieldDecl *F) { return !Tested.count(F); });
  }

  /// The object's own methods called, each with whether the call names
  /// its class (`Base::call(..)`), which runs that very method.
  llvm::SmallVector<std::pair<const CXXMethodDecl *, bool>, 4> OwnCalls;
  /// Something was met that this reading does not follow: a throw, a call
  /// that never returns, the object handed to another function.
  bool Unfollowed = false;

private:
  /// The watched field E denotes, directly (`this->head`), through a local
  /// copied from it, or as an element of it (`slots[i]`: a test of one
  /// element counts for them all, as a test anywhere in the function counts
  /// for every use); null otherwise.
  const FieldDecl *watched(const Expr *E) const {
    E = leaf(E);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E)) {
      auto It = Copies.find(DRE->getDecl());
      return It == Copies.end() ? nullptr : It->second;
    }
    const FieldDecl *F = nullptr;
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(E);
        ME && isThis(ME->getBase())) {
      F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (F && Instance)
        F = dyn_cast_or_null<FieldDecl>(memberNamed(F->getName(), false));
    } else if (const auto *DME =
                   dyn_cast_or_null<CXXDependentScopeMemberExpr>(E);
               DME && Instance &&
               (DME->isImplicitAccess() || isThis(DME->getBase()))) {
      F = dyn_cast_or_null<FieldDecl>(
          memberNamed(DME->getMemberNameInfo().getAsString(), false));
    }
    if (!F ||
        (!llvm::is_contained(Witnesses, F) && !isPointerLike(F->getType())))
      return nullptr;
    return F;
  }
  /// The node of E that names the field or the local.
  static const Expr *leaf(const Expr *E) {
    for (;;) {
      E = stripNoise(E);
      if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
          CE && CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        E = CE->getArg(0);
      else if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E))
        E = AS->getBase();
      else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E);
               OC && OC->getOperator() == OO_Subscript)
        E = OC->getArg(0);
      else
        return E;
    }
  }
  /// A use of F at E. A witness counts wherever it is used; another
  /// pointer-like field only where it is dereferenced or called
  /// (`stored.emplace(..)` of a std::optional, `next.reset()` cannot fail).
  void used(const FieldDecl &F, const Expr *E) {
    if (llvm::is_contained(Witnesses, &F) || Dereferenced.count(E))
      Used.insert(&F);
  }
  /// E, the operand of a dereference or a call: if it names a watched
  /// field, that field is used there. Operands are visited after their
  /// parent, so the mark is in place when the field's node is.
  void dereferenced(const Expr *E) {
    if (const Expr *L = leaf(E))
      Dereferenced.insert(L);
  }
  void tested(const Expr *E) {
    if (const FieldDecl *F = watched(E)) {
      Tested.insert(F);
      Handled.insert(leaf(E));
    }
  }
  /// `T local = this->head;`: the local stands for the field from here on.
  void copied(const VarDecl *VD, const Expr *Init) {
    if (const FieldDecl *F = watched(Init)) {
      Copies[VD] = F;
      Handled.insert(leaf(Init));
    }
  }
  /// `local = this->head;` copies the field; `local = ..` never uses what
  /// the local held.
  void assigned(const Expr *LHS, const Expr *RHS) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripNoise(LHS));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->isLocalVarDeclOrParm())
      return;
    Handled.insert(DRE);
    copied(VD, RHS);
  }
  /// The object itself given to another function: what that does is not
  /// read here.
  void escapes(llvm::ArrayRef<const Expr *> Args) {
    for (const Expr *A : Args)
      if (isThis(A))
        Unfollowed = true;
  }
  /// The member of Instance, or (BasesOnly) of its bases, named Name: the
  /// first class up the hierarchy that declares one; null for none, or for
  /// several of that name there (an overload set is not resolved here).
  const NamedDecl *memberNamed(llvm::StringRef Name, bool BasesOnly) const {
    const NamedDecl *Found = nullptr;
    bool Ambiguous = false;
    auto Look = [&](const CXXRecordDecl &C) {
      if (Found)
        return false;
      for (const Decl *D : C.decls())
        if (const auto *ND = dyn_cast<NamedDecl>(D);
            ND && ND->getIdentifier() && ND->getName() == Name &&
            isa<FieldDecl, CXXMethodDecl>(ND)) {
          Ambiguous |= Found != nullptr;
          Found = ND;
        }
      return !Found;
    };
    if (!BasesOnly)
      Look(*Instance);
    if (!Found)
      Instance->forallBases([&](const CXXRecordDecl *B) { return Look(*B); });
    return Ambiguous ? nullptr : Found;
  }
  /// A call of the object's own method in a pattern, by name: unqualified
  /// (`call(..)`, `this->call(..)`) dispatches on the object's class; a
  /// base named (`Base<Args...>::call(..)`) runs the base's.
  void dependentOwnCall(const Expr *Callee) {
    Callee = Callee ? Callee->IgnoreParenImpCasts() : nullptr;
    std::string Name;
    bool Qualified = false;
    if (const auto *DME = dyn_cast_or_null<CXXDependentScopeMemberExpr>(Callee);
        DME && (DME->isImplicitAccess() || isThis(DME->getBase()))) {
      Name = DME->getMemberNameInfo().getAsString();
      Qualified = DME->getQualifier() != nullptr;
    } else if (const auto *DRE =
                   dyn_cast_or_null<DependentScopeDeclRefExpr>(Callee)) {
      Name = DRE->getNameInfo().getAsString();
      Qualified = true;
    } else if (const auto *UME = dyn_cast_or_null<UnresolvedMemberExpr>(Callee);
               UME && (UME->isImplicitAccess() || isThis(UME->getBase()))) {
      Name = UME->getMemberNameInfo().getAsString();
      Qualified = UME->getQualifier() != nullptr;
    } else {
      return;
    }
    const auto *M =
        dyn_cast_or_null<CXXMethodDecl>(memberNamed(Name, Qualified));
    if (!M) {
      // A field called (`this->callback(..)`) is a use, seen above; a name
      // that is neither is not followed.
      if (!dyn_cast_or_null<FieldDecl>(memberNamed(Name, false)))
        Unfollowed = true;
      return;
    }
    ownCall(*M, Qualified);
  }

  void ownCall(const CXXMethodDecl &M, bool Qualified) {
    if (M.isStatic())
      return;
    OwnCalls.push_back({&M, Qualified});
  }

  llvm::ArrayRef<const FieldDecl *> Witnesses;
  const CXXRecordDecl *Instance;
  llvm::DenseMap<const ValueDecl *, const FieldDecl *> Copies;
  llvm::SmallPtrSet<const Expr *, 8> Handled;
  llvm::SmallPtrSet<const Expr *, 8> Dereferenced;
  llvm::SmallPtrSet<const FieldDecl *, 4> Used, Tested;
};

/// Reads operator() and the own methods it calls, on an object of class
/// RD.
class EmptyCallReader {
public:
  EmptyCallReader(const CXXRecordDecl &RD,
                  llvm::ArrayRef<const FieldDecl *> Witnesses)
      : RD(RD), Witnesses(Witnesses) {}

  /// Whether calling M on an empty object may fail. A virtual method called
  /// without naming its class runs RD's overrider: the method an object of
  /// class RD (a field or a variable of that class) runs. An object of a
  /// class derived from RD, behind a reference, may run another; where RD
  /// is final there is none.
  bool mayFail(const CXXMethodDecl &Called, bool Qualified, unsigned Depth) {
    const CXXMethodDecl *Runs = &Called;
    if (Called.isVirtual() && !Qualified)
      if (const CXXMethodDecl *O =
              Called.getCorrespondingMethodInClass(&RD, /*MayBeBase=*/true))
        Runs = O;
    const CXXMethodDecl &M = *Runs;
    if (!Seen.insert(&M).second)
      return false; // Read already, or being read higher up.
    if (Depth > MaxOwnCallDepth)
      return true;
    const FunctionDecl *Def = nullptr;
    const CXXRecordDecl *Instance = nullptr;
    if (!M.hasBody(Def) || !Def) {
      // A member of a class template specialization that this TU never
      // instantiated (a virtual override whose class it does not
      // construct): its pattern, read against this class's members.
      const FunctionDecl *Pattern = M.getTemplateInstantiationPattern();
      Def = nullptr;
      if (!Pattern || !Pattern->hasBody(Def) || !Def)
        return true;
      Instance = &RD;
    } else if (Def->isDependentContext()) {
      return true;
    }
    WatchedUses Uses(Witnesses, Instance);
    Uses.TraverseStmt(Def->getBody());
    if (Uses.Unfollowed || Uses.usesUntested())
      return true;
    return llvm::any_of(Uses.OwnCalls, [&](const auto &Call) {
      return mayFail(*Call.first, Call.second, Depth + 1);
    });
  }

private:
  const CXXRecordDecl &RD;
  llvm::ArrayRef<const FieldDecl *> Witnesses;
  llvm::SmallPtrSet<const CXXMethodDecl *, 8> Seen;
};

} // namespace

bool callingEmptyIsHarmless(const CXXRecordDecl &RD) {
  llvm::SmallVector<const FieldDecl *, 2> Witnesses =
      emptinessWitnesses(RD, /*ReadPatterns=*/true);
  // What calling an empty object can dereference: the test's fields that
  // hold a target (a pointer, a function, a smart pointer). A mutex the
  // test locks, or a flag it reads, is no such field: using it cannot fail.
  llvm::erase_if(Witnesses, [](const FieldDecl *F) {
    return !isPointerLike(F->getType());
  });
  if (Witnesses.empty())
    return false;
  // Every operator() of the class and its bases, template specializations
  // that were instantiated included.
  llvm::SmallVector<const CXXMethodDecl *, 4> CallOperators;
  bool Unread = false;
  auto Collect = [&](const CXXRecordDecl &C) {
    DeclarationName Call =
        C.getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
    for (const NamedDecl *D : C.lookup(Call)) {
      D = D->getUnderlyingDecl();
      if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
        CallOperators.push_back(M);
      } else if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
        for (const FunctionDecl *S : FT->specializations())
          if (const auto *M = dyn_cast<CXXMethodDecl>(S); M && M->hasBody())
            CallOperators.push_back(M);
      } else {
        Unread = true;
      }
    }
  };
  Collect(RD);
  RD.forallBases([&](const CXXRecordDecl *Base) {
    Collect(*Base);
    return true;
  });
  if (Unread || CallOperators.empty())
    return false;
  EmptyCallReader Reader(RD, Witnesses);
  return llvm::none_of(CallOperators, [&](const CXXMethodDecl *M) {
    return Reader.mayFail(*M, /*Qualified=*/true, 0);
  });
}

} // namespace wrapguard
