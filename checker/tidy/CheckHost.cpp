//===- CheckHost.cpp - What the check asks of whoever runs it -------------===//

#include "CheckHost.h"
#include "llvm/ADT/DenseMap.h"
#include <cassert>
#include <mutex>

namespace wrapguard {

namespace {
/// Hosts by context. The scanner runs TUs on several threads, each with a
/// context of its own, so this is shared and locked; it is consulted once
/// per check instance, when the check is created.
struct Installed {
  std::mutex Lock;
  llvm::DenseMap<const clang::tidy::ClangTidyContext *, CheckHost *> Hosts;
};
Installed &installed() {
  static Installed I;
  return I;
}
} // namespace

CheckHost::~CheckHost() {
  // A context whose thread crashed (the scanner survives that) never ran its
  // ScopedCheckHost's destructor; its host's end removes what it left.
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  // Erasing leaves the other iterators of a DenseMap valid.
  for (auto It = I.Hosts.begin(), End = I.Hosts.end(); It != End; ++It)
    if (It->second == this)
      I.Hosts.erase(It);
}

ScopedCheckHost::ScopedCheckHost(const clang::tidy::ClangTidyContext &Context,
                                 CheckHost &Host)
    : Context(Context) {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  bool New = I.Hosts.try_emplace(&Context, &Host).second;
  assert(New && "a context has one host");
  (void)New;
}

ScopedCheckHost::~ScopedCheckHost() {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  I.Hosts.erase(&Context);
}

CheckHost *installedCheckHost(const clang::tidy::ClangTidyContext &Context) {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  return I.Hosts.lookup(&Context);
}

} // namespace wrapguard
