//===- ContainerElements.cpp - Callables kept in standard containers ------===//

#include "ContainerElements.h"
#include "CallableSyntax.h"
#include "SourceKeys.h"
#include "StripNoise.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wrapguard {

namespace {

/// Whether T is a standard map, whose element is a key and a mapped value.
bool isStdMap(QualType T) {
  StringRef N = stdRecordName(T);
  return N == "map" || N == "unordered_map" || N == "multimap" ||
         N == "unordered_multimap";
}

bool isStdSequenceOrMap(QualType T) {
  StringRef N = stdRecordName(T);
  return isStdMap(T) || N == "vector" || N == "deque" || N == "list" ||
         N == "forward_list" || N == "array";
}

/// The type of the container's element as the project uses it: a map's
/// mapped type, a sequence's value type.
QualType valueType(QualType Container) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Container.getNonReferenceType()->getAsCXXRecordDecl());
  unsigned I = isStdMap(Container) ? 1 : 0;
  if (!Spec || Spec->getTemplateArgs().size() <= I ||
      Spec->getTemplateArgs()[I].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[I].getAsType();
}

/// The types of a std::pair's or std::tuple's members; none for another T.
SmallVector<QualType, 4> memberTypes(QualType T) {
  SmallVector<QualType, 4> Out;
  StringRef N = stdRecordName(T);
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || (N != "pair" && N != "tuple"))
    return Out;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Type)
      Out.push_back(A.getAsType());
    else if (A.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &P : A.pack_elements())
        if (P.getKind() == TemplateArgument::Type)
          Out.push_back(P.getAsType());
  }
  return Out;
}

/// The container field or global that E names: a field of the project's
/// own classes, or a global it declares. Locals are their function's flow
/// analysis's, and a library's containers nobody's source.
const ValueDecl *containerNamed(const Expr *E) {
  E = stripNoise(E);
  if (!E || !isStdSequenceOrMap(E->getType()))
    return nullptr;
  const ValueDecl *D = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    D = dyn_cast<FieldDecl>(ME->getMemberDecl());
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->hasGlobalStorage() && !V->isStaticLocal())
      D = V;
  }
  if (!D ||
      D->getASTContext().getSourceManager().isInSystemHeader(D->getLocation()))
    return nullptr;
  return D;
}

/// What an expression denotes of a container's elements: the value (a
/// map's mapped value, a sequence's element), or a map's entry (the pair of
/// key and value that its iterators point to).
struct ElementAt {
  const ValueDecl *Container;
  bool Entry;
};

/// `F.begin()`, `F.find(k)` and the like: the container their iterator
/// runs over.
const ValueDecl *iteratorSource(const Expr *E) {
  E = stripNoise(E);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = stripNoise(CE->getArg(0)); // iterator to const_iterator
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier())
    return nullptr;
  StringRef N = M->getName();
  if (N != "begin" && N != "cbegin" && N != "find" && N != "lower_bound" &&
      N != "upper_bound" && N != "rbegin")
    return nullptr;
  return containerNamed(MC->getImplicitObjectArgument());
}

/// The container whose iterator local V holds on every value the body
/// gives it (its initializer and assignments; `++it` keeps it on the same
/// container).
const ValueDecl *iteratorOver(const VarDecl &V, const BodyIndex &Index) {
  const BodyIndex::Local *L = Index.find(V);
  if (!L || L->Escapes)
    return nullptr;
  const ValueDecl *Over = nullptr;
  for (const BodyIndex::Event &E : L->Events) {
    if (E.What == BodyIndex::Event::MovedFrom)
      continue;
    const ValueDecl *C = E.Value ? iteratorSource(E.Value) : nullptr;
    if (!C || (Over && Over != C))
      return nullptr;
    Over = C;
  }
  return Over;
}

class Reader {
public:
  Reader(const FunctionDecl &Owner, const BodyIndex &Index)
      : Owner(Owner), Index(Index) {}

