//===- checkpoint.cpp - Activation checkpointing --------------------------===//
//
// The autograd node behind CheckpointWrapper, checkpoint() and
// checkpoint_sequential(): a forward without grad that keeps its inputs (and,
// selectively, some operators' outputs), and a backward that recomputes.
#include "selective.h"

#include <wrapguard/call.h>
#include <wrapguard/checkpoint.h>
#include <wrapguard/policy.h>

#include <ATen/Context.h>
#include <ATen/autocast_mode.h>
#include <ATen/core/Generator.h>
#include <c10/util/Exception.h>
#include <torch/autograd.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/version.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

namespace wrapguard {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Autocast state of the forward, replayed during the recompute. PyTorch 2.4
// replaced the per-device setters with device-type-keyed ones.
struct AutocastState {
  bool cpu_enabled = false;
  bool gpu_enabled = false;
  at::ScalarType cpu_dtype = at::kBFloat16;
  at::ScalarType gpu_dtype = at::kHalf;

  static AutocastState capture() {
    AutocastState s;
#if TORCH_VERSION_MAJOR > 2 ||                                                 \
    (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    s.cpu_enabled = at::autocast::is_autocast_enabled(at::kCPU);
    s.gpu_enabled = at::autocast::is_autocast_enabled(at::kCUDA);
    s.cpu_dtype = at::autocast::get_autocast_dtype(at::kCPU);
    s.gpu_dtype = at::autocast::get_autocast_dtype(at::kCUDA);
#else
    s.cpu_enabled = at::autocast::is_cpu_enabled();
    s.gpu_enabled = at::autocast::is_enabled();
    s.cpu_dtype = at::autocast::get_autocast_cpu_dtype();
    s.gpu_dtype = at::autocast::get_autocast_gpu_dtype();
#endif
    return s;
  }
  void apply() const {
#if TORCH_VERSION_MAJOR > 2 ||                                                 \
    (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_enabled(at::kCPU, cpu_enabled);
    at::autocast::set_autocast_enabled(at::kCUDA, gpu_enabled);
    at::autocast::set_autocast_dtype(at::kCPU, cpu_dtype);
    at::autocast::set_autocast_dtype(at::kCUDA, gpu_dtype);
#else
    at::autocast::set_cpu_enabled(cpu_enabled);
    at::autocast::set_enabled(gpu_enabled);
    at::autocast::set_autocast_cpu_dtype(cpu_dtype);
    at::autocast::set_autocast_gpu_dtype(gpu_dtype);
#endif
  }
};

// Everything the backward needs besides the saved inputs. Held by the autograd
// node through a capsule in saved_data, so it dies with the graph.
struct RecomputeState : torch::CustomClassHolder {
  TensorFn fn;
  std::vector<Tensor> params;
  std::shared_ptr<detail::CheckpointCounters> counters;
  bool accumulate_unknown_leaves = false;
  std::size_t num_inputs = 0;
  std::vector<bool> input_requires_grad;
  bool preserve_rng = true;
  std::set<c10::DeviceIndex> cuda_devices; // whose RNG state is replayed
  AutocastState autocast;
  // Selective recompute (kept.ops set): what the forward kept, and which
  // parameters required grad then (the backward must read what it read).
  detail::SelectiveRecord kept;
  std::vector<bool> params_requiring_grad;
  detail::CheckpointObserver observer;

  void notify(CheckpointPhase phase) const {
    if (observer)
      observer(phase);
  }
};

bool differentiable(const Tensor &t) {
  return t.defined() && (t.is_floating_point() || t.is_complex());
}

struct CheckpointFunction : torch::autograd::Function<CheckpointFunction> {
  static variable_list forward(AutogradContext *ctx, at::TensorList all,
                               c10::intrusive_ptr<RecomputeState> state) {
    std::vector<Tensor> inputs(all.begin(), all.begin() + state->num_inputs);
    state->notify(CheckpointPhase::forward_begin);
    state->autocast = AutocastState::capture();
    // The RNG state is saved with the inputs, so the engine frees it with
    // them after the backward (and keeps it for another with retain_graph).
    std::vector<Tensor> saved = inputs;
    if (state->preserve_rng) {
      state->cuda_devices = detail::cuda_devices_of(inputs, state->params);
      for (Tensor &t : detail::RngState::capture(state->cuda_devices).tensors())
        saved.push_back(std::move(t));
    }
    ctx->save_for_backward(saved);
    std::vector<Tensor> outputs;
    if (state->kept.ops) {
      // Selective: run as the recompute will, with grad on and from detached
      // inputs, so the graph shows which kept outputs the backward reads; the
      // others are dropped, and the graph with the outputs' history goes.
      at::AutoGradMode grad_on(true);
      for (const Tensor &p : state->params)
        state->params_requiring_grad.push_back(p.requires_grad());
      std::vector<Tensor> attached;
      {
        detail::SelectiveMode mode(&state->kept,
                                   detail::SelectivePhase::record);
        attached = state->fn(detach_inputs(inputs, *state));
      }
      state->kept.finish_record(attached);
      for (const Tensor &out : attached)
        outputs.push_back(out.defined() ? out.detach() : out);
    } else {
      detail::SelectiveMode off(nullptr, detail::SelectivePhase::record);
      outputs = state->fn(inputs);
    }
    std::vector<Tensor> non_differentiable;
    for (const Tensor &out : outputs) {
      TORCH_CHECK(out.defined(),
                  "wrapguard: a checkpointed forward returned an undefined "
                  "tensor");
      if (!differentiable(out))
        non_differentiable.push_back(out);
    }
    ctx->mark_non_differentiable(non_differentiable);
    ctx->saved_data["state"] = c10::IValue::make_capsule(state);
    state->notify(CheckpointPhase::forward_end);
    return outputs;
  }

  static variable_list backward(AutogradContext *ctx,
                                variable_list grad_outputs) {
    // The engine runs a backward with grad mode on exactly when it was asked
    // to create a graph of the backward.
    TORCH_CHECK(!at::GradMode::is_enabled(),
                "wrapguard: checkpointed code does not support double backward "
                "(backward or grad with create_graph=true): the recomputed "
                "graph is freed after one use; run that part without "
                "checkpointing");
    auto state = c10::static_intrusive_pointer_cast<RecomputeState>(
        ctx->saved_data["state"].toCapsule());
    if (state->accumulate_unknown_leaves) {
      TORCH_CHECK(
          torch::autograd::Engine::get_default_engine().is_checkpoint_valid(),
          "wrapguard::checkpoint(fn, ...) works only with .backward() "
          "without `inputs`: fn's parameters are unknown to autograd, so "
          "torch::autograd::grad cannot reach their grads; wrap a module with "
          "wrapguard::CheckpointWrapper (or use checkpoint_sequential) "
          "instead");
    }
    const std::vector<Tensor> saved = ctx->get_saved_variables();
    const std::vector<Tensor> inputs(saved.begin(),
                                     saved.begin() + state->num_inputs);
    detail::RngState rng;
    if (state->preserve_rng)
      rng = detail::RngState::from_tensors(
          state->cuda_devices,
          {saved.begin() + state->num_inputs, saved.end()});
    std::vector<Tensor> detached = detach_inputs(inputs, *state);
    std::vector<Tensor> outputs = recompute(*state, rng, detached);
    TORCH_CHECK(outputs.size() == grad_outputs.size(),
                "wrapguard: the recompute returned ", outputs.size(),
                " tensors but the forward returned ", grad_outputs.size(),
                "; the checkpointed forward must be deterministic in shape");

    std::vector<Tensor> roots, root_grads;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (outputs[i].requires_grad() && grad_outputs[i].defined()) {
        roots.push_back(outputs[i]);
        root_grads.push_back(grad_outputs[i]);
      }
    }
    // One grad per forward argument: the tensors, then the state capsule.
    variable_list grads(state->num_inputs + state->params.size() + 1);
    if (!roots.empty()) {
      if (state->accumulate_unknown_leaves)
        accumulate_into_leaves(roots, root_grads, detached, grads);
      else
        grads_of_inputs_and_params(roots, root_grads, detached, *state, grads);
    }
    state->notify(CheckpointPhase::backward_end);
    return grads;
  }

private:
  // The saved inputs, detached; those that required grad do again, so the
  // recompute builds a graph from them.
  static std::vector<Tensor> detach_inputs(const std::vector<Tensor> &saved,
                                           const RecomputeState &state) {
    std::vector<Tensor> detached;
    detached.reserve(saved.size());
    for (std::size_t i = 0; i < saved.size(); ++i) {
      Tensor t = saved[i].defined() ? saved[i].detach() : saved[i];
      if (differentiable(t) && state.input_requires_grad[i])
        t.requires_grad_(true);
      detached.push_back(t);
    }
    return detached;
  }

  // Runs the forward again with grad on, under the forward's RNG and autocast
  // state, and restores the current ones afterwards (even on an exception).
  // The observer sees the recompute itself, inside the RNG bookkeeping, so
  // what it measures is what a plain forward would do.
  static std::vector<Tensor> recompute(RecomputeState &state,
                                       const detail::RngState &rng,
                                       const std::vector<Tensor> &inputs) {
    std::optional<detail::ForkRng> fork;
    if (state.preserve_rng) {
      fork.emplace(state.cuda_devices);
      rng.restore();
    }
    AutocastState current_autocast = AutocastState::capture();
    state.autocast.apply();
    struct RestoreAutocast {
      const AutocastState &saved;
      ~RestoreAutocast() { saved.apply(); }
    } restore{current_autocast};
    at::AutoGradMode grad_on(true);
    state.counters->recomputes.fetch_add(1, std::memory_order_relaxed);
    state.notify(CheckpointPhase::recompute_begin);
    std::vector<Tensor> outputs;
    if (!state.kept.ops) {
      detail::SelectiveMode off(nullptr, detail::SelectivePhase::replay);
      outputs = state.fn(inputs);
    } else {
      if (state.kept.skips()) {
        // The zeros handed back for skipped outputs are right only if the
        // graph saves what the forward's did.
        for (std::size_t i = 0; i < state.params.size(); ++i)
          TORCH_CHECK(state.params[i].requires_grad() ==
                          state.params_requiring_grad[i],
                      "wrapguard: selective recompute: parameter ", i,
                      " of the checkpointed module changed requires_grad "
                      "between the forward and the backward; set it before "
                      "the forward, or use full recompute");
      }
      {
        detail::SelectiveMode mode(&state.kept, detail::SelectivePhase::replay);
        outputs = state.fn(inputs);
      }
      const detail::SelectiveRecord::Replayed done = state.kept.finish_replay();
      state.counters->reused_outputs.fetch_add(done.reused,
                                               std::memory_order_relaxed);
      state.counters->skipped_outputs.fetch_add(done.skipped,
                                                std::memory_order_relaxed);
    }
    state.notify(CheckpointPhase::recompute_end);
    return outputs;
  }

  // Plain functions: accumulates into every leaf the recompute reaches (the
  // closure's parameters and the detached inputs, whose .grad we hand on).
  static void accumulate_into_leaves(const std::vector<Tensor> &roots,
                                     const std::vector<Tensor> &root_grads,
                                     const std::vector<Tensor> &detached,
                                     variable_list &grads) {
    torch::autograd::backward(roots, root_grads);
    for (std::size_t i = 0; i < detached.size(); ++i)
      if (detached[i].defined() && detached[i].requires_grad())
        grads[i] = detached[i].grad();
  }

  // Modules: the grads of the inputs and of the known parameters, which are
  // inputs of this node, so torch::autograd::grad reaches them too.
  static void grads_of_inputs_and_params(const std::vector<Tensor> &roots,
                                         const std::vector<Tensor> &root_grads,
                                         const std::vector<Tensor> &detached,
                                         const RecomputeState &state,
                                         variable_list &grads) {
    std::vector<Tensor> targets;
    std::vector<std::size_t> slots;
    for (std::size_t i = 0; i < detached.size(); ++i) {
      if (detached[i].defined() && detached[i].requires_grad()) {
        targets.push_back(detached[i]);
        slots.push_back(i);
      }
    }
    for (std::size_t i = 0; i < state.params.size(); ++i) {
      if (state.params[i].requires_grad()) {
        targets.push_back(state.params[i]);
        slots.push_back(state.num_inputs + i);
      }
    }
    if (targets.empty())
      return;
    variable_list found = torch::autograd::grad(
        roots, targets, root_grads, /*retain_graph=*/false,
        /*create_graph=*/false, /*allow_unused=*/true);
    for (std::size_t k = 0; k < found.size(); ++k)
      grads[slots[k]] = found[k];
  }
};

} // namespace

namespace detail {

std::vector<Tensor>
checkpoint_impl(TensorFn fn, const std::vector<Tensor> &inputs,
                const std::vector<Tensor> &params,
                std::shared_ptr<CheckpointCounters> counters,
                const CheckpointOptions &options,
                bool accumulate_unknown_leaves,
                const CheckpointObserver &observer) {
  TORCH_CHECK(!inputs.empty(),
              "wrapguard::checkpoint: needs at least one tensor input");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    TORCH_CHECK(inputs[i].defined(), "wrapguard::checkpoint: input ", i,
                " is an undefined tensor");
  if (!at::GradMode::is_enabled()) {
    // Nothing would be saved for a backward anyway. Run as the graph-building
    // path runs fn, out of sight of an enclosing selective checkpoint, so its
    // forward and its recompute see the same operators.
    SelectiveMode off(nullptr, SelectivePhase::record);
    return fn(inputs);
  }

  auto state = c10::make_intrusive<RecomputeState>();
  state->fn = std::move(fn);
  state->counters = std::move(counters);
  state->accumulate_unknown_leaves = accumulate_unknown_leaves;
  state->num_inputs = inputs.size();
  state->preserve_rng = options.preserve_rng_state();
  if (options.selective())
    state->kept.ops = SavedOps::get(options.saved_ops());
  state->observer = observer;
  for (const Tensor &t : inputs)
    state->input_requires_grad.push_back(t.requires_grad());
  for (const Tensor &p : params)
    if (p.defined())
      state->params.push_back(p);

  std::vector<Tensor> all = inputs;
  all.insert(all.end(), state->params.begin(), state->params.end());
  return CheckpointFunction::apply(at::TensorList(all), state);
}

TensorFn any_module_forward(torch::nn::AnyModule module) {
  return [module](const std::vector<Tensor> &in) mutable {
    torch::nn::AnyValue out = [&] {
      try {
        switch (in.size()) {
        case 1:
          return module.any_forward(in[0]);
        case 2:
          return module.any_forward(in[0], in[1]);
        case 3:
          return module.any_forward(in[0], in[1], in[2]);
        case 4:
          return module.any_forward(in[0], in[1], in[2], in[3]);
        default:
          break;
        }
      } catch (c10::Error &e) {
        // Keeps the original error, its type and backtrace; adds where.
        TORCH_RETHROW(e, "wrapguard::CheckpointWrapper: calling ",
                      module.ptr()->name(), "::forward() with ", in.size(),
                      " tensor(s)");
      }
      TORCH_CHECK(false, "wrapguard::CheckpointWrapper: ", in.size(),
                  " inputs given; a wrapped forward takes 1 to 4 tensors");
    }();
    if (const Tensor *t = out.try_get<Tensor>())
      return std::vector<Tensor>{*t};
    if (const auto *v = out.try_get<std::vector<Tensor>>())
      return *v;
    TORCH_CHECK(false, "wrapguard::CheckpointWrapper: ", module.ptr()->name(),
                "::forward() must return a tensor, not ",
                c10::demangle(out.type_info().name()));
  };
}

void note_wrapped_at_current_site(const torch::nn::Module &module) {
  CallSite *site = current_site();
  if (!site)
    return;
  std::int64_t params = 0;
  for (const Tensor &p : module.parameters())
    params += p.numel();
  site->add_note({{"type", short_type_name(module)}, {"num_params", params}});
}

std::set<c10::DeviceIndex> cuda_devices_of(const std::vector<Tensor> &a,
                                           const std::vector<Tensor> &b) {
  std::set<c10::DeviceIndex> out;
  for (const auto *list : {&a, &b})
    for (const Tensor &t : *list)
      if (t.defined() && t.is_cuda())
        out.insert(t.get_device());
  return out;
}

void check_one_device(const torch::nn::Module &module,
                      const std::vector<Tensor> &inputs, const char *who) {
  const Tensor *first = nullptr;
  std::size_t first_index = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &t = inputs[i];
    if (!t.defined())
      continue;
    if (!first) {
      first = &t;
      first_index = i;
      continue;
    }
    TORCH_CHECK(t.device() == first->device(), who, ": input ", first_index,
                " is on ", first->device().str(), " but input ", i, " is on ",
                t.device().str(), "; put every input on one device");
  }
  if (!first)
    return;
  const torch::Device device = first->device();
  auto check = [&](const char *what, const std::string &name, const Tensor &t) {
    TORCH_CHECK(!t.defined() || t.device() == device, who, ": the model's ",
                what, " '", name, "' is on ", t.device().str(), " but input ",
                first_index, " is on ", device.str(),
                "; move the model with module->to(", device.str(),
                ") or make the inputs on ", t.device().str());
  };
  for (const auto &p : module.named_parameters())
    check("parameter", p.key(), p.value());
  for (const auto &b : module.named_buffers())
    check("buffer", b.key(), b.value());
}

RngState RngState::capture(const std::set<c10::DeviceIndex> &cuda_devices) {
  RngState s;
  {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    s.cpu_ = gen.get_state();
  }
  // CUDA generators are reached through at::globalContext(), which dispatches
  // to the CUDA hooks at runtime and compiles in CPU-only builds.
  for (c10::DeviceIndex index : cuda_devices) {
    at::Generator gen =
        at::globalContext().defaultGenerator(at::Device(at::kCUDA, index));
    std::lock_guard<std::mutex> lock(gen.mutex());
    s.cuda_.emplace_back(index, gen.get_state());
  }
  return s;
}

std::vector<Tensor> RngState::tensors() const {
  std::vector<Tensor> out;
  if (cpu_.defined())
    out.push_back(cpu_);
  for (const auto &entry : cuda_)
    out.push_back(entry.second);
  return out;
}

RngState RngState::from_tensors(const std::set<c10::DeviceIndex> &cuda_devices,
                                const std::vector<Tensor> &tensors) {
  TORCH_INTERNAL_ASSERT(tensors.size() == 1 + cuda_devices.size(),
                        "RNG state tensors do not match the devices");
  RngState s;
  s.cpu_ = tensors[0];
  std::size_t i = 1;
  for (c10::DeviceIndex index : cuda_devices)
    s.cuda_.emplace_back(index, tensors[i++]);
  return s;
}

void RngState::restore() const {
  if (cpu_.defined()) {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(cpu_);
  }
  for (const auto &entry : cuda_) {
    at::Generator gen = at::globalContext().defaultGenerator(
        at::Device(at::kCUDA, entry.first));
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(entry.second);
  }
}

} // namespace detail

