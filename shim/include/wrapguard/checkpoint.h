//===- checkpoint.h - Activation checkpointing for LibTorch -----*- C++ -*-===//
//
// CheckpointWrapper for modules, checkpoint() for functions and
// checkpoint_sequential() for a Sequential: forwards that keep only their
// inputs (and, with selective recompute, the outputs of costly operators) and
// recompute the rest in the backward.
#ifndef WRAPGUARD_CHECKPOINT_H
#define WRAPGUARD_CHECKPOINT_H

#include <ATen/core/Generator.h>
#include <c10/core/Device.h>
#include <c10/util/Exception.h>
#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/common.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace wrapguard {

/// A forward over tensors: what a checkpoint recomputes.
using TensorFn = std::function<std::vector<torch::Tensor>(
    const std::vector<torch::Tensor> &)>;

/// Options for `CheckpointWrapper`, `checkpoint_sequential` and the wrappers
/// that policies and plans build.
///
/// Example:
/// ```
///   auto selective = wrapguard::CheckpointOptions().selective(true);
///   wrapguard::CheckpointWrapper ckpt(block, selective);
/// ```
struct CheckpointOptions {
  /// Save the CPU generator (and the CUDA generator of the inputs' device) at
  /// forward time and replay it during the recompute, so dropout draws the
  /// same mask. Python's `preserve_rng_state`.
  TORCH_ARG(bool, preserve_rng_state) = true;
  /// Selective recompute: the forward keeps the outputs of the operators in
  /// `saved_ops` that the backward reads (directly, or through the operators
  /// after them), and the backward recomputes only the other operators
  /// (norms, activations, dropout with its RNG replayed), reusing the kept
  /// outputs and skipping the `saved_ops` whose values it does not read.
  /// More memory than full recompute, much less time. The forward runs with
  /// grad on, as the recompute does, to see what the backward reads; a
  /// parameter's requires_grad must not change between forward and backward.
  TORCH_ARG(bool, selective) = false;
  /// The operators whose outputs selective recompute keeps, by schema name
  /// as the dispatcher sees them below autograd ("aten::mm"). Operators that
  /// return a view or an input, or that draw random numbers, are always
  /// recomputed, whatever this list says.
  TORCH_ARG(std::vector<std::string>, saved_ops) = default_saved_ops();

  /// Matrix products (what linear layers and matmul come down to: mm, addmm,
  /// bmm, baddbmm, addbmm, mv, addmv, dot) and convolutions (convolution,
  /// _convolution).
  static std::vector<std::string> default_saved_ops();
};

/// The stages of one checkpointed call, as a `detail::CheckpointObserver`
/// sees them (the planner profiles a step with them).
enum class CheckpointPhase {
  forward_begin,
  forward_end,
  recompute_begin,
  recompute_end,
  backward_end,
};