  /// What E denotes of a container's elements, if anything.
  std::optional<ElementAt> at(const Expr *E) {
    E = stripNoise(E);
    if (!E)
      return std::nullopt;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      // `F[k]`: the value. `*it`, `it->`: what the iterator points to.
      if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
        if (const ValueDecl *C = containerNamed(OC->getArg(0)))
          return ElementAt{C, false};
      if ((OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow) &&
          OC->getNumArgs() == 1)
        return pointee(OC->getArg(0));
      return std::nullopt;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (M && M->getIdentifier() &&
          (M->getName() == "at" || M->getName() == "front" ||
           M->getName() == "back"))
        if (const ValueDecl *C =
                containerNamed(MC->getImplicitObjectArgument()))
          return ElementAt{C, false};
      return std::nullopt;
    }
    // A range-for variable: `for (auto &e : F)`.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (const ValueDecl *C = rangeOver(*V))
          return ElementAt{C, isStdMap(C->getType())};
    return std::nullopt;
  }

  /// What E, an iterator local, points to.
  std::optional<ElementAt> pointee(const Expr *E) {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripNoise(E));
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage())
      return std::nullopt;
    if (const ValueDecl *C = iteratorOver(*V, Index))
      return ElementAt{C, isStdMap(C->getType())};
    return std::nullopt;
  }

  /// The part of a container's elements that E, a callable, reads.
  std::optional<ElementRef> part(const Expr &E) {
    const Expr *S = stripNoise(&E);
    if (std::optional<ElementAt> A = at(S); A && !A->Entry)
      return ElementRef{A->Container, -1};
    // `x.first`, `x.second` of a pair: an entry's value, or a member of a
    // pair value.
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      int I = FD && FD->getIdentifier() ? (FD->getName() == "first"    ? 0
                                           : FD->getName() == "second" ? 1
                                                                       : -1)
                                        : -1;
      const auto *Pair =
          FD ? dyn_cast<CXXRecordDecl>(FD->getParent()) : nullptr;
      if (I < 0 || !Pair || !Pair->isInStdNamespace() ||
          !Pair->getIdentifier() || Pair->getName() != "pair")
        return std::nullopt;
      std::optional<ElementAt> A =
          ME->isArrow() ? pointeeOfArrow(ME->getBase()) : at(ME->getBase());
      if (!A)
        // The value's member: `F[k].second`, `it->second.first`.
        return memberOfValue(ME->getBase(), I);
      if (A->Entry)
        return I == 1 ? std::optional<ElementRef>(ElementRef{A->Container, -1})
                      : std::nullopt;
      return ElementRef{A->Container, I};
    }
    // `std::get<N>(x)` of a pair or tuple value.
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!isStdFunction(FD, "get") || Call->getNumArgs() != 1)
        return std::nullopt;
      const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
      if (!Args || Args->size() < 1 ||
          Args->get(0).getKind() != TemplateArgument::Integral)
        return std::nullopt;
      return memberOfValue(Call->getArg(0),
                           int(Args->get(0).getAsIntegral().getExtValue()));
    }
    return std::nullopt;
  }

private:
  /// `it->second`: the arrow's base is the iterator itself (as written, an
  /// `operator->` call on it).
  std::optional<ElementAt> pointeeOfArrow(const Expr *Base) {
    const Expr *B = stripNoise(Base);
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(B);
        OC && OC->getOperator() == OO_Arrow && OC->getNumArgs() == 1)
      return pointee(OC->getArg(0));
    return pointee(B);
  }

  /// Member I of the pair or tuple value that E denotes.
  std::optional<ElementRef> memberOfValue(const Expr *E, int I) {
    std::optional<ElementRef> V = part(*E);
    if (!V || V->Component >= 0)
      return std::nullopt;
    return ElementRef{V->Container, I};
  }

  /// The container that V, a range-for's loop variable, runs over.
  const ValueDecl *rangeOver(const VarDecl &V) {
    if (!V.hasLocalStorage() || isa<ParmVarDecl>(V) || !Owner.getBody() ||
        !initialisedFromImplicitIterator(V))
      return nullptr;
    auto It = RangeVars.find(&V);
    if (It != RangeVars.end())
      return It->second;
    const ValueDecl *Over = nullptr;
    if (const CXXForRangeStmt *Loop = findRangeFor(Owner.getBody(), V))
      Over = containerNamed(Loop->getRangeInit());
    RangeVars[&V] = Over;
    return Over;
  }

  /// A range-for's loop variable is initialised from `*__begin`, a
  /// variable the compiler declares: only such a local is looked for among
  /// the loops, so reading other locals costs no walk of the body.
  static bool initialisedFromImplicitIterator(const VarDecl &V) {
    const Expr *Init = V.getInit() ? stripNoise(V.getInit()) : nullptr;
    const Expr *Iter = nullptr;
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Init);
        OC && OC->getOperator() == OO_Star && OC->getNumArgs() == 1)
      Iter = OC->getArg(0);
    else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Init);
             UO && UO->getOpcode() == UO_Deref)
      Iter = UO->getSubExpr();
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripNoise(Iter));
    return DRE && DRE->getDecl()->isImplicit();
  }

  static const CXXForRangeStmt *findRangeFor(const Stmt *S, const VarDecl &V) {
    if (!S)
      return nullptr;
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S);
        RF && RF->getLoopVariable() == &V)
      return RF;
    for (const Stmt *C : S->children())
      if (const CXXForRangeStmt *F = findRangeFor(C, V))
        return F;
    return nullptr;
  }

  const FunctionDecl &Owner;
  const BodyIndex &Index;
  llvm::DenseMap<const VarDecl *, const ValueDecl *> RangeVars;
};