std::vector<std::string> CheckpointOptions::default_saved_ops() {
  return {"aten::mm",          "aten::addmm",  "aten::bmm",
          "aten::baddbmm",     "aten::addbmm", "aten::mv",
          "aten::addmv",       "aten::dot",    "aten::convolution",
          "aten::_convolution"};
}

// ---------------------------------------------------------------------------
// CheckpointWrapper

CheckpointWrapperImpl::CheckpointWrapperImpl(torch::nn::AnyModule module,
                                             CheckpointOptions options_)
    : options(std::move(options_)), module_(std::move(module)) {
  TORCH_CHECK(!module_.is_empty(),
              "wrapguard::CheckpointWrapper: the module is empty");
  const auto &inner = *module_.ptr();
  TORCH_CHECK(!inner.parameters().empty(),
              "wrapguard::CheckpointWrapper: ", inner.name(),
              " has no parameters, so there is nothing to checkpoint it "
              "for; to recompute a parameter-free computation use "
              "wrapguard::checkpoint(fn, inputs...)");
  register_wrapped();
  detail::note_wrapped_at_current_site(inner);
}

void CheckpointWrapperImpl::register_wrapped() {
  counters_ = std::make_shared<detail::CheckpointCounters>();
  register_module("module", module_.ptr());
  forward_ = detail::any_module_forward(module_);
}

