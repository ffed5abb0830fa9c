//===- checkpoint.cpp - Activation checkpointing and wrap policies --------===//
//
// The autograd node behind CheckpointWrapper, checkpoint() and
// checkpoint_sequential(), and the wrap policies that place it.
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

// Generator states: the CPU default generator and, when the tensors live on
// CUDA, the default generator of each such device. CUDA generators are reached
// through at::globalContext(), which dispatches to the CUDA hooks at runtime
// and compiles in CPU-only builds, so no #if is needed here.
struct RngState {
  Tensor cpu;
  std::vector<std::pair<c10::DeviceIndex, Tensor>> cuda;

  static RngState capture(const std::set<c10::DeviceIndex> &cuda_devices) {
    RngState s;
    {
      at::Generator gen = at::detail::getDefaultCPUGenerator();
      std::lock_guard<std::mutex> lock(gen.mutex());
      s.cpu = gen.get_state();
    }
    for (c10::DeviceIndex index : cuda_devices) {
      at::Generator gen =
          at::globalContext().defaultGenerator(at::Device(at::kCUDA, index));
      std::lock_guard<std::mutex> lock(gen.mutex());
      s.cuda.emplace_back(index, gen.get_state());
    }
    return s;
  }
  void apply() const {
    {
      at::Generator gen = at::detail::getDefaultCPUGenerator();
      std::lock_guard<std::mutex> lock(gen.mutex());
      gen.set_state(cpu);
    }
    for (const auto &entry : cuda) {
      at::Generator gen = at::globalContext().defaultGenerator(
          at::Device(at::kCUDA, entry.first));
      std::lock_guard<std::mutex> lock(gen.mutex());
      gen.set_state(entry.second);
    }
  }
};

std::set<c10::DeviceIndex> cuda_devices_of(const std::vector<Tensor> &a,
                                           const std::vector<Tensor> &b) {
  std::set<c10::DeviceIndex> out;
  for (const auto *list : {&a, &b})
    for (const Tensor &t : *list)
      if (t.defined() && t.is_cuda())
        out.insert(t.get_device());
  return out;
}

// Everything the backward needs besides the saved inputs. Held by the autograd
// node through a capsule in saved_data, so it dies with the graph.
struct RecomputeState : torch::CustomClassHolder {
  TensorFn fn;
  std::vector<Tensor> params;
  std::shared_ptr<std::atomic<std::int64_t>> recomputes;
  bool accumulate_unknown_leaves = false;
  std::size_t num_inputs = 0;
  std::vector<bool> input_requires_grad;
  bool preserve_rng = true;
  std::set<c10::DeviceIndex> cuda_devices;
  RngState rng;
  AutocastState autocast;
};

bool differentiable(const Tensor &t) {
  return t.defined() && (t.is_floating_point() || t.is_complex());
}

