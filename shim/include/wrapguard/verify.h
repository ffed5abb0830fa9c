//===- verify.h - Verification of activation checkpointing ------*- C++ -*-===//
//
// verify_checkpointing runs a model plain and checkpointed from the same
// weights and compares grads, recomputations, memory and time; MemoryMeter
// is the allocator-level memory count it uses.
#ifndef WRAPGUARD_VERIFY_H
#define WRAPGUARD_VERIFY_H

#include <wrapguard/call.h>
#include <wrapguard/checkpoint.h>
#include <wrapguard/plan.h>
#include <wrapguard/policy.h>

#include <c10/core/Device.h>
#include <torch/arg.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wrapguard {

/// Counts bytes held by the allocator of a device. On the CPU it installs
/// (once, for the life of the process) a `c10::Allocator` that wraps the
/// default CPU allocator and tracks current and peak bytes; on CUDA it reads
/// the caching allocator's statistics (allocated bytes, not reserved). Never
/// RSS.
///
/// Example:
/// ```
///   wrapguard::MemoryMeter meter(torch::kCPU);
///   meter.reset_peak();
///   std::int64_t before = meter.current();
///   auto y = model(x);
///   std::int64_t held = meter.current() - before;
///   std::int64_t peak = meter.peak() - before;
/// ```
class MemoryMeter {
public:
  explicit MemoryMeter(torch::Device device);
  /// Bytes allocated now.
  std::int64_t current() const;
  /// Highest `current()` since the last `reset_peak()`.
  std::int64_t peak() const;
  /// Starts a new peak window at `current()`.
  void reset_peak();
  /// Whether this build can measure the device (CUDA needs a CUDA LibTorch).
  static bool supported(torch::Device device);

private:
  torch::Device device_;
};

/// Makes the C library's malloc keep the CPU memory a step frees, for the
/// next step, instead of returning it to the kernel. With glibc's defaults a
/// LibTorch process that holds little else trims the heap and unmaps large
/// blocks after each step, so the next step faults its tensors' pages in
/// again (about 14,000 more page faults per step than Python on the
/// benchmark model: docs/bench-shim.md). The cost: the process keeps its
/// peak CPU memory. Call once, at start-up. Returns false where it cannot
/// (not glibc).
///
/// Example:
/// ```
///   int main() {
///     wrapguard::retain_freed_cpu_memory();
///     // ... train
///   }
/// ```
bool retain_freed_cpu_memory();

/// Builds one batch of inputs on a device; called with the same seed set for
/// the plain and the checkpointed run.
using MakeBatch = std::function<std::vector<torch::Tensor>(torch::Device)>;

/// Options of `verify_checkpointing`.
struct VerifyOptions {
  /// CUDA when available, else the CPU.
  TORCH_ARG(torch::Device, device) = default_device();
  TORCH_ARG(std::uint64_t, seed) = 0;
  /// Timed steps per variant after one untimed warm-up step; the median is
  /// reported.
  TORCH_ARG(int, timed_steps) = 3;
  /// Turns the model's output into the scalar loss; default mean of squares.
  TORCH_ARG(std::function<torch::Tensor(const torch::Tensor &)>, loss_fn) =
      [](const torch::Tensor &out) { return out.square().mean(); };

  static torch::Device default_device();
};

/// Per wrapped module, what the checkpointed run observed.
struct ModuleVerification {
  std::string name;
  std::string type;
  std::int64_t num_params = 0;
  /// Recomputations during one backward; correct checkpointing gives 1.
  std::int64_t recomputes_per_backward = 0;
};

/// Result of `verify_checkpointing`.
struct VerifyResult {
  std::string device;
  std::string policy;
  /// Whether the wrappers recompute selectively.
  bool selective = false;
  /// The plan verified, for `verify_checkpointing(model, plan, ...)`.
  std::optional<CheckpointPlan> plan;
  std::vector<ModuleVerification> wrapped;
  std::vector<std::string> warnings;
  /// The same for every wrapped module when the check passes, -1 when the
  /// wrapped modules disagree, 0 when nothing was wrapped.
  std::int64_t recompute_per_backward = 0;
  double max_abs_output_diff = 0;
  double max_abs_loss_diff = 0;
  double max_abs_grad_diff = 0;
  std::string max_grad_diff_param;
  std::int64_t peak_bytes_plain = 0;
  std::int64_t peak_bytes_checkpointed = 0;
  /// Bytes still held after the forward (what the backward keeps alive).
  std::int64_t activation_bytes_plain = 0;
  std::int64_t activation_bytes_checkpointed = 0;
  /// Medians of the timed steps, and every timed step (variants alternate).
  double step_seconds_plain = 0;
  double step_seconds_checkpointed = 0;
  std::vector<double> step_times_plain;
  std::vector<double> step_times_checkpointed;

