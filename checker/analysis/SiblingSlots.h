//===- SiblingSlots.h - What a call says of its table's other slots -*- C++
//-*-===//
//
// Interface tables often fill their slots together: every table that sets
// `event_new` also sets `event_free`, every handler that leaves `on_error`
// empty sets `on_error2`. A call through one slot then says something about
// the others of the same object:
//
//   if (meta->on_error) meta->on_error(x); else meta->on_error2(x);
//   void event_free(event_t e) { e->device->iface.event_free(e->device, e); }
//
// In the first, the path proves `on_error` empty; in the second, the call
// passes an event, which only the `event_new` slot of the same table makes,
// so that slot is set wherever an event exists. This file reads those
// premises off the call, as atoms over the sibling fields (`m:<USR>` set,
// `!m:<USR>` empty, `m:<USR>|m:<USR>` one of them set); the project's
// constructions of the table decide whether they imply the called slot
// (Candidate::Slots, facts/Resolve.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WRAPGUARD_ANALYSIS_SIBLINGSLOTS_H
#define WRAPGUARD_ANALYSIS_SIBLINGSLOTS_H

#include "CallSite.h"
#include "CallableTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include <string>
#include <vector>

namespace wrapguard {

/// For a call through a field of a record (`X.b(..)`, `X->b(..)`), the atoms
/// that hold there of the other callable fields of the same object X:
/// - a test of `X.a` on the way to the call (the enclosing `if`s and `?:`
///   and the early exits before it) gives `m:a` or `!m:a`;
/// - an argument that points or refers to an object of a class that slots
///   `a`, `c` of the record make (the result points to one, or the slot
///   takes a pointer to a pointer to one, `create(&h)`) gives `m:a|m:c`:
///   the object exists, so a slot that makes it was set.
/// Sorted, without duplicates; empty for any other call.
std::vector<std::string> siblingSlotAtoms(const CallSite &Site,
                                          clang::ParentMap &PM,
                                          const CallableTypes &Types,
                                          clang::ASTContext &Ctx);

} // namespace wrapguard

#endif // WRAPGUARD_ANALYSIS_SIBLINGSLOTS_H
