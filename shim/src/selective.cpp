//===- selective.cpp - Selective recompute below autograd -----------------===//
//
// A boxed fallback kernel on DispatchKey::Fake. The key is included in the
// thread's dispatch key set only while a selective forward or recompute runs,
// so every other operator call in the process skips it. Redispatching goes
// to the keys after Fake with Fake excluded, so the operators a kernel calls
// inside are not seen again.
#include "selective.h"

#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/jit_type.h>
#include <ATen/ops/empty_strided.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

#include <algorithm>
#include <map>

namespace wrapguard {
namespace detail {
namespace {

thread_local SelectiveRecord *tls_record = nullptr;
thread_local SelectivePhase tls_phase = SelectivePhase::record;

void redispatch(const c10::OperatorHandle &op, c10::DispatchKeySet below,
                torch::jit::Stack *stack) {
  c10::impl::ExcludeDispatchKeyGuard guard(c10::DispatchKey::Fake);
  op.redispatchBoxed(below, stack);
}

void selective_fallback(const c10::OperatorHandle &op, c10::DispatchKeySet keys,
                        torch::jit::Stack *stack) {
  const c10::DispatchKeySet below =
      keys & c10::DispatchKeySet(c10::DispatchKeySet::FULL_AFTER,
                                 c10::DispatchKey::Fake);
  SelectiveRecord *record = tls_record;
  if (!record)
    redispatch(op, below, stack);
  else if (tls_phase == SelectivePhase::record)
    record->on_record(op, below, stack);
  else
    record->on_replay(op, below, stack);
}

void install_fallback() {
  // A function-local static: installed once per process, on first use, and
  // retried if installing threw.
  static const bool installed = [] {
    try {
      // Never destroyed: a Library deregisters its kernels when destroyed,
      // and the hook must outlive every checkpoint. Held by a static, so it
      // stays reachable (no leak report at exit).
      static torch::Library *library =
          new torch::Library(torch::Library::IMPL, "_", c10::DispatchKey::Fake,
                             __FILE__, __LINE__);
      library->fallback(
          torch::CppFunction::makeFromBoxedFunction<&selective_fallback>());
    } catch (const c10::Error &e) {
      TORCH_CHECK(
          false,
          "wrapguard: selective recompute cannot install its "
          "dispatcher hook on the Fake dispatch key (does another "
          "library, such as torchdistx, use that key?): ",
          e.what_without_backtrace(),
          "; use full recompute (CheckpointOptions().selective(false))");
    }
    return true;
  }();
  (void)installed;
}

bool is_generator(const c10::TypePtr &type) {
  if (type->kind() == c10::TypeKind::GeneratorType)
    return true;
  if (auto optional = type->cast<c10::OptionalType>())
    return optional->getElementType()->kind() == c10::TypeKind::GeneratorType;
  return false;
}

// A second tensor on `t`'s storage, sharing its version counter (so a write
// through `t` shows) but not its autograd metadata: autograd above sets the
// forward's history on `t` once its kernel returns, and a kept tensor with
// that history would hold the forward's whole graph until the backward.
at::Tensor without_history(const at::Tensor &t) {
  const c10::TensorImpl *impl = t.unsafeGetTensorImpl();
  return at::Tensor(impl->shallow_copy_and_detach(
      impl->version_counter(), /*allow_tensor_metadata_change=*/false));
}

// Calls `f` on every defined tensor in `value` (a tensor, or a list or tuple
// of them, optional tensors included).
template <typename F> void for_each_tensor(const c10::IValue &value, F &&f) {
  if (value.isTensor()) {
    if (value.toTensor().defined())
      f(value.toTensor());
  } else if (value.isList()) {
    for (const c10::IValue &element : value.toListRef())
      for_each_tensor(element, f);
  } else if (value.isTuple()) {
    for (const c10::IValue &element : value.toTupleRef().elements())
      for_each_tensor(element, f);
  }
}

bool is_tensor_value(const c10::IValue &value) {
  if (value.isTensor() || value.isNone())
    return true;
  if (value.isList()) {
    for (const c10::IValue &element : value.toListRef())
      if (!is_tensor_value(element))
        return false;
    return true;
  }
  return false;
}

// Operators whose output's shape depends on their input's values. Fed
// zeros, they would give another shape, and code that branches on a size
// (which the dispatcher never sees) could take another path.
bool shape_depends_on_values(const std::string &name) {
  static const std::set<std::string> names = {"aten::nonzero",
                                              "aten::nonzero_numpy",
                                              "aten::argwhere",
                                              "aten::masked_select",
                                              "aten::index",
                                              "aten::unique_dim",
                                              "aten::_unique",
                                              "aten::_unique2",
                                              "aten::unique_consecutive",
                                              "aten::unique_dim_consecutive",
                                              "aten::repeat_interleave",
                                              "aten::bincount"};
  return names.count(name) > 0;
}

// Operators that read only their tensor arguments' metadata (shape, dtype,
// device), never their values: zeros in those arguments change nothing.
bool reads_only_metadata(const std::string &name) {
  static const std::set<std::string> names = {
      "aten::empty_like",   "aten::zeros_like",  "aten::ones_like",
      "aten::full_like",    "aten::rand_like",   "aten::randn_like",
      "aten::randint_like", "aten::new_empty",   "aten::new_empty_strided",
      "aten::new_zeros",    "aten::new_ones",    "aten::new_full",
      "aten::size",         "aten::stride",      "aten::sym_size",
      "aten::sym_stride",   "aten::sym_numel",   "aten::numel",
      "aten::dim",          "aten::is_same_size"};
  return names.count(name) > 0;
}

// The returns of an operator that depend on its tensor arguments' shapes (and
// the RNG), not on their values, by position. A fused dropout draws its mask
// and applies it in one kernel, so at the granularity of operators the mask
// seems computed from the input; dropout's backward reads only the mask, and
// without this the input (the output of the Linear before dropout) would
// look needed. CUDA runs every dropout this way (at::dropout takes the fused
// path on CUDA, the unfused bernoulli_ one on the CPU).
const std::vector<std::size_t> &returns_from_shapes(const std::string &name) {
  static const std::vector<std::size_t> none;
  static const std::map<std::string, std::vector<std::size_t>> ops = {
      {"aten::native_dropout", {1}}, {"aten::_fused_dropout", {1}}};
  auto it = ops.find(name);
  return it == ops.end() ? none : it->second;
}

} // namespace

// ---------------------------------------------------------------------------
// DataFlow

int DataFlow::slot(const at::Tensor &t, bool made) {
  if (!t.has_storage())
    return -1;
  const c10::Storage &storage = t.storage();
  auto inserted = ids_.emplace(storage.unsafeGetStorageImpl(),
                               static_cast<int>(slots_.size()));
  if (inserted.second)
    slots_.push_back({storage.getWeakStorageImpl(), made});
  return inserted.first->second;
}

void DataFlow::before(const c10::FunctionSchema &schema,
                      const torch::jit::Stack &stack) {
  Op op;
  op.sink = shape_depends_on_values(schema.name());
  op.metadata = reads_only_metadata(schema.name());
  const auto &args = schema.arguments();
  const std::size_t first = stack.size() - args.size();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool write = args[i].alias_info() && args[i].alias_info()->isWrite();
    for_each_tensor(stack[first + i], [&](const at::Tensor &t) {
      const int id = slot(t, /*made=*/false);
      if (id < 0) {
        op.sink = true; // no storage to follow (sparse, opaque)
        return;
      }
      if (!op.metadata)
        op.reads.push_back(id);
      if (write) {
        op.writes.push_back(id);
        // State from before the forward (a running mean, say): zeros
        // written into it would outlive the recompute.
        op.sink = op.sink || !slots_[id].born;
      }
    });
  }
  ops_.push_back(std::move(op));
}

void DataFlow::after(const c10::FunctionSchema &schema,
                     const torch::jit::Stack &stack) {
  Op &op = ops_.back();
  const auto &returns = schema.returns();
  // Neither a result nor a write: called for an effect we cannot follow.
  if (returns.empty() && op.writes.empty())
    op.sink = true;
  const std::vector<std::size_t> &from_shapes =
      returns_from_shapes(schema.name());
  const std::size_t first = stack.size() - returns.size();
  for (std::size_t i = first; i < stack.size(); ++i) {
    if (!is_tensor_value(stack[i])) {
      // A number or a flag computed from values may steer control flow.
      op.sink = op.sink || !op.metadata;
      continue;
    }
    const bool shapes_only = std::find(from_shapes.begin(), from_shapes.end(),
                                       i - first) != from_shapes.end();
    for_each_tensor(stack[i], [&](const at::Tensor &t) {
      const int id = slot(t, /*made=*/true);
      if (id < 0)
        op.sink = true;
      else
        (shapes_only ? op.makes_from_shapes : op.makes).push_back(id);
    });
  }
}

std::vector<bool>
DataFlow::needed(const std::vector<const at::Tensor *> &ours) const {
  // Our handles on each storage, per tensor: each tensor holds one reference
  // to its storage, each handle one to its tensor.
  struct Held {
    const at::Tensor *tensor;
    std::size_t handles;
  };
  std::unordered_map<const c10::StorageImpl *,
                     std::unordered_map<const c10::TensorImpl *, Held>>
      held;
  for (const at::Tensor *t : ours) {
    if (!t->defined() || !t->has_storage())
      continue;
    auto &tensors = held[t->storage().unsafeGetStorageImpl()];
    auto it = tensors.emplace(t->unsafeGetTensorImpl(), Held{t, 0}).first;
    ++it->second.handles;
  }
  std::vector<bool> slot_needed(slots_.size(), false);
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const Slot &slot = slots_[s];
    if (!slot.born || slot.storage.expired())
      continue;
    auto it = held.find(slot.storage._unsafe_get_target());
    if (it == held.end()) {
      slot_needed[s] = true; // alive, and not through us
      continue;
    }
    // Held by another tensor (the graph saved a view or a shallow copy), or
    // one of our tensors has another owner (the graph saved that very one).
    bool elsewhere = slot.storage.use_count() > it->second.size();
    for (const auto &tensor : it->second)
      elsewhere = elsewhere ||
                  static_cast<std::size_t>(tensor.second.tensor->use_count()) >
                      tensor.second.handles;
    slot_needed[s] = elsewhere;
  }
  // Backwards through the operators: one that made or wrote a needed value
  // is needed, and so is everything it read.
  std::vector<bool> op_needed(ops_.size(), false);
  for (std::size_t i = ops_.size(); i-- > 0;) {
    const Op &op = ops_[i];
    bool need_values = op.sink;
    for (int s : op.makes)
      need_values = need_values || slot_needed[s];
    for (int s : op.writes)
      need_values = need_values || slot_needed[s];
    bool need = need_values;
    for (int s : op.makes_from_shapes)
      need = need || slot_needed[s];
    if (!need)
      continue;
    op_needed[i] = true;
    if (!need_values)
      continue; // what it read may be zeros: its needed outputs stay the same
    for (int s : op.reads)
      slot_needed[s] = true;
  }
  return op_needed;
}