  std::int64_t activation_bytes_saved() const {
    return activation_bytes_plain - activation_bytes_checkpointed;
  }
  /// For a plan: the checkpointed peak is at most its budget plus
  /// `tolerance` (a fraction; the target allows 5 %). True without
  /// a plan.
  bool within_budget(double tolerance = 0.05) const;
  /// Grads and outputs identical within `tolerance` (0 on the CPU), one
  /// recompute per backward, a lower peak, and a plan's peak within its
  /// budget, for a policy or plan that wrapped.
  bool passed(double tolerance = 0) const;
  /// One JSON object on one line, with the fields documented in docs/shim.md.
  std::string to_json() const;
};

/// The result as a JSON object (nlohmann's `to_json` customization point).
void to_json(json &out, const VerifyResult &result);

/// Builds the plain and the checkpointed model from the same weights (two
/// clones of `model`, so `model` itself is untouched), runs forward and
/// backward on the same batch with the same seed, and compares.
///
/// Example:
/// ```
///   torch::nn::Sequential model(torch::nn::Linear(64, 256),
///                               torch::nn::GELU(),
///                               torch::nn::Linear(256, 64));
///   auto r = wrapguard::verify_checkpointing(
///       model, wrapguard::WrapPolicy::size_based(10000),
///       [](torch::Device d) { return std::vector<torch::Tensor>{
///           torch::randn({2, 32, 64}, torch::TensorOptions().device(d))}; });
///   std::cout << r.to_json() << "\n";   // r.passed() is the verdict
/// ```
VerifyResult verify_checkpointing(const torch::nn::AnyModule &model,
                                  const WrapPolicy &policy,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options = {});

/// The same for a `torch::nn::Sequential` root (whose templated forward an
/// `AnyModule` cannot hold).
VerifyResult verify_checkpointing(const torch::nn::Sequential &model,
                                  const WrapPolicy &policy,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options = {});

/// The same with the modules of a `CheckpointPlan` checkpointed; the result
/// carries the plan, and `passed()` asks for the peak to fit its budget.
///
/// Example:
/// ```
///   auto plan = wrapguard::plan_checkpointing(model, batch(torch::kCPU),
///                                             budget);
///   auto r = wrapguard::verify_checkpointing(model, plan, batch);
/// ```
VerifyResult verify_checkpointing(const torch::nn::AnyModule &model,
                                  const CheckpointPlan &plan,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options = {});

/// The same for a `torch::nn::Sequential` root.
VerifyResult verify_checkpointing(const torch::nn::Sequential &model,
                                  const CheckpointPlan &plan,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options = {});

/// The wrapping pass of `verify_checkpointing(model, name, wrap, ...)`: the
/// caller's own code, given the root of the clone to wrap.
using WrapPass = std::function<void(torch::nn::Module &root)>;

/// The same with the checkpointed clone wrapped by the caller's own pass
/// (the code at a call site the check flagged, say) instead of a policy: the
/// `CheckpointWrapper`s that `wrap` leaves in the clone's tree are what is
/// verified, and `name` is the result's `policy`. A pass that wraps nothing
/// gives a result with nothing wrapped, which does not pass.
///
/// Example:
/// ```
///   auto r = wrapguard::verify_checkpointing(
///       torch::nn::AnyModule(model), "my_checkpointing_pass",
///       [&](torch::nn::Module &root) { my_checkpointing_pass(root, cfg); },
///       batch);
/// ```
VerifyResult verify_checkpointing(const torch::nn::AnyModule &model,
                                  std::string name, WrapPass wrap,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options = {});

} // namespace wrapguard

#endif // WRAPGUARD_VERIFY_H