struct CheckpointFunction : torch::autograd::Function<CheckpointFunction> {
  static variable_list forward(AutogradContext *ctx, at::TensorList all,
                               c10::intrusive_ptr<RecomputeState> state) {
    std::vector<Tensor> inputs(all.begin(), all.begin() + state->num_inputs);
    state->autocast = AutocastState::capture();
    if (state->preserve_rng) {
      state->cuda_devices = cuda_devices_of(inputs, state->params);
      state->rng = RngState::capture(state->cuda_devices);
    }
    ctx->save_for_backward(inputs);
    std::vector<Tensor> outputs = state->fn(inputs);
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
    std::vector<Tensor> detached =
        detach_inputs(ctx->get_saved_variables(), *state);
    std::vector<Tensor> outputs = recompute(*state, detached);
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
    if (roots.empty())
      return grads;
    if (state->accumulate_unknown_leaves)
      accumulate_into_leaves(roots, root_grads, detached, grads);
    else
      grads_of_inputs_and_params(roots, root_grads, detached, *state, grads);
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
  static std::vector<Tensor> recompute(RecomputeState &state,
                                       const std::vector<Tensor> &inputs) {
    RngState current;
    if (state.preserve_rng) {
      current = RngState::capture(state.cuda_devices);
      state.rng.apply();
    }
    AutocastState current_autocast = AutocastState::capture();
    state.autocast.apply();
    struct Restore {
      const RngState *rng;
      const AutocastState *autocast;
      ~Restore() {
        autocast->apply();
        if (rng)
          rng->apply();
      }
    } restore{state.preserve_rng ? &current : nullptr, &current_autocast};
    at::AutoGradMode grad_on(true);
    state.recomputes->fetch_add(1, std::memory_order_relaxed);
    return state.fn(inputs);
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
                std::shared_ptr<std::atomic<std::int64_t>> recomputes,
                const CheckpointOptions &options,
                bool accumulate_unknown_leaves) {
  TORCH_CHECK(!inputs.empty(),
              "wrapguard::checkpoint: needs at least one tensor input");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    TORCH_CHECK(inputs[i].defined(), "wrapguard::checkpoint: input ", i,
                " is an undefined tensor");
  if (!at::GradMode::is_enabled())
    return fn(inputs); // nothing would be saved for a backward anyway

  auto state = c10::make_intrusive<RecomputeState>();
  state->fn = std::move(fn);
  state->recomputes = std::move(recomputes);
  state->accumulate_unknown_leaves = accumulate_unknown_leaves;
  state->num_inputs = inputs.size();
  state->preserve_rng = options.preserve_rng_state();
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
  site->add_note("{\"type\":\"" + json_escape(short_type_name(module)) +
                 "\",\"num_params\":" + std::to_string(params) + "}");
}

} // namespace detail

// ---------------------------------------------------------------------------
// CheckpointWrapper

CheckpointWrapperImpl::CheckpointWrapperImpl(torch::nn::AnyModule module,
                                             CheckpointOptions options)
    : module_(std::move(module)), options_(options) {
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
  recomputes_ = std::make_shared<std::atomic<std::int64_t>>(0);
  register_module("module", module_.ptr());
  forward_ = detail::any_module_forward(module_);
}

void CheckpointWrapperImpl::reset() {
  // Reached through clone(): the copy must own a copy of the wrapped module.
  module_ = module_.clone();
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
                              recomputes_, options_, false);
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
  auto recomputes = std::make_shared<std::atomic<std::int64_t>>(0);
  std::int64_t start = 0;
  for (std::int64_t s = 0; s + 1 < segments; ++s, start += size) {
    std::vector<Tensor> params;
    for (std::int64_t i = start; i < start + size; ++i)
      for (const Tensor &p : seq->ptr(i)->parameters())
        params.push_back(p);
    x = detail::checkpoint_impl(run(start, start + size), {x}, params,
                                recomputes, options, false)[0];
  }
  return run(start, n)({x})[0];
}

// ---------------------------------------------------------------------------
// Policies

std::string short_type_name(const torch::nn::Module &module) {
  std::string name = module.name();
  // Strip template arguments before looking for the last scope.
  std::string base = name.substr(0, name.find('<'));
  auto scope = base.rfind("::");
  if (scope != std::string::npos)
    base = base.substr(scope + 2);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, "Impl") == 0)
    base.resize(base.size() - 4);
  return base;
}

std::int64_t count_unwrapped_params(const torch::nn::Module &module) {
  if (dynamic_cast<const CheckpointWrapperImpl *>(&module))
    return 0;
  std::int64_t total = 0;
  for (const auto &p : module.named_parameters(/*recurse=*/false))
    total += p.value().numel();
  for (const auto &child : module.children())
    total += count_unwrapped_params(*child);
  return total;
}

WrapPolicy WrapPolicy::no_wrap() { return WrapPolicy(Kind::no_wrap); }

