// A small LibTorch training program with accelerate's NO_WRAP bug, in C++.
//
// resolve_wrap_policy() returns an empty WrapFn for AutoWrapPolicy::NoWrap,
// meaning "don't wrap". shard_model() checks for that; its sibling
// apply_activation_checkpointing() calls the policy's result anyway, which
// throws std::bad_function_call when both NO_WRAP and activation
// checkpointing are configured. Each setting alone works.
//
// Built as build/bin/train_fsdp (examples/CMakeLists.txt). tools/demo scans
// it, fixes it with FixMode: shim, builds the fixed copy and runs it:
//   train_fsdp [--device cpu|cuda] [--steps N] [--policy no_wrap|transformer]
// (default: CUDA when available, 3 steps, NO_WRAP).
// --policy may be repeated; each configuration trains for N steps, and one
// that wraps is then verified against the unwrapped model (grads, one
// recompute per backward, peak memory) by wrapguard::verify_checkpointing.
#include <wrapguard/checkpoint.h>
#include <wrapguard/verify.h>

#include <torch/torch.h>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

using WrapFn = std::function<torch::nn::AnyModule(torch::nn::AnyModule)>;

enum class AutoWrapPolicy { TransformerBased, NoWrap };

struct TrainConfig {
  AutoWrapPolicy auto_wrap_policy = AutoWrapPolicy::NoWrap;
  bool activation_checkpointing = true;
};

WrapFn resolve_wrap_policy(const TrainConfig &cfg) {
  switch (cfg.auto_wrap_policy) {
  case AutoWrapPolicy::TransformerBased:
    // Each block recomputes its activations in the backward.
    return [](torch::nn::AnyModule block) {
      return torch::nn::AnyModule(wrapguard::CheckpointWrapper(block));
    };
  case AutoWrapPolicy::NoWrap:
    return nullptr; // "don't wrap"
  }
  return nullptr;
}

struct BlockImpl : torch::nn::Cloneable<BlockImpl> {
  BlockImpl() { reset(); }
  void reset() override {
    norm = register_module(
        "norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({256})));
    fc1 = register_module("fc1", torch::nn::Linear(256, 1024));
    fc2 = register_module("fc2", torch::nn::Linear(1024, 256));
  }
  torch::Tensor forward(torch::Tensor x) {
    return x + fc2(torch::gelu(fc1(norm(x))));
  }
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Block);

// The model runs its layers in order; a wrap pass may replace any of them.
struct ModelImpl : torch::nn::Cloneable<ModelImpl> {
  ModelImpl() { reset(); }
  void reset() override {
    layers.clear();
    for (int i = 0; i < 4; ++i)
      layers.emplace_back(
          register_module("layer" + std::to_string(i), Block()));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (torch::nn::AnyModule &layer : layers)
      x = layer.forward(x);
    return x;
  }
  std::vector<torch::nn::AnyModule> layers;
};
TORCH_MODULE(Model);

// The first pass checks the policy before using it.
void shard_model(ModelImpl &model, const TrainConfig &cfg) {
  WrapFn policy = resolve_wrap_policy(cfg);
  if (!policy) {
    std::cout << "shard_model: NO_WRAP, the model is one unit\n";
    return;
  }
  std::cout << "shard_model: " << model.layers.size() << " units\n";
}

// Its sibling does not.
void apply_activation_checkpointing(ModelImpl &model, const TrainConfig &cfg) {
  if (!cfg.activation_checkpointing)
    return;
  WrapFn policy = resolve_wrap_policy(cfg);
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    torch::nn::AnyModule module = model.layers[i];
    torch::nn::AnyModule wrapped = policy(module);
    model.replace_module("layer" + std::to_string(i), wrapped.ptr());
    model.layers[i] = wrapped;
  }
}

torch::Tensor batch(torch::Device device) {
  return torch::randn({8, 128, 256}, torch::TensorOptions().device(device));
}

// N steps of SGD on a regression to zero: enough to show the wrapped model
// trains.
void train(const TrainConfig &cfg, torch::Device device, int steps) {
  torch::manual_seed(0);
  Model model;
  model->to(device);
  shard_model(*model, cfg);
  apply_activation_checkpointing(*model, cfg);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = model->forward(batch(device)).square().mean();
    loss.backward();
    optimizer.step();
    std::cout << "step " << step << ": loss " << loss.item<double>() << "\n";
  }
}

int main(int argc, char **argv) {
  // CUDA when this LibTorch and the machine have it.
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  int steps = 3;
  std::vector<TrainConfig> configs;
  for (int i = 1; i < argc; i += 2) {
    const std::string arg = argv[i], value = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--device" && (value == "cpu" || value == "cuda"))
      device = torch::Device(value);
    else if (arg == "--steps" && std::atoi(value.c_str()) > 0)
      steps = std::atoi(value.c_str());
    else if (arg == "--policy" && value == "no_wrap")
      configs.push_back({AutoWrapPolicy::NoWrap});
    else if (arg == "--policy" && value == "transformer")
      configs.push_back({AutoWrapPolicy::TransformerBased});
    else {
      std::cerr << "usage: train_fsdp [--device cpu|cuda] [--steps N] "
                   "[--policy no_wrap|transformer]...\n";
      return 2;
    }
  }
  if (configs.empty())
    configs.push_back({}); // NO_WRAP with activation checkpointing
  for (const TrainConfig &cfg : configs) {
    const bool wraps = cfg.auto_wrap_policy != AutoWrapPolicy::NoWrap;
    std::cout << "== " << (wraps ? "TRANSFORMER_BASED" : "NO_WRAP")
              << ", activation checkpointing, " << device.str() << "\n";
    train(cfg, device, steps);
    if (!wraps)
      continue;
    // The wrapping above, verified: the same pass on a copy of the model,
    // run beside the unwrapped model on the same batch and seed.
    Model reference;
    const wrapguard::VerifyResult r = wrapguard::verify_checkpointing(
        torch::nn::AnyModule(reference), "apply_activation_checkpointing",
        [&cfg](torch::nn::Module &root) {
          apply_activation_checkpointing(dynamic_cast<ModelImpl &>(root), cfg);
        },
        [](torch::Device d) { return std::vector<torch::Tensor>{batch(d)}; },
        wrapguard::VerifyOptions().device(device).timed_steps(1));
    std::cout << "verified: " << r.wrapped.size() << " blocks wrapped, "
              << "max|dgrad| " << r.max_abs_grad_diff << ", peak "
              << r.peak_bytes_plain / (1 << 20) << " -> "
              << r.peak_bytes_checkpointed / (1 << 20) << " MiB: "
              << (r.passed(device.is_cpu() ? 0.0 : 1e-5) ? "ok" : "FAILED")
              << "\n";
    if (!r.passed(device.is_cpu() ? 0.0 : 1e-5))
      return 1;
  }
}
