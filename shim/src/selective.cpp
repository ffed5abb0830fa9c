//===- selective.cpp - Selective recompute below autograd -----------------===//
//
// A boxed fallback kernel on DispatchKey::Fake. The key is included in the
// thread's dispatch key set only while a selective forward or recompute runs,
// so every other operator call in the process skips it. Redispatching goes
// to the keys after Fake with Fake excluded, so the operators a kernel calls
// inside are not seen again.
#include "selective.h"

#include <ATen/core/jit_type.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

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

} // namespace

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
  redispatch(op, below, stack);
  if (!ops || !ops->keeps(op))
    return;
  Entry entry;
  entry.schema = &op.schema();
  const std::size_t returns = entry.schema->returns().size();
  for (std::size_t i = stack->size() - returns; i < stack->size(); ++i) {
    const at::Tensor &t = (*stack)[i].toTensor();
    entry.outputs.emplace_back(t);
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
  ++reused_;
}

std::int64_t SelectiveRecord::finish_replay() {
  if (replayed_)
    return 0;
  const std::size_t used = next_, total = entries_.size();
  entries_.clear();
  next_ = 0;
  replayed_ = true;
  TORCH_CHECK(used == total,
              "wrapguard: selective recompute: the recompute used ", used,
              " of the ", total,
              " kept outputs; a checkpointed forward must run the same "
              "operators each time");
  return reused_;
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
