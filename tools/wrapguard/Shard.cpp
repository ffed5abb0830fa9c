//===- Shard.cpp - Deterministic split of the TUs across CI jobs ----------===//

#include "Report.h"

using namespace llvm;

namespace wrapguard {

Expected<ShardSpec> parseShard(StringRef Text) {
  auto [K, N] = Text.split('/');
  ShardSpec Spec;
  if (K.trim().getAsInteger(10, Spec.Index) ||
      N.trim().getAsInteger(10, Spec.Count) || Spec.Count == 0 ||
      Spec.Index == 0 || Spec.Index > Spec.Count)
    return createStringError(inconvertibleErrorCode(),
                             "invalid --shard '%s': expected K/N with "
                             "1 <= K <= N, e.g. 2/4",
                             Text.str().c_str());
  return Spec;
}

// Round-robin over the sorted list: every shard of the same database gets a
// disjoint set, the union is every file, and sizes differ by at most one. A
// hash of the path would keep a file's shard when others are added, but
// shards are recomputed on every run, so balance matters more.
std::vector<std::string> selectShard(ArrayRef<std::string> Files,
                                     ShardSpec Spec) {
  std::vector<std::string> Out;
  for (size_t I = Spec.Index - 1; I < Files.size(); I += Spec.Count)
    Out.push_back(Files[I]);
  return Out;
}

} // namespace wrapguard
