//===- verify.cpp - Verification of activation checkpointing --------------===//
//
// Plain vs checkpointed runs from the same weights (checkpointed by a policy
// or a plan), compared on grads, recomputations, allocator-level memory and
// step time; and the memory meter.
#include "cpu_memory.h"

#include <wrapguard/call.h>
#include <wrapguard/verify.h>

#include <c10/util/Exception.h>
#include <torch/cuda.h>
#include <torch/utils.h>
#include <torch/version.h>

#ifdef WRAPGUARD_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <unordered_map>

namespace wrapguard {
namespace {

using torch::Tensor;

#ifdef WRAPGUARD_WITH_CUDA
int cuda_index(torch::Device device) {
  return device.has_index() ? device.index() : c10::cuda::current_device();
}
#endif

void synchronize(torch::Device device) {
  if (device.is_cuda())
    torch::cuda::synchronize(device.has_index() ? device.index() : -1);
}

double max_abs_diff(const Tensor &a, const Tensor &b) {
  if (!a.defined() && !b.defined())
    return 0;
  if (!a.defined() || !b.defined() || a.sizes() != b.sizes())
    return std::numeric_limits<double>::infinity();
  if (a.numel() == 0)
    return 0;
  return (a.detach().to(torch::kDouble) - b.detach().to(torch::kDouble))
      .abs()
      .max()
      .item<double>();
}

// A model clone and how to run it.
struct Root {
  std::shared_ptr<torch::nn::Module> module;
  TensorFn forward;
};

struct StepResult {
  Tensor output;
  Tensor loss;
  std::vector<Tensor> grads;
  std::int64_t peak_bytes = 0;
  std::int64_t activation_bytes = 0;
  double seconds = 0;
};

StepResult run_step(Root &root, const std::vector<Tensor> &inputs,
                    const VerifyOptions &options, MemoryMeter *meter,
                    bool keep) {
  for (Tensor &p : root.module->parameters())
    p.mutable_grad() = Tensor();
  torch::manual_seed(options.seed());
  if (options.device().is_cuda())
    torch::cuda::manual_seed_all(options.seed());
  synchronize(options.device());

  StepResult r;
  std::int64_t base = 0;
  if (meter) {
    meter->reset_peak();
    base = meter->current();
  }
  auto start = std::chrono::steady_clock::now();
  Tensor output = root.forward(inputs).at(0);
  Tensor loss = options.loss_fn()(output);
  if (meter) {
    synchronize(options.device());
    r.activation_bytes = meter->current() - base;
  }
  loss.backward();
  synchronize(options.device());
  r.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (meter)
    r.peak_bytes = meter->peak() - base;
  if (keep) {
    r.output = output.detach();
    r.loss = loss.detach();
    for (const Tensor &p : root.module->parameters())
      r.grads.push_back(p.grad().defined() ? p.grad().clone() : Tensor());
  }
  return r;
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Recomputations per backward of each wrapped module, and the common value:
// -1 when they disagree, 0 when nothing was wrapped.
void record_recomputes(const CheckpointReport &report,
                       const std::vector<std::int64_t> &before,
                       VerifyResult &result) {
  for (std::size_t i = 0; i < report.wrapped.size(); ++i) {
    const auto &w = report.wrapped[i];
    result.wrapped.push_back({w.name, w.type, w.num_params,
                              w.wrapper->recompute_count() - before[i]});
  }
  if (result.wrapped.empty())
    return;
  result.recompute_per_backward =
      result.wrapped.front().recomputes_per_backward;
  for (const auto &m : result.wrapped)
    if (m.recomputes_per_backward != result.recompute_per_backward)
      result.recompute_per_backward = -1;
}

// Outputs, losses, grads and memory of the plain (a) and checkpointed (b)
// step.
void compare_steps(const StepResult &a, const StepResult &b,
                   const torch::nn::Module &plain, VerifyResult &result) {
  result.max_abs_output_diff = max_abs_diff(a.output, b.output);
  result.max_abs_loss_diff = max_abs_diff(a.loss, b.loss);
  auto names = plain.named_parameters().keys();
  TORCH_INTERNAL_ASSERT(a.grads.size() == b.grads.size(),
                        "plain and checkpointed models differ in parameters");
  for (std::size_t i = 0; i < a.grads.size(); ++i) {
    double d = max_abs_diff(a.grads[i], b.grads[i]);
    if (d > result.max_abs_grad_diff || !std::isfinite(d)) {
      result.max_abs_grad_diff = d;
      result.max_grad_diff_param = names[i];
    }
  }
  result.peak_bytes_plain = a.peak_bytes;
  result.peak_bytes_checkpointed = b.peak_bytes;
  result.activation_bytes_plain = a.activation_bytes;
  result.activation_bytes_checkpointed = b.activation_bytes;
}

// Median step times; the variants alternate so drift hits both alike.
void time_steps(Root &plain, Root &ckpt, const std::vector<Tensor> &inputs,
                const VerifyOptions &options, const StepResult &a,
                const StepResult &b, VerifyResult &result) {
  std::vector<double> &ta = result.step_times_plain,
                      &tb = result.step_times_checkpointed;
  for (int i = 0; i < options.timed_steps(); ++i) {
    ta.push_back(run_step(plain, inputs, options, nullptr, false).seconds);
    tb.push_back(run_step(ckpt, inputs, options, nullptr, false).seconds);
  }
  result.step_seconds_plain = ta.empty() ? a.seconds : median(ta);
  result.step_seconds_checkpointed = tb.empty() ? b.seconds : median(tb);
}

// How the checkpointed clone is made: a policy or a plan.
using Apply =
    std::function<CheckpointReport(const std::shared_ptr<torch::nn::Module> &)>;

VerifyResult verify_impl(const std::function<Root()> &make_clone,
                         const Apply &apply, VerifyResult result,
                         const MakeBatch &make_batch,
                         const VerifyOptions &options) {
  TORCH_CHECK(make_batch,
              "wrapguard::verify_checkpointing: make_batch is empty");
  const torch::Device device = options.device();
  result.device = device.str();

  Root plain = make_clone();
  Root ckpt = make_clone();
  CheckpointReport report = apply(ckpt.module);
  result.policy = report.policy;
  result.warnings = report.warnings;

  torch::manual_seed(options.seed());
  std::vector<Tensor> inputs = make_batch(device);
  // The clones are on options.device(); a make_batch that ignores its
  // argument would otherwise fail inside the first operator.
  detail::check_one_device(*plain.module, inputs,
                           "wrapguard::verify_checkpointing");

  std::unique_ptr<MemoryMeter> meter;
  if (MemoryMeter::supported(device))
    meter = std::make_unique<MemoryMeter>(device);
  else
    result.warnings.push_back("memory not measured on " + device.str() +
                              ": this LibTorch build has no allocator stats");

  StepResult a = run_step(plain, inputs, options, meter.get(), true);
  std::vector<std::int64_t> before;
  for (const auto &w : report.wrapped)
    before.push_back(w.wrapper->recompute_count());
  StepResult b = run_step(ckpt, inputs, options, meter.get(), true);

  record_recomputes(report, before, result);
  compare_steps(a, b, *plain.module, result);
  time_steps(plain, ckpt, inputs, options, a, b, result);

  // Lands in the WRAPGUARD_TRACE file, where wrapguard join finds it.
  detail::SiteRegistry::instance().add_record("verifications", result);
  return result;
}

VerifyResult with_policy(const WrapPolicy &policy) {
  VerifyResult r;
  r.selective = policy.options.selective();
  return r;
}

VerifyResult with_plan(const CheckpointPlan &plan) {
  VerifyResult r;
  r.selective = plan.options.selective();
  r.plan = plan;
  return r;
}

Apply apply_policy(const WrapPolicy &policy) {
  return [&policy](const std::shared_ptr<torch::nn::Module> &root) {
    return apply_activation_checkpointing(root, policy);
  };
}

Apply apply_plan(const CheckpointPlan &plan) {
  return [&plan](const std::shared_ptr<torch::nn::Module> &root) {
    return apply_activation_checkpointing(root, plan);
  };
}

// The caller's pass, then what it left: each CheckpointWrapper in the tree.
Apply apply_pass(std::string name, WrapPass wrap) {
  TORCH_CHECK(wrap, "wrapguard::verify_checkpointing: the wrapping pass '",
              name, "' is empty");
  return [name = std::move(name), wrap = std::move(wrap)](
             const std::shared_ptr<torch::nn::Module> &root) {
    wrap(*root);
    CheckpointReport report;
    report.policy = name;
    for (const auto &item : root->named_modules("", /*include_self=*/false)) {
      ++report.modules_visited;
      auto wrapper =
          std::dynamic_pointer_cast<CheckpointWrapperImpl>(item.value());
      if (!wrapper)
        continue;
      const torch::nn::Module &inner = *wrapper->module().ptr();
      std::int64_t params = 0;
      for (const Tensor &p : inner.parameters())
        params += p.numel();
      report.wrapped.push_back({item.key(), short_type_name(inner), params,
                                CheckpointWrapper(wrapper)});
    }
    return report;
  };
}

std::function<Root()> any_clones(const torch::nn::AnyModule &model,
                                 torch::Device device) {
  TORCH_CHECK(!model.is_empty(),
              "wrapguard::verify_checkpointing: empty model");
  return [&model, device] {
    torch::nn::AnyModule copy = model.clone(device);
    return Root{copy.ptr(), detail::any_module_forward(copy)};
  };
}

std::function<Root()> sequential_clones(const torch::nn::Sequential &model,
                                        torch::Device device) {
  TORCH_CHECK(!model.is_empty(), "wrapguard::verify_checkpointing: null model");
  return [&model, device] {
    auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(
        model->clone(device));
    TensorFn fn = [copy](const std::vector<Tensor> &in) {
      return std::vector<Tensor>{copy->forward(in.at(0))};
    };
    return Root{copy, fn};
  };
}

} // namespace

// ---------------------------------------------------------------------------
// MemoryMeter

MemoryMeter::MemoryMeter(torch::Device device) : device_(device) {
  TORCH_CHECK(supported(device), "wrapguard::MemoryMeter: cannot measure ",
              device.str(), " memory in this build");
  if (device.is_cpu())
    wrapguard_cpu_memory_install();
}

bool MemoryMeter::supported(torch::Device device) {
  if (device.is_cpu())
    return true;
#ifdef WRAPGUARD_WITH_CUDA
  return device.is_cuda();
#else
  return false;
#endif
}

std::int64_t MemoryMeter::current() const {
  if (device_.is_cpu())
    return wrapguard_cpu_memory_current();
#ifdef WRAPGUARD_WITH_CUDA
  // Index 0 of each stat array is the aggregate over pool kinds.
  return c10::cuda::CUDACachingAllocator::getDeviceStats(cuda_index(device_))
      .allocated_bytes[0]
      .current;
#else
  return 0;
#endif
}

std::int64_t MemoryMeter::peak() const {
  if (device_.is_cpu())
    return wrapguard_cpu_memory_peak();
#ifdef WRAPGUARD_WITH_CUDA
  return c10::cuda::CUDACachingAllocator::getDeviceStats(cuda_index(device_))
      .allocated_bytes[0]
      .peak;
#else
  return 0;
#endif
}

void MemoryMeter::reset_peak() {
  if (device_.is_cpu()) {
    wrapguard_cpu_memory_reset_peak();
    return;
  }
#ifdef WRAPGUARD_WITH_CUDA
  c10::cuda::CUDACachingAllocator::resetPeakStats(cuda_index(device_));
#endif
}

// ---------------------------------------------------------------------------
// verify_checkpointing

bool retain_freed_cpu_memory() {
  return wrapguard_cpu_memory_retain_freed() == 1;
}

torch::Device VerifyOptions::default_device() {
  return torch::cuda::is_available() ? torch::Device(torch::kCUDA)
                                     : torch::Device(torch::kCPU);
}

VerifyResult verify_checkpointing(const torch::nn::AnyModule &model,
                                  const WrapPolicy &policy,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options) {
  return verify_impl(any_clones(model, options.device()), apply_policy(policy),
                     with_policy(policy), make_batch, options);
}

VerifyResult verify_checkpointing(const torch::nn::Sequential &model,
                                  const WrapPolicy &policy,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options) {
  return verify_impl(sequential_clones(model, options.device()),
                     apply_policy(policy), with_policy(policy), make_batch,
                     options);
}

VerifyResult verify_checkpointing(const torch::nn::AnyModule &model,
                                  const CheckpointPlan &plan,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options) {
  return verify_impl(any_clones(model, options.device()), apply_plan(plan),
                     with_plan(plan), make_batch, options);
}

VerifyResult verify_checkpointing(const torch::nn::Sequential &model,
                                  const CheckpointPlan &plan,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options) {
  return verify_impl(sequential_clones(model, options.device()),
                     apply_plan(plan), with_plan(plan), make_batch, options);
}

VerifyResult verify_checkpointing(const torch::nn::AnyModule &model,
                                  std::string name, WrapPass wrap,
                                  const MakeBatch &make_batch,
                                  VerifyOptions options) {
  return verify_impl(any_clones(model, options.device()),
                     apply_pass(std::move(name), std::move(wrap)),
                     VerifyResult(), make_batch, options);
}

bool VerifyResult::within_budget(double tolerance) const {
  return !plan || static_cast<double>(peak_bytes_checkpointed) <=
                      static_cast<double>(plan->budget_bytes) * (1 + tolerance);
}

bool VerifyResult::passed(double tolerance) const {
  return !wrapped.empty() && recompute_per_backward == 1 &&
         max_abs_output_diff <= tolerance && max_abs_loss_diff <= tolerance &&
         max_abs_grad_diff <= tolerance &&
         peak_bytes_checkpointed < peak_bytes_plain && within_budget();
}

std::string VerifyResult::to_json() const {
  json out;
  wrapguard::to_json(out, *this);
  return detail::dump_json(out);
}

void to_json(json &out, const VerifyResult &r) {
  json modules = json::array();
  for (const ModuleVerification &m : r.wrapped)
    modules.push_back({{"name", m.name},
                       {"type", m.type},
                       {"num_params", m.num_params},
                       {"recomputes_per_backward", m.recomputes_per_backward}});
  // Infinite or NaN differences (shapes that differ) are written as null.
  out = {{"device", r.device},
         {"policy", r.policy},
         {"selective", r.selective},
         {"wrapped", r.wrapped.size()},
         {"wrapped_modules", std::move(modules)},
         {"recompute_per_backward", r.recompute_per_backward},
         {"max_abs_output_diff", r.max_abs_output_diff},
         {"max_abs_loss_diff", r.max_abs_loss_diff},
         {"max_abs_grad_diff", r.max_abs_grad_diff},
         {"peak_bytes_plain", r.peak_bytes_plain},
         {"peak_bytes_checkpointed", r.peak_bytes_checkpointed},
         {"activation_bytes_plain", r.activation_bytes_plain},
         {"activation_bytes_checkpointed", r.activation_bytes_checkpointed},
         {"activation_bytes_saved", r.activation_bytes_saved()},
         {"step_seconds_plain", r.step_seconds_plain},
         {"step_seconds_checkpointed", r.step_seconds_checkpointed},
         {"step_times_plain", r.step_times_plain},
         {"step_times_checkpointed", r.step_times_checkpointed}};
  if (r.plan) {
    out["budget_bytes"] = r.plan->budget_bytes;
    out["predicted_peak_bytes"] = r.plan->predicted_peak_bytes;
    out["within_budget"] = r.within_budget();
    out["plan"] = *r.plan;
  }
  out["passed"] = r.passed(r.device == "cpu" ? 0.0 : 1e-5);
  out["warnings"] = r.warnings;
}

} // namespace wrapguard