WrapPolicy WrapPolicy::size_based(std::int64_t min_num_params) {
  TORCH_CHECK(min_num_params >= 0,
              "wrapguard::WrapPolicy::size_based: "
              "min_num_params must be >= 0, got ",
              min_num_params);
  WrapPolicy p(Kind::size_based);
  p.min_num_params_ = min_num_params;
  return p;
}

WrapPolicy WrapPolicy::transformer_based(std::set<std::string> type_names) {
  WrapPolicy p(Kind::transformer_based);
  p.type_names_ = std::move(type_names);
  return p;
}

WrapPolicy
WrapPolicy::lambda(std::function<bool(const torch::nn::Module &)> check_fn) {
  TORCH_CHECK(check_fn, "wrapguard::WrapPolicy::lambda: check_fn is empty");
  WrapPolicy p(Kind::lambda);
  p.check_fn_ = std::move(check_fn);
  return p;
}

bool WrapPolicy::can_wrap() const {
  switch (kind_) {
  case Kind::no_wrap:
    return false;
  case Kind::transformer_based:
    return !type_names_.empty();
  default:
    return true;
  }
}

std::string WrapPolicy::name() const {
  switch (kind_) {
  case Kind::no_wrap:
    return "NO_WRAP";
  case Kind::size_based:
    return "SIZE_BASED(min=" + std::to_string(min_num_params_) + ")";
  case Kind::transformer_based: {
    std::string out = "TRANSFORMER_BASED(";
    bool first = true;
    for (const auto &n : type_names_) {
      out += (first ? "" : ",") + n;
      first = false;
    }
    return out + ")";
  }
  case Kind::lambda:
    return "LAMBDA";
  }
  return "?";
}

WrapFn WrapPolicy::resolve(const torch::nn::Module &module) const {
  if (dynamic_cast<const CheckpointWrapperImpl *>(&module))
    return {};
  bool wrap = false;
  switch (kind_) {
  case Kind::no_wrap:
    break;
  case Kind::size_based:
    wrap = count_unwrapped_params(module) >= min_num_params_;
    break;
  case Kind::transformer_based: {
    std::string full = module.name();
    std::string base = full.substr(0, full.find('<'));
    auto scope = base.rfind("::");
    std::string unqualified =
        scope == std::string::npos ? base : base.substr(scope + 2);
    wrap = type_names_.count(full) || type_names_.count(unqualified) ||
           type_names_.count(short_type_name(module));
    break;
  }
  case Kind::lambda:
    wrap = check_fn_(module);
    break;
  }
  if (!wrap)
    return {};
  CheckpointOptions options = options_;
  return [options](const torch::nn::AnyModule &m) {
    return torch::nn::AnyModule(
        CheckpointWrapper(std::make_shared<CheckpointWrapperImpl>(m, options)));
  };
}

// ---------------------------------------------------------------------------
// apply_activation_checkpointing

