//===- selective.h - Selective recompute below autograd ---------*- C++ -*-===//
//
// The dispatcher hook behind CheckpointOptions::selective. While a selective
// checkpointed forward runs, a fallback kernel on the Fake dispatch key (an
// out-of-tree key that LibTorch leaves free, placed between autograd and the
// backends) sees every operator below autograd and keeps the outputs of the
// chosen ones. While its recompute runs, those operators hand back the kept
// outputs instead of computing, and autograd above them records its nodes as
// it would for a plain forward. The kernels that do run are the ones a plain
// forward runs, so values and grads are bit-identical.
#ifndef WRAPGUARD_SELECTIVE_H
#define WRAPGUARD_SELECTIVE_H

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/stack.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace wrapguard {
namespace detail {

/// The operators whose outputs a selective forward keeps.
class SavedOps {
public:
  /// The set for `names` (schema names such as "aten::mm"), shared by every
  /// checkpoint that asks for the same list.
  static std::shared_ptr<const SavedOps>
  get(const std::vector<std::string> &names);

  /// Whether the outputs of `op` are kept: it is named, returns only fresh
  /// tensors (no view or alias of an input), and draws no random numbers
  /// (skipping it in the recompute would shift the RNG stream).
  bool keeps(const c10::OperatorHandle &op) const;

  explicit SavedOps(std::set<std::string> names) : names_(std::move(names)) {}

private:
  bool decide(const c10::FunctionSchema &schema) const;

  std::set<std::string> names_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<const c10::FunctionSchema *, bool> cache_;
};

enum class SelectivePhase { record, replay };

/// The outputs one selective forward kept, in the order its operators ran;
/// its recompute hands them back in the same order, once.
class SelectiveRecord {
public:
  /// What to keep; set before the forward.
  std::shared_ptr<const SavedOps> ops;

  /// The fallback kernel's two modes (see selective.cpp).
  void on_record(const c10::OperatorHandle &op, c10::DispatchKeySet below,
                 torch::jit::Stack *stack);
  void on_replay(const c10::OperatorHandle &op, c10::DispatchKeySet below,
                 torch::jit::Stack *stack);

  /// After a recompute: checks that it reused every kept output, and drops
  /// them (the recomputed graph holds what it needs); returns how many it
  /// reused. A later recompute of the same forward (backward with
  /// retain_graph) recomputes everything.
  std::int64_t finish_replay();

private:
  struct Entry {
    const c10::FunctionSchema *schema = nullptr;
    std::vector<c10::IValue> outputs;
    std::vector<std::int64_t> versions;
  };
  void snapshot_before_write(const c10::OperatorHandle &op,
                             const torch::jit::Stack &stack);
  void snapshot_if_kept(const at::Tensor &written);

  std::vector<Entry> entries_;
  std::size_t next_ = 0;
  std::int64_t reused_ = 0;
  bool replayed_ = false;
};

/// While alive, operators on this thread go through `record` in `phase`.
/// With a null `record` it turns selective interception off for its scope
/// (a plain checkpoint nested in a selective one keeps nothing).
class SelectiveMode {
public:
  SelectiveMode(SelectiveRecord *record, SelectivePhase phase);
  ~SelectiveMode();
  SelectiveMode(const SelectiveMode &) = delete;
  SelectiveMode &operator=(const SelectiveMode &) = delete;

private:
  bool active_ = false;
  c10::impl::LocalDispatchKeySet saved_keys_;
  SelectiveRecord *saved_record_ = nullptr;
  SelectivePhase saved_phase_ = SelectivePhase::record;
};

} // namespace detail
} // namespace wrapguard

#endif // WRAPGUARD_SELECTIVE_H