/// What a write stores in the parts of a container's elements.
class Storer {
public:
  Storer(const FunctionDecl &Owner, const BodyIndex &Index,
         const CallableTypes &Types)
      : R(Owner, Index), Owner(Owner), Index(Index), Types(Types),
        SM(Owner.getASTContext().getSourceManager()) {}

  /// Value, a map's entry (Entry) or an element's value, stored in Into's
  /// elements by the write at At.
  void store(const Expr *Value, bool Entry, const ValueDecl &Into,
             SourceLocation At) {
    QualType VT = valueType(Into.getType());
    if (VT.isNull())
      return;
    if (Types.isNullable(VT)) {
      add(Value, Entry, {&Into, -1}, At);
      return;
    }
    SmallVector<QualType, 4> Members = memberTypes(VT);
    for (unsigned I = 0; I < Members.size(); ++I)
      if (Types.isNullable(Members[I]))
        add(Value, Entry, {&Into, int(I)}, At);
  }

  /// Args, which construct one element in place (`emplace_back(a, b)`): the
  /// members of a pair or tuple, or the value itself.
  void construct(ArrayRef<const Expr *> Args, const ValueDecl &Into) {
    if (Args.size() == 1)
      return store(Args[0], false, Into, Args[0]->getBeginLoc());
    QualType VT = valueType(Into.getType());
    SmallVector<QualType, 4> Members = memberTypes(VT);
    if (Members.size() != Args.size())
      return;
    for (unsigned I = 0; I < Members.size(); ++I)
      if (Types.isNullable(Members[I]))
        Out.push_back({{&Into, int(I)}, Args[I], std::nullopt});
  }

  /// `F[k] = v` or `F[k].second = v`.
  bool assigned(const Expr &LHS, const Expr &RHS) {
    if (std::optional<ElementAt> A = R.at(&LHS); A && !A->Entry) {
      store(&RHS, false, *A->Container, RHS.getBeginLoc());
      return true;
    }
    if (std::optional<ElementRef> P = R.part(LHS); P && P->Component >= 0) {
      Out.push_back({*P, &RHS, std::nullopt});
      return true;
    }
    return false;
  }

  SmallVector<StoredPart, 2> Out;

private:
  void add(const Expr *Value, bool Entry, ElementRef Part, SourceLocation At) {
    StoredPart SP{Part, nullptr, std::nullopt};
    resolve(Value, Entry, Part, At, SP, 0);
    Out.push_back(SP);
  }

  /// The expression, or the other container's part, that gives Part of
  /// Value (a map's entry when Entry).
  void resolve(const Expr *X, bool Entry, const ElementRef &Part,
               SourceLocation At, StoredPart &SP, unsigned Depth) {
    const Expr *Written = X;
    X = stripNoise(X);
    if (!X || Depth > 4)
      return;
    if (const Expr *Moved = movedFromObject(X))
      X = stripNoise(Moved);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(X);
        CE && CE->getNumArgs() == 1 && CE->getConstructor() &&
        CE->getConstructor()->isCopyOrMoveConstructor())
      return resolve(CE->getArg(0), Entry, Part, At, SP, Depth + 1);
    // An element of another container of the same shape: `F.insert(*it)`.
    if (std::optional<ElementAt> A = R.at(X); A && A->Entry == Entry) {
      if (valueType(A->Container->getType()).getCanonicalType() ==
          valueType(Part.Container->getType()).getCanonicalType())
        SP.From = ElementRef{A->Container, Part.Component};
      return;
    }
    if (Entry) {
      if (const Expr *V = member(X, 1, At, Depth))
        resolve(V, false, Part, At, SP, Depth + 1);
      return;
    }
    if (Part.Component < 0) {
      // As written: a `std::move` reads the value before its move.
      SP.Value = Written;
      return;
    }
    SP.Value = member(X, unsigned(Part.Component), At, Depth);
  }

  /// The expression that gives member I of the pair or tuple X: an argument
  /// of its construction, or of the last value a local got before At.
  const Expr *member(const Expr *X, unsigned I, SourceLocation At,
                     unsigned Depth) {
    X = stripNoise(X);
    if (!X || Depth > 4)
      return nullptr;
    if (const Expr *Moved = movedFromObject(X))
      X = stripNoise(Moved);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(X)) {
      if (CE->getConstructor() &&
          CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1)
        return member(CE->getArg(0), I, At, Depth + 1);
      return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    }
    if (const auto *ILE = dyn_cast<InitListExpr>(X))
      return I < ILE->getNumInits() ? ILE->getInit(I) : nullptr;
    if (const auto *Call = dyn_cast<CallExpr>(X)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (isStdFunction(FD, "make_pair") || isStdFunction(FD, "make_tuple") ||
          isStdFunction(FD, "forward_as_tuple"))
        return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
      return nullptr;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(X);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl() || V->getDeclContext() != &Owner)
      return nullptr;
    std::optional<BodyIndex::Event> Last =
        Index.latestBefore(*V, SM.getExpansionLoc(At), SM);
    if (!Last || !Last->Value)
      return nullptr;
    return member(Last->Value, I, Last->Loc, Depth + 1);
  }

  Reader R;
  const FunctionDecl &Owner;
  const BodyIndex &Index;
  const CallableTypes &Types;
  const SourceManager &SM;
};

} // namespace