namespace detail {

/// What a checkpoint's backward passes did, shared by its calls.
struct CheckpointCounters {
  /// Recomputes run.
  std::atomic<std::int64_t> recomputes{0};
  /// Outputs that selective recomputes reused instead of computing.
  std::atomic<std::int64_t> reused_outputs{0};
  /// Outputs of `saved_ops` that selective forwards did not keep, as the
  /// backward reads no value computed from them; the recompute skipped them.
  std::atomic<std::int64_t> skipped_outputs{0};
};

/// Called at each `CheckpointPhase` of a checkpointed call.
using CheckpointObserver = std::function<void(CheckpointPhase phase)>;

/// Runs `fn` on `inputs` without keeping its activations. `params` are the
/// leaves `fn` reads besides its inputs (a module's parameters): they become
/// inputs of the autograd node, so their grads flow through the graph and
/// `torch::autograd::grad` reaches them. When `accumulate_unknown_leaves` is
/// true (plain functions, whose parameters are unknown) the recompute instead
/// accumulates into every leaf it reaches, which needs `.backward()`.
std::vector<torch::Tensor>
checkpoint_impl(TensorFn fn, const std::vector<torch::Tensor> &inputs,
                const std::vector<torch::Tensor> &params,
                std::shared_ptr<CheckpointCounters> counters,
                const CheckpointOptions &options,
                bool accumulate_unknown_leaves,
                const CheckpointObserver &observer = {});

/// Builds a `TensorFn` over a type-erased module. Errors from a forward that
/// does not take or return tensors are rethrown with the module's name.
TensorFn any_module_forward(torch::nn::AnyModule module);

/// Records, on the call site whose callable is running (see call.h), that it
/// wrapped `module`.
void note_wrapped_at_current_site(const torch::nn::Module &module);

/// The CUDA devices that the defined tensors of `a` and `b` live on: those
/// whose RNG state a recompute of the code that uses them must replay.
std::set<c10::DeviceIndex> cuda_devices_of(const std::vector<torch::Tensor> &a,
                                           const std::vector<torch::Tensor> &b);

/// Fails with a `c10::Error` that names both devices when the defined
/// tensors of `inputs`, or those and a parameter or buffer of `module`, sit on
/// different devices. `who` starts the message
/// ("wrapguard::plan_checkpointing"). Checked before anything runs, so the
/// caller sees the cause rather than ATen's error from the first operator that
/// mixes them.
void check_one_device(const torch::nn::Module &module,
                      const std::vector<torch::Tensor> &inputs,
                      const char *who);

/// The states of the CPU generator and of the default generators of some
/// CUDA devices; `restore()` puts them back.
class RngState {
public:
  /// Holds nothing; `restore()` does nothing.
  RngState() = default;
  /// The current states of the CPU generator and of the default generator of
  /// each CUDA device in `cuda_devices`.
  static RngState capture(const std::set<c10::DeviceIndex> &cuda_devices = {});
  /// The state tensors: the CPU generator's, then each CUDA device's in
  /// order (what a checkpoint saves for its backward).
  std::vector<torch::Tensor> tensors() const;
  /// The state that `tensors()` of a capture for `cuda_devices` returned.
  static RngState from_tensors(const std::set<c10::DeviceIndex> &cuda_devices,
                               const std::vector<torch::Tensor> &tensors);
  void restore() const;

private:
  torch::Tensor cpu_;
  std::vector<std::pair<c10::DeviceIndex, torch::Tensor>> cuda_;
};

/// Restores the RNG states of the CPU and the given CUDA devices when it goes
/// out of scope, as Python's `torch.random.fork_rng`.
class ForkRng {
public:
  explicit ForkRng(const std::set<c10::DeviceIndex> &cuda_devices = {})
      : saved_(RngState::capture(cuda_devices)) {}
  ~ForkRng() { saved_.restore(); }
  ForkRng(const ForkRng &) = delete;
  ForkRng &operator=(const ForkRng &) = delete;

private:
  RngState saved_;
};

/// Whether any parameter type of M::forward decays to a tensor; used to turn a
/// module whose forward takes no tensor into a clear runtime error.
template <typename M> struct forward_takes_tensor {
  template <typename R, typename C, typename... A>
  static constexpr bool check(R (C::*)(A...)) {
    return (std::is_same_v<std::decay_t<A>, torch::Tensor> || ...);
  }
  template <typename R, typename C, typename... A>
  static constexpr bool check(R (C::*)(A...) const) {
    return (std::is_same_v<std::decay_t<A>, torch::Tensor> || ...);
  }
  static constexpr bool value = check(&M::forward);
};

template <typename F, std::size_t... I>
auto call_with_tensors(F &f, const std::vector<torch::Tensor> &args,
                       std::index_sequence<I...>) {
  return f(args[I]...);
}

} // namespace detail

/// Wraps a module so that its forward keeps only its inputs; the backward
/// recomputes the forward with grad enabled (same RNG, autocast state) and
/// back-propagates through it. Grads equal the plain module's. With
/// `options.selective()`, the forward also keeps the outputs of the operators
/// in `options.saved_ops()` that the backward reads; the recompute reuses
/// them and skips those operators whose outputs it does not read.
///
/// The wrapped module's forward must take 1 to 4 tensors and return a tensor.
/// Each backward through the wrapper recomputes once; `recompute_count()`
/// counts them.
///
/// Example:
/// ```
///   auto block = torch::nn::Linear(512, 512);
///   wrapguard::CheckpointWrapper ckpt(block);
///   auto y = ckpt(x);            // no activations of `block` kept
///   y.sum().backward();          // recomputes `block` once
///   ckpt->options.selective(true); // next backward skips the matmul: its
///                                  // output is never read, only its inputs
/// ```
class CheckpointWrapperImpl
    : public torch::nn::Cloneable<CheckpointWrapperImpl> {
public:
  /// Wraps a type-erased module (what `apply_activation_checkpointing` finds
  /// in a `torch::nn::Sequential`).
  explicit CheckpointWrapperImpl(torch::nn::AnyModule module,
                                 CheckpointOptions options = {});

  /// Wraps a module handle, e.g. `torch::nn::Linear` or a `TORCH_MODULE`.
  template <typename ModuleType>
  explicit CheckpointWrapperImpl(torch::nn::ModuleHolder<ModuleType> module,
                                 CheckpointOptions options = {})
      : CheckpointWrapperImpl(checked_any(module.ptr()), options) {}

  /// Wraps a module given by shared pointer.
  template <typename ModuleType, typename = std::enable_if_t<std::is_base_of_v<
                                     torch::nn::Module, ModuleType>>>
  explicit CheckpointWrapperImpl(std::shared_ptr<ModuleType> module,
                                 CheckpointOptions options = {})
      : CheckpointWrapperImpl(checked_any(std::move(module)), options) {}

  /// Deep-copies the wrapped module (used by `clone()`).
  void reset() override;

  /// Runs the wrapped module on 1 to 4 tensors (undefined trailing tensors
  /// are not passed on).
  torch::Tensor forward(const torch::Tensor &input,
                        const torch::Tensor &input2 = {},
                        const torch::Tensor &input3 = {},
                        const torch::Tensor &input4 = {});

  /// Backward passes that recomputed this wrapper's module so far.
  std::int64_t recompute_count() const { return counters_->recomputes.load(); }

  /// Operator outputs that its selective recomputes reused so far, instead of
  /// computing them again (0 with full recompute).
  std::int64_t reused_output_count() const {
    return counters_->reused_outputs.load();
  }

  /// Outputs of `saved_ops` operators that its selective forwards did not
  /// keep because the backward reads nothing computed from them (the last
  /// Linear of a block that ends in dropout and a residual add), and that its
  /// recomputes therefore skipped.
  std::int64_t skipped_output_count() const {
    return counters_->skipped_outputs.load();
  }

  /// The wrapped module.
  const torch::nn::AnyModule &module() const { return module_; }

  /// Calls `observer` at each phase of every later checkpointed call (the
  /// planner's profile uses it); an empty function stops that.
  void set_observer(detail::CheckpointObserver observer) {
    observer_ = std::move(observer);
  }

  void pretty_print(std::ostream &stream) const override;

  /// The options this wrapper runs with; read at each forward.
  CheckpointOptions options;

protected:
  FORWARD_HAS_DEFAULT_ARGS({1, torch::nn::AnyValue(torch::Tensor())},
                           {2, torch::nn::AnyValue(torch::Tensor())},
                           {3, torch::nn::AnyValue(torch::Tensor())})

private:
  template <typename ModuleType>
  static torch::nn::AnyModule checked_any(std::shared_ptr<ModuleType> module) {
    TORCH_CHECK(module, "wrapguard::CheckpointWrapper: the module is null");
    TORCH_CHECK(detail::forward_takes_tensor<ModuleType>::value,
                "wrapguard::CheckpointWrapper: ", module->name(),
                "::forward() takes no tensor; only modules whose forward "
                "takes and returns tensors can be checkpointed");
    return torch::nn::AnyModule(std::move(module));
  }
  void register_wrapped();

  torch::nn::AnyModule module_;
  TensorFn forward_;
  detail::CheckpointObserver observer_;
  std::vector<torch::Tensor> params_;
  std::shared_ptr<detail::CheckpointCounters> counters_;
};