void DataFlow::clear() {
  ops_.clear();
  slots_.clear();
  ids_.clear();
}

// ---------------------------------------------------------------------------
// SavedOps

std::shared_ptr<const SavedOps>
SavedOps::get(const std::vector<std::string> &names) {
  static std::mutex mutex;
  static std::map<std::set<std::string>, std::shared_ptr<const SavedOps>> sets;
  std::set<std::string> key(names.begin(), names.end());
  std::lock_guard<std::mutex> lock(mutex);
  auto &slot = sets[key];
  if (!slot)
    slot = std::make_shared<const SavedOps>(std::move(key));
  return slot;
}

bool SavedOps::keeps(const c10::OperatorHandle &op) const {
  const c10::FunctionSchema &schema = op.schema();
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = cache_.find(&schema);
  if (it == cache_.end())
    it = cache_.emplace(&schema, decide(schema)).first;
  return it->second;
}

bool SavedOps::decide(const c10::FunctionSchema &schema) const {
  if (!names_.count(schema.name()) || schema.returns().empty())
    return false;
  for (const c10::Argument &ret : schema.returns())
    if (ret.alias_info() || ret.type()->kind() != c10::TypeKind::TensorType)
      return false;
  for (const c10::Argument &arg : schema.arguments())
    if (is_generator(arg.type()))
      return false;
  return true;
}