namespace {

// policy.resolve(module), with errors that say which module the policy threw
// for: a c10::Error keeps its type and backtrace and gains that context; any
// other exception becomes a c10::Error with its message.
WrapFn resolve_or_explain(const WrapPolicy &policy,
                          const torch::nn::Module &module,
                          const std::string &path) {
  try {
    return policy.resolve(module);
  } catch (c10::Error &e) {
    TORCH_RETHROW(e, "wrapguard::apply_activation_checkpointing: policy ",
                  policy.name(), " threw for module '", path, "' (",
                  short_type_name(module), ")");
  } catch (const std::exception &e) {
    TORCH_CHECK(false, "wrapguard::apply_activation_checkpointing: policy ",
                policy.name(), " threw for module '", path, "' (",
                short_type_name(module), "): ", e.what());
  }
}

void wrap_children(torch::nn::Module &parent, const std::string &prefix,
                   const WrapPolicy &policy, CheckpointReport &report) {
  auto *seq = dynamic_cast<torch::nn::SequentialImpl *>(&parent);
  for (const auto &item : parent.named_children()) {
    const std::string &key = item.key();
    const std::shared_ptr<torch::nn::Module> &child = item.value();
    const std::string path = prefix.empty() ? key : prefix + "." + key;
    if (dynamic_cast<CheckpointWrapperImpl *>(child.get()))
      continue; // already checkpointed: never wrap or recompute twice
    ++report.modules_visited;
    wrap_children(*child, path, policy, report);

    WrapFn wrap = resolve_or_explain(policy, *child, path);
    if (!wrap)
      continue;
    const std::string type = short_type_name(*child);
    const std::int64_t params = count_unwrapped_params(*child);
    if (child->parameters().empty()) {
      report.skipped.push_back(
          {path, type, "no parameters: nothing to checkpoint it for"});
      continue;
    }
    if (!seq) {
      report.skipped.push_back(
          {path, type,
           "its parent " + short_type_name(parent) +
               " is not a torch::nn::Sequential and calls it directly; wrap "
               "it by hand with wrapguard::CheckpointWrapper"});
      continue;
    }
    std::size_t index = 0;
    while (index < seq->size() && seq->ptr(index).get() != child.get())
      ++index;
    TORCH_INTERNAL_ASSERT(index < seq->size(),
                          "child of a Sequential not among its modules");
    torch::nn::AnyModule &slot = *(seq->begin() + index);
    torch::nn::AnyModule wrapped = wrap(slot);
    TORCH_CHECK(!wrapped.is_empty(),
                "wrapguard::apply_activation_checkpointing:"
                " the wrap callable of policy ",
                policy.name(), " returned an empty module for '", path, "'");
    slot = wrapped;
    parent.replace_module(key, wrapped.ptr());
    WrappedModule entry;
    entry.name = path;
    entry.type = type;
    entry.num_params = params;
    entry.wrapper = CheckpointWrapper(
        std::dynamic_pointer_cast<CheckpointWrapperImpl>(wrapped.ptr()));
    report.wrapped.push_back(std::move(entry));
  }
}

} // namespace

CheckpointReport
apply_activation_checkpointing(const std::shared_ptr<torch::nn::Module> &root,
                               const WrapPolicy &policy) {
  TORCH_CHECK(root, "wrapguard::apply_activation_checkpointing: root is null");
  CheckpointReport report;
  report.policy = policy.name();
  if (policy.kind() == WrapPolicy::Kind::no_wrap) {
    report.warnings.push_back(
        "activation checkpointing with policy NO_WRAP wraps nothing, so "
        "nothing is checkpointed (PyTorch's None policy would wrap every "
        "module instead)");
    return report;
  }
  wrap_children(*root, "", policy, report);
  if (report.wrapped.empty())
    report.warnings.push_back("policy " + policy.name() +
                              " wrapped no module; nothing is checkpointed");
  for (const auto &s : report.skipped)
    report.warnings.push_back("not wrapped: '" + s.name + "' (" + s.type +
                              "): " + s.reason);
  return report;
}

std::string CheckpointReport::to_string() const {
  std::ostringstream out;
  out << "policy " << policy << ": wrapped " << wrapped.size() << " of "
      << modules_visited << " modules\n";
  for (const auto &w : wrapped)
    out << "  wrapped " << w.name << " (" << w.type << ", " << w.num_params
        << " params)\n";
  for (const auto &w : warnings)
    out << "  warning: " << w << "\n";
  return out.str();
}

void validate_checkpointing(const WrapPolicy &policy,
                            const CheckpointingRequest &options) {
  TORCH_CHECK_VALUE(
      !options.activation_checkpointing() || policy.can_wrap(),
      "activation checkpointing is enabled but the wrap policy ", policy.name(),
      " wraps no module; choose a size-based, transformer-based or lambda "
      "policy, or disable activation checkpointing");
}

} // namespace wrapguard