std::optional<std::string> elementKey(const ElementRef &R) {
  std::optional<std::string> Key;
  if (const auto *FD = dyn_cast_or_null<FieldDecl>(R.Container))
    Key = fieldKey(*FD);
  else if (const auto *V = dyn_cast_or_null<VarDecl>(R.Container))
    Key = globalKey(*V);
  if (!Key)
    return std::nullopt;
  return "e:" + Key->substr(2) + "#" +
         (R.Component < 0 ? std::string("v") : std::to_string(R.Component));
}

std::string elementName(const ElementRef &R) {
  std::string Name = R.Container->getQualifiedNameAsString() + "[]";
  if (R.Component < 0)
    return Name;
  if (stdRecordName(valueType(R.Container->getType())) == "pair" &&
      R.Component < 2)
    return Name + (R.Component ? ".second" : ".first");
  return "std::get<" + std::to_string(R.Component) + ">(" + Name + ")";
}

std::optional<ElementRef> elementRead(const Expr &E, const FunctionDecl &Owner,
                                      const BodyIndex &Index,
                                      const CallableTypes &Types) {
  Reader R(Owner, Index);
  std::optional<ElementRef> Part = R.part(E);
  if (!Part || !Types.isNullable(E.getType()))
    return std::nullopt;
  return Part;
}

SmallVector<StoredPart, 2> storedParts(const Expr &E, const FunctionDecl &Owner,
                                       const BodyIndex &Index,
                                       const CallableTypes &Types) {
  Storer S(Owner, Index, Types);
  if (std::optional<Assignment> A = assignmentOf(&E)) {
    S.assigned(*A->LHS, *A->RHS);
    return S.Out;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&E);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  const ValueDecl *Into = M && M->getIdentifier()
                              ? containerNamed(MC->getImplicitObjectArgument())
                              : nullptr;
  if (!Into)
    return S.Out;
  StringRef N = M->getName();
  ArrayRef<const Expr *> Args(MC->getArgs(), MC->getNumArgs());
  if (isStdMap(Into->getType())) {
    // insert(entry), insert(hint, entry), emplace(entry): an entry;
    // emplace(k, v), try_emplace(k, v), insert_or_assign(k, v): a value.
    if ((N == "insert" || N == "emplace") && Args.size() == 1)
      S.store(Args[0], true, *Into, MC->getBeginLoc());
    else if (N == "insert" && Args.size() == 2 &&
             !isStdSequenceOrMap(Args[1]->getType()))
      S.store(Args[1], true, *Into, MC->getBeginLoc());
    else if ((N == "emplace" || N == "try_emplace" ||
              N == "insert_or_assign") &&
             Args.size() == 2)
      S.store(Args[1], false, *Into, MC->getBeginLoc());
    return S.Out;
  }
  if ((N == "push_back" || N == "push_front") && Args.size() == 1)
    S.store(Args[0], false, *Into, MC->getBeginLoc());
  else if (N == "emplace_back" || N == "emplace_front")
    S.construct(Args, *Into);
  else if (N == "emplace" && !Args.empty())
    S.construct(Args.drop_front(), *Into);
  else if (N == "insert" && Args.size() == 2 &&
           Args[1]->getType().getCanonicalType().getUnqualifiedType() ==
               valueType(Into->getType()).getCanonicalType())
    S.store(Args[1], false, *Into, MC->getBeginLoc());
  return S.Out;
}

} // namespace wrapguard