/// A `std::shared_ptr<CheckpointWrapperImpl>` handle; see
/// `CheckpointWrapperImpl`.
TORCH_MODULE(CheckpointWrapper);

/// Checkpoints a plain function: `fn(inputs...)` runs without keeping its
/// activations and is recomputed in the backward. `fn` takes tensors and
/// returns a tensor or a `std::vector<torch::Tensor>`.
///
/// Parameters that `fn` reads from its closure are unknown to the autograd
/// node, so their grads are accumulated by the recompute: this works with
/// `.backward()` but not with `torch::autograd::grad` (a clear error). To use
/// `torch::autograd::grad`, wrap a module with `CheckpointWrapper` instead.
///
/// Example:
/// ```
///   auto y = wrapguard::checkpoint(
///       [&](const torch::Tensor& a, const torch::Tensor& b) {
///         return torch::relu(lin(a)) * b;
///       },
///       x, w);
/// ```
template <typename Fn, typename... Tensors>
auto checkpoint(Fn &&fn, const Tensors &...inputs) {
  static_assert(sizeof...(Tensors) > 0,
                "wrapguard::checkpoint needs at least one tensor input");
  using Result = std::decay_t<std::invoke_result_t<Fn &, const Tensors &...>>;
  static_assert(std::is_same_v<Result, torch::Tensor> ||
                    std::is_same_v<Result, std::vector<torch::Tensor>>,
                "wrapguard::checkpoint: fn must return a tensor or a "
                "std::vector<torch::Tensor>");
  TensorFn erased = [f = std::forward<Fn>(fn)](
                        const std::vector<torch::Tensor> &args) mutable {
    Result r = detail::call_with_tensors(f, args,
                                         std::index_sequence_for<Tensors...>{});
    if constexpr (std::is_same_v<Result, torch::Tensor>)
      return std::vector<torch::Tensor>{r};
    else
      return r;
  };
  auto out = detail::checkpoint_impl(
      std::move(erased), {inputs...}, {},
      std::make_shared<detail::CheckpointCounters>(), CheckpointOptions{},
      /*accumulate_unknown_leaves=*/true);
  if constexpr (std::is_same_v<Result, torch::Tensor>)
    return out.at(0);
  else
    return out;
}

/// Runs `seq` in `segments` chunks, checkpointing every chunk but the last
/// (as PyTorch's `checkpoint_sequential`). Each chunk's parameters are known,
/// so `torch::autograd::grad` works through it.
///
/// Example:
/// ```
///   auto y = wrapguard::checkpoint_sequential(model, 4, x);
/// ```
torch::Tensor checkpoint_sequential(torch::nn::Sequential seq,
                                    std::int64_t segments,
                                    const torch::Tensor &input,
                                    CheckpointOptions options = {});

} // namespace wrapguard

#endif // WRAPGUARD_CHECKPOINT_H
