//===- ContainerElements.h - Callables kept in standard containers -*- C++
//-*-===//
//
// A project that keeps its callbacks in a standard container held by a field
// or a global (`std::map<int, std::pair<Notifier, Callback>> writePoll;`,
// `std::vector<Handler> handlers_;`) stores them in one function and calls
// them in another. The element is then a source of its own, like a field: what
// the project stores there decides whether a call through it may be empty.
//
// This file names the element a read denotes (`writePoll[fd].second`,
// `std::get<0>(it->second)` with `it` over `subscriptions_`) and the values a
// write stores (`writePoll[fd] = WatchPair(n, std::move(cb))`,
// `subscriptions_.insert(*it)` with `it` over another container). Which
// values those are, the facts collector judges as it judges arguments.
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_CONTAINERELEMENTS_H
#define WRAPGUARD_ANALYSIS_CONTAINERELEMENTS_H

#include "BodyIndex.h"
#include "CallableTypes.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace wrapguard {

/// One callable part of the elements of a container field or global: the
/// element itself (Component < 0; a map's mapped value), or member N of a
/// std::pair or std::tuple element (`.first` is 0, `.second` 1,
/// `std::get<N>`).
struct ElementRef {
  const clang::ValueDecl *Container = nullptr;
  int Component = -1;
};

/// "e:<USR of the container>#N" ("#v" for the element itself); none for a
/// container without a key (a local, a library's).
std::optional<std::string> elementKey(const ElementRef &R);
/// How messages name the part: `Impl::writePoll[].second`,
/// `std::get<0>(Event<int>::subscriptions_[])`, `registry[]`.
std::string elementName(const ElementRef &R);

/// The element part that E reads, when E is a callable: `F[k]`, `F.at(k)`,
/// `F.front()`, `it->second` or `*it` with `it` a local iterator that only
/// `F.begin()`, `F.find(k)` and the like give values, or a range-for
/// variable over F; then `.first`, `.second` or `std::get<N>` of a pair or
/// tuple element. Owner is the function E is in (its index tells where its
/// iterators come from).
std::optional<ElementRef> elementRead(const clang::Expr &E,
                                      const clang::FunctionDecl &Owner,
                                      const BodyIndex &Index,
                                      const CallableTypes &Types);

/// What a write stores in one callable part of a container's elements:
/// Value, an expression in the writing function (the caller judges it as
/// it judges an argument); or, when the value is copied from another
/// container's element (`F.insert(*it)`), From. Neither: unknown.
struct StoredPart {
  ElementRef Part;
  const clang::Expr *Value = nullptr;
  std::optional<ElementRef> From;
};

/// The callable parts that E stores, when E writes elements of a container
/// field or global: `F[k] = v`, `F[k].second = v`, `F.insert(v)`,
/// `F.emplace(k, v)`, `F.push_back(v)`, `F.emplace_back(a, b)` and the like.
/// A pair or tuple is followed through its construction (`Pair(a, b)`,
/// `std::make_tuple(a, b)`, `{a, b}`) and a local's last value before the
/// write, in source order. Empty when E writes no such element.
llvm::SmallVector<StoredPart, 2> storedParts(const clang::Expr &E,
                                             const clang::FunctionDecl &Owner,
                                             const BodyIndex &Index,
                                             const CallableTypes &Types);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_CONTAINERELEMENTS_H