// ---------------------------------------------------------------------------
// SelectiveRecord

void SelectiveRecord::on_record(const c10::OperatorHandle &op,
                                c10::DispatchKeySet below,
                                torch::jit::Stack *stack) {
  if (!entries_.empty())
    snapshot_before_write(op, *stack);
  const std::size_t index = flow_.size();
  flow_.before(op.schema(), *stack);
  redispatch(op, below, stack);
  flow_.after(op.schema(), *stack);
  if (!ops || !ops->keeps(op))
    return;
  Entry entry;
  entry.op = index;
  entry.schema = &op.schema();
  const std::size_t returns = entry.schema->returns().size();
  for (std::size_t i = stack->size() - returns; i < stack->size(); ++i) {
    const at::Tensor &t = (*stack)[i].toTensor();
    entry.outputs.emplace_back(t.defined() ? without_history(t) : t);
    entry.versions.push_back(t.defined() ? t._version() : 0);
  }
  entries_.push_back(std::move(entry));
}

// An operator about to write into a tensor that shares storage with a kept
// output (the bias add_ that linear runs on matmul's output, say) would change
// what the recompute gets back. Keep a copy of the value from before the write.
void SelectiveRecord::snapshot_before_write(const c10::OperatorHandle &op,
                                            const torch::jit::Stack &stack) {
  const auto &args = op.schema().arguments();
  const std::size_t first = stack.size() - args.size();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].alias_info() || !args[i].alias_info()->isWrite())
      continue;
    const c10::IValue &value = stack[first + i];
    if (value.isTensor())
      snapshot_if_kept(value.toTensor());
    else if (value.isTensorList())
      for (const at::Tensor &t : value.toTensorList().vec())
        snapshot_if_kept(t);
  }
}