void CheckpointWrapperImpl::reset() {
  // Reached through clone(): the copy must own a copy of the wrapped module,
  // and nobody observes it yet.
  module_ = module_.clone();
  observer_ = nullptr;
  register_wrapped();
}

Tensor CheckpointWrapperImpl::forward(const Tensor &input, const Tensor &input2,
                                      const Tensor &input3,
                                      const Tensor &input4) {
  std::vector<Tensor> inputs{input};
  for (const Tensor *t : {&input2, &input3, &input4})
    if (t->defined())
      inputs.push_back(*t);
  auto outputs =
      detail::checkpoint_impl(forward_, inputs, module_.ptr()->parameters(),
                              counters_, options, false, observer_);
  TORCH_CHECK(outputs.size() == 1,
              "wrapguard::CheckpointWrapper: ", module_.ptr()->name(),
              "::forward() returned several tensors; the wrapper's forward "
              "returns one");
  return outputs[0];
}

void CheckpointWrapperImpl::pretty_print(std::ostream &stream) const {
  stream << "wrapguard::CheckpointWrapper(" << short_type_name(*module_.ptr())
         << ")";
}

// ---------------------------------------------------------------------------
// checkpoint_sequential

Tensor checkpoint_sequential(torch::nn::Sequential seq, std::int64_t segments,
                             const Tensor &input, CheckpointOptions options) {
  TORCH_CHECK(!seq.is_empty(),
              "wrapguard::checkpoint_sequential: null Sequential");
  const auto n = static_cast<std::int64_t>(seq->size());
  TORCH_CHECK(n > 0,
              "wrapguard::checkpoint_sequential: the Sequential is empty; "
              "there is nothing to run");
  TORCH_CHECK(segments >= 1,
              "wrapguard::checkpoint_sequential: segments "
              "must be at least 1, got ",
              segments);
  TORCH_CHECK(segments <= n, "wrapguard::checkpoint_sequential: ", segments,
              " segments for ", n,
              " layers; use at most one segment per layer");
  auto run = [seq](std::int64_t begin, std::int64_t end) {
    return [seq, begin, end](const std::vector<Tensor> &in) mutable {
      torch::nn::AnyValue x(in.at(0));
      for (std::int64_t i = begin; i < end; ++i)
        x = (*(seq->begin() + i)).any_forward(std::move(x));
      return std::vector<Tensor>{x.get<Tensor>()};
    };
  };
  const std::int64_t size = n / segments;
  Tensor x = input;
  auto counters = std::make_shared<detail::CheckpointCounters>();
  std::int64_t start = 0;
  for (std::int64_t s = 0; s + 1 < segments; ++s, start += size) {
    std::vector<Tensor> params;
    for (std::int64_t i = start; i < start + size; ++i)
      for (const Tensor &p : seq->ptr(i)->parameters())
        params.push_back(p);
    x = detail::checkpoint_impl(run(start, start + size), {x}, params, counters,
                                options, false)[0];
  }
  return run(start, n)({x})[0];
}

} // namespace wrapguard
