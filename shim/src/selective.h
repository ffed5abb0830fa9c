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
//
// Not every kept output is worth its memory: the backward reads some (a
// matmul whose result GELU saves) and never others (the last Linear of a
// block, whose result only dropout and the residual add read, and neither
// saves it). So the forward runs with grad on, as its recompute will, while a
// DataFlow logs which storages each operator reads, writes and makes. After
// it, the storages that the autograd graph still holds, and everything they
// were computed from, are what the backward reads; kept outputs outside that
// set are dropped, and the recompute hands back zeros in their place instead
// of computing them again.
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

#include <ATen/core/Tensor.h>
#include <c10/core/StorageImpl.h>
#include <c10/util/intrusive_ptr.h>

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

/// The data flow of one forward, at the granularity of storages (a view and
/// its base are one value; an in-place write is a read and a write of it).
class DataFlow {
public:
  /// Logs an operator that is about to run, from its arguments on `stack`.
  void before(const c10::FunctionSchema &schema,
              const torch::jit::Stack &stack);
  /// Completes the operator logged last, from its returns on `stack`.
  void after(const c10::FunctionSchema &schema, const torch::jit::Stack &stack);
  /// How many operators were logged; the next one gets this index.
  std::size_t size() const { return ops_.size(); }

  /// For each logged operator, whether the backward can read a value it
  /// computed: a storage it made or wrote is still held, once the forward is
  /// over, by something other than `ours` (the graph saved it, or the module
  /// keeps it), or feeds such a storage, or the operator is a sink (its result
  /// leaves the tensor world, it writes state from before the forward, or its
  /// output's shape depends on values).
  std::vector<bool> needed(const std::vector<const at::Tensor *> &ours) const;

  void clear();

private:
  struct Op {
    std::vector<int> reads, writes, makes;
    // Made from the arguments' shapes and the RNG alone, never from their
    // values (the mask of a fused dropout): needing one runs the operator
    // but needs none of what it read.
    std::vector<int> makes_from_shapes;
    bool sink = false;
    bool metadata = false; // reads its arguments' shapes, not their values
  };
  struct Slot {
    // Weak, so the storage dies when its last tensor does (the test of what
    // the graph holds), yet its address is not reused while logged.
    c10::weak_intrusive_ptr<c10::StorageImpl> storage;
    bool born = false; // first made by a logged operator
  };
  // The slot of `t`'s storage, -1 for a tensor without one.
  int slot(const at::Tensor &t, bool made);

  std::vector<Op> ops_;
  std::vector<Slot> slots_;
  std::unordered_map<const c10::StorageImpl *, int> ids_;
};

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

  /// After the forward, which ran with grad on: drops the kept outputs whose
  /// values the backward cannot read, given `outputs`, the forward's results
  /// still attached to the graph it built; returns how many it dropped.
  std::int64_t finish_record(const std::vector<at::Tensor> &outputs);

  /// What one recompute did with the kept outputs.
  struct Replayed {
    std::int64_t reused = 0;  // handed back instead of computing
    std::int64_t skipped = 0; // dropped after the forward: zeros instead
  };
  /// After a recompute: checks that it used every kept output, and drops
  /// them (the recomputed graph holds what it needs). A later recompute of
  /// the same forward (backward with retain_graph) recomputes everything.
  Replayed finish_replay();

  /// Whether the recompute will hand back zeros for some outputs: then the
  /// backward must read exactly what the forward's graph would have read.
  bool skips() const { return skips_ > 0; }

private:
  struct Entry {
    const c10::FunctionSchema *schema = nullptr;
    std::vector<c10::IValue> outputs;
    std::vector<std::int64_t> versions;
    std::size_t op = 0; // index of the operator in flow_
    // Dropped (the backward reads no value computed from it): the layout of
    // each output, for the zeros the recompute hands back instead.
    bool dropped = false;
    struct Layout {
      bool defined = false;
      std::vector<std::int64_t> sizes, strides;
      at::TensorOptions options;
    };
    std::vector<Layout> layouts;
  };
  void snapshot_before_write(const c10::OperatorHandle &op,
                             const torch::jit::Stack &stack);
  void snapshot_if_kept(const at::Tensor &written);

  std::vector<Entry> entries_;
  DataFlow flow_;
  std::size_t next_ = 0;
  std::int64_t skips_ = 0;
  Replayed counts_;
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
