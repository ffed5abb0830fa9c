//===- plan.h - Activation checkpointing under a memory budget --*- C++ -*-===//
//
// plan_checkpointing profiles one training step and picks, for each module
// it could checkpoint, plain, selective or full recompute, so that the step's
// peak memory stays within a budget at the least extra time;
// apply_activation_checkpointing(module, plan) wraps them. The solver is public
// (solve_checkpoint_plan over a CheckpointProfile), so a profile can be planned
// for several budgets.
#ifndef WRAPGUARD_PLAN_H
#define WRAPGUARD_PLAN_H

#include <wrapguard/call.h>
#include <wrapguard/checkpoint.h>
#include <wrapguard/policy.h>

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace wrapguard {

/// Options of `plan_checkpointing` and `solve_checkpoint_plan`.
///
/// Example:
/// ```
///   auto options = wrapguard::PlanOptions().checkpoint_options(
///       wrapguard::CheckpointOptions().selective(true));
/// ```
struct PlanOptions {
  /// Options of the wrappers the profile runs and the plan applies (RNG
  /// replay, the operators selective recompute keeps); `selective` is set
  /// per module by the plan.
  TORCH_ARG(CheckpointOptions, checkpoint_options) = {};
  /// Also profile and consider selective recompute for each module: it
  /// holds the outputs of costly operators and recomputes only cheap ones,
  /// a middle ground between plain and full recompute. False: full recompute
  /// or plain only.
  TORCH_ARG(bool, consider_selective) = true;
  /// Turns the model's output into the scalar loss of the profiled step;
  /// default mean of squares, as `VerifyOptions`.
  TORCH_ARG(std::function<torch::Tensor(const torch::Tensor &)>, loss_fn) =
      [](const torch::Tensor &out) { return out.square().mean(); };
  /// Profiled steps per recompute mode after one warm-up step. Memory is the
  /// last step's; each module's times are its fastest, since a selective
  /// module's cost is a difference of two measured forwards and one step's
  /// noise can swamp it.
  TORCH_ARG(int, profile_steps) = 2;
  /// The exact solver keeps a frontier of (memory, time) states per module;
  /// when it would hold more than this many, the greedy one decides instead.
  TORCH_ARG(std::int64_t, max_exact_states) = 100000;
};

/// How a plan was chosen: exactly (dynamic programming over the candidates
/// in forward order), or greedily (by bytes saved per second of recompute).
enum class PlanMethod { exact, greedy };

/// How a module runs under a plan: plainly, or checkpointed with selective
/// or full recompute.
enum class CheckpointMode { plain, selective, full };

/// "plain", "selective" or "full".
const char *mode_name(CheckpointMode mode);

/// A module the planner could checkpoint, with what the profile measured.
struct PlanCandidate {
  std::string name; ///< dotted path from the root, e.g. "blocks.3"
  std::string type; ///< short type name, e.g. "DemoBlock"
  std::int64_t num_params = 0;
  /// Bytes it holds from its forward to its backward beyond what it holds
  /// with full recompute: plain, all its activations (what full recompute
  /// saves); selective, the outputs it keeps.
  std::int64_t plain_bytes = 0;
  std::int64_t selective_bytes = 0;
  /// Seconds a step spends on it beyond a plain run: full, its recompute (a
  /// forward with grad); selective, its replay of the cheap operators plus
  /// what keeping outputs adds to its forward.
  double full_seconds = 0;
  double selective_seconds = 0;
  /// Its forward without grad, checkpointed.
  double forward_seconds = 0;
  /// Whether selective recompute was profiled (and may be chosen).
  bool selective_profiled = false;
  /// What the plan chose.
  CheckpointMode mode = CheckpointMode::plain;

  /// `plain_bytes`, `selective_bytes` or 0.
  std::int64_t bytes(CheckpointMode m) const;
  /// 0, `selective_seconds` or `full_seconds`.
  double seconds(CheckpointMode m) const;
};

/// What `plan_checkpointing` chose. Peaks are in bytes above what is
/// allocated when the step starts (weights, batch, optimizer state), as
/// `verify_checkpointing` measures them; parameter grads are made during the
/// step, so they count.
struct CheckpointPlan {
  /// The modules to checkpoint with full recompute, as dotted paths, in
  /// forward order.
  std::vector<std::string> modules;
  /// The modules to checkpoint with selective recompute.
  std::vector<std::string> selective_modules;
  /// Options of their wrappers (`selective` set per list).
  CheckpointOptions options;
  std::int64_t budget_bytes = 0;
  std::int64_t predicted_peak_bytes = 0;
  /// Time the plan adds to a step (the sum over its modules).
  double predicted_extra_seconds = 0;
  /// The lowest achievable peak: every candidate fully recomputed (measured).
  std::int64_t min_peak_bytes = 0;
  /// No candidate checkpointed (predicted).
  std::int64_t plain_peak_bytes = 0;
  PlanMethod method = PlanMethod::exact;
  /// Why the greedy solver decided; empty for an exact plan.
  std::string method_reason;
  /// Every candidate, in forward order.
  std::vector<PlanCandidate> candidates;
  /// Modules left out of the plan, and why.
  std::vector<std::string> warnings;

  /// "MEMORY_BUDGET(133.0 MiB, exact)": the policy name in reports.
  std::string name() const;
  /// Multi-line summary for logs.
  std::string to_string() const;
  /// One JSON object on one line (fields in docs/shim.md).
  std::string to_json() const;
};

/// The plan as a JSON object (nlohmann's `to_json` customization point).
void to_json(json &out, const CheckpointPlan &plan);

/// What the solver plans with: the candidates ("units") and the memory
/// timeline of one step with every unit fully recomputed, cut at each unit's
/// forward, recompute and backward.
struct CheckpointProfile {
  /// A stretch of the step between two observed events.
  struct Segment {
    /// The unit whose forward, recompute or grad computation this is; -1 for
    /// none.
    int owner = -1;
    /// Its peak, in bytes above the step's start, with every unit fully
    /// recomputed except `owner`, which runs in the mode this is indexed by
    /// (`CheckpointMode`); the same three values when there is no owner.
    std::array<std::int64_t, 3> peak{};
    /// The units whose forward is done and backward not yet: their
    /// `bytes(mode)` add to the peak.
    std::vector<int> active;
  };
  std::vector<PlanCandidate> units;
  std::vector<Segment> segments;
  /// Candidates left out, and why (a module that ran twice in one step, say).
  std::vector<std::string> warnings;

  /// The peak predicted when unit `u` runs in `modes[u]`: the highest
  /// segment (by its owner's mode), raised by the `bytes` of the active
  /// units' modes.
  std::int64_t predict_peak(const std::vector<CheckpointMode> &modes) const;
};

/// Picks a mode for each unit of `profile`: the least extra time with a
/// predicted peak within `budget_bytes` (selective only where it was
/// profiled and `options.consider_selective()`). Exact when the profile is a
/// chain (each unit's activations live from its forward to its backward, in
/// reverse order) and the frontier stays within `options.max_exact_states`;
/// greedy otherwise, saying why. Throws `c10::Error` naming the lowest
/// achievable peak when even fully recomputing every unit exceeds the budget.
///
/// Example:
/// ```
///   auto plan = wrapguard::solve_checkpoint_plan(profile, 512 << 20);
/// ```
CheckpointPlan solve_checkpoint_plan(const CheckpointProfile &profile,
                                     std::int64_t budget_bytes,
                                     const PlanOptions &options = {});

/// Profiles a step of `module` on `sample_inputs` with every candidate fully
/// recomputed, and one with every candidate selectively recomputed (unless
/// `options.consider_selective()` is false). Candidates are the modules
/// `apply_activation_checkpointing` can wrap (children of a
/// `torch::nn::Sequential` with parameters) that hold no such module
/// themselves: a nested module is one unit, its children are not planned apart.
/// The model is used in place and left as it was: its modules, parameter grads
/// and RNG state are restored.
CheckpointProfile
profile_checkpointing(const torch::nn::AnyModule &module,
                      const std::vector<torch::Tensor> &sample_inputs,
                      PlanOptions options = {});

/// The same for a `torch::nn::Sequential` root.
CheckpointProfile
profile_checkpointing(const torch::nn::Sequential &module,
                      const std::vector<torch::Tensor> &sample_inputs,
                      PlanOptions options = {});

/// The same for a module handle (`TORCH_MODULE`).
template <typename ModuleType>
CheckpointProfile
profile_checkpointing(const torch::nn::ModuleHolder<ModuleType> &module,
                      const std::vector<torch::Tensor> &sample_inputs,
                      PlanOptions options = {}) {
  return profile_checkpointing(torch::nn::AnyModule(module), sample_inputs,
                               std::move(options));
}

/// Profiles one step of `module` (see `profile_checkpointing`) and solves for
/// `budget_bytes` (see `solve_checkpoint_plan`).
///
/// Example:
/// ```
///   auto plan = wrapguard::plan_checkpointing(model, {batch}, 6LL << 30);
///   auto report = wrapguard::apply_activation_checkpointing(model, plan);
///   std::cout << plan.to_string() << report.to_string();
/// ```
CheckpointPlan
plan_checkpointing(const torch::nn::AnyModule &module,
                   const std::vector<torch::Tensor> &sample_inputs,
                   std::int64_t budget_bytes, PlanOptions options = {});

/// The same for a `torch::nn::Sequential` root.
CheckpointPlan
plan_checkpointing(const torch::nn::Sequential &module,
                   const std::vector<torch::Tensor> &sample_inputs,
                   std::int64_t budget_bytes, PlanOptions options = {});

/// The same for a module handle (`TORCH_MODULE`).
template <typename ModuleType>
CheckpointPlan
plan_checkpointing(const torch::nn::ModuleHolder<ModuleType> &module,
                   const std::vector<torch::Tensor> &sample_inputs,
                   std::int64_t budget_bytes, PlanOptions options = {}) {
  return plan_checkpointing(torch::nn::AnyModule(module), sample_inputs,
                            budget_bytes, std::move(options));
}

/// Wraps the modules `plan` names, full and selective, through the same walk
/// and report as the policies (`WrapPolicy::modules`). A path that names no
/// module the walk can wrap is a `c10::Error` before anything is wrapped.
CheckpointReport
apply_activation_checkpointing(const std::shared_ptr<torch::nn::Module> &root,
                               const CheckpointPlan &plan);

template <typename ModuleType>
CheckpointReport
apply_activation_checkpointing(const torch::nn::ModuleHolder<ModuleType> &root,
                               const CheckpointPlan &plan) {
  return apply_activation_checkpointing(
      std::static_pointer_cast<torch::nn::Module>(root.ptr()), plan);
}

} // namespace wrapguard

#endif // WRAPGUARD_PLAN_H