void SelectiveRecord::snapshot_if_kept(const at::Tensor &written) {
  if (!written.defined() || !written.has_storage())
    return;
  const void *storage = written.storage().unsafeGetStorageImpl();
  for (Entry &entry : entries_) {
    for (std::size_t k = 0; k < entry.outputs.size(); ++k) {
      const at::Tensor &kept = entry.outputs[k].toTensor();
      if (!kept.defined() || !kept.has_storage() ||
          kept.storage().unsafeGetStorageImpl() != storage)
        continue;
      at::AutoDispatchBelowADInplaceOrView below_autograd;
      c10::impl::ExcludeDispatchKeyGuard guard(c10::DispatchKey::Fake);
      at::Tensor copy = kept.clone(at::MemoryFormat::Preserve);
      entry.versions[k] = copy._version();
      entry.outputs[k] = std::move(copy);
    }
  }
}

void SelectiveRecord::on_replay(const c10::OperatorHandle &op,
                                c10::DispatchKeySet below,
                                torch::jit::Stack *stack) {
  if (replayed_ || !ops || !ops->keeps(op)) {
    redispatch(op, below, stack);
    return;
  }
  const c10::FunctionSchema &schema = op.schema();
  TORCH_CHECK(next_ < entries_.size(),
              "wrapguard: selective recompute: the recompute ran ",
              schema.name(), " after all ", entries_.size(),
              " kept outputs were used; a checkpointed forward must run the "
              "same operators each time");
  Entry &entry = entries_[next_++];
  TORCH_CHECK(entry.schema == &schema,
              "wrapguard: selective recompute: the recompute ran ",
              schema.name(), " where the forward ran ", entry.schema->name(),
              "; a checkpointed forward must run the same operators each time");
  if (entry.dropped) {
    // Nothing the backward reads is computed from this output, so any value
    // of the right layout will do; zeros keep the recompute deterministic.
    torch::jit::drop(*stack, schema.arguments().size());
    at::AutoDispatchBelowADInplaceOrView below_autograd;
    c10::impl::ExcludeDispatchKeyGuard guard(c10::DispatchKey::Fake);
    for (const Entry::Layout &layout : entry.layouts)
      stack->emplace_back(
          layout.defined
              ? at::empty_strided(layout.sizes, layout.strides, layout.options)
                    .zero_()
              : at::Tensor());
    ++counts_.skipped;
    return;
  }
  bool intact = true;
  for (std::size_t k = 0; k < entry.outputs.size(); ++k) {
    const at::Tensor &t = entry.outputs[k].toTensor();
    intact = intact && (!t.defined() || t._version() == entry.versions[k]);
  }
  if (!intact) {
    // Written in place after the forward (through its output, say): the
    // kept value is stale, so compute this one.
    entry.outputs.clear();
    redispatch(op, below, stack);
    return;
  }
  torch::jit::drop(*stack, schema.arguments().size());
  for (c10::IValue &value : entry.outputs) {
    // A new TensorImpl on the same storage, with no autograd metadata and its
    // own version counter: autograd above attaches the recompute's history
    // to it, never to a tensor the forward handed out.
    const at::Tensor &t = value.toTensor();
    stack->emplace_back(t.defined() ? t.variable_data() : t);
  }
  entry.outputs.clear();
  ++counts_.reused;
}

std::int64_t
SelectiveRecord::finish_record(const std::vector<at::Tensor> &outputs) {
  std::vector<const at::Tensor *> ours;
  for (const at::Tensor &t : outputs)
    ours.push_back(&t);
  for (const Entry &entry : entries_)
    for (const c10::IValue &value : entry.outputs)
      ours.push_back(&value.toTensor());
  const std::vector<bool> needed = flow_.needed(ours);
  flow_.clear();
  std::int64_t dropped = 0;
  for (Entry &entry : entries_) {
    if (needed[entry.op])
      continue;
    for (const c10::IValue &value : entry.outputs) {
      const at::Tensor &t = value.toTensor();
      Entry::Layout layout;
      layout.defined = t.defined();
      if (layout.defined) {
        layout.sizes = t.sizes().vec();
        layout.strides = t.strides().vec();
        layout.options = t.options();
      }
      entry.layouts.push_back(std::move(layout));
    }
    entry.dropped = true;
    entry.outputs.clear();
    entry.versions.clear();
    ++dropped;
  }
  skips_ = dropped;
  return dropped;
}

SelectiveRecord::Replayed SelectiveRecord::finish_replay() {
  if (replayed_)
    return {};
  const std::size_t used = next_, total = entries_.size();
  entries_.clear();
  next_ = 0;
  skips_ = 0; // a later recompute computes everything
  replayed_ = true;
  TORCH_CHECK(used == total,
              "wrapguard: selective recompute: the recompute used ", used,
              " of the ", total,
              " kept outputs; a checkpointed forward must run the same "
              "operators each time");
  return counts_;
}

// ---------------------------------------------------------------------------
// SelectiveMode

SelectiveMode::SelectiveMode(SelectiveRecord *record, SelectivePhase phase)
    : saved_keys_(c10::impl::tls_local_dispatch_key_set()) {
  if (!record && !tls_record)
    return; // nothing to turn off
  if (record)
    install_fallback();
  active_ = true;
  saved_record_ = tls_record;
  saved_phase_ = tls_phase;
  c10::impl::LocalDispatchKeySet keys = saved_keys_;
  const c10::DispatchKeySet fake(c10::DispatchKey::Fake);
  if (record) {
    keys.included_ = keys.included_ | fake;
    keys.excluded_ = keys.excluded_.remove(c10::DispatchKey::Fake);
  } else {
    keys.included_ = keys.included_.remove(c10::DispatchKey::Fake);
  }
  c10::impl::_force_tls_local_dispatch_key_set(keys);
  tls_record = record;
  tls_phase = phase;
}

SelectiveMode::~SelectiveMode() {
  if (!active_)
    return;
  c10::impl::_force_tls_local_dispatch_key_set(saved_keys_);
  tls_record = saved_record_;
  tls_phase = saved_phase_;
}

} // namespace detail
} // namespace wrapguard
