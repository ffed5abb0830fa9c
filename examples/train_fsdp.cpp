// A small LibTorch training program with accelerate's NO_WRAP bug, in C++.
//
// resolve_wrap_policy() returns an empty WrapFn for AutoWrapPolicy::NoWrap,
// meaning "don't wrap". shard_model() checks for that; its sibling
// apply_activation_checkpointing() calls the policy's result anyway, which
// throws std::bad_function_call when both NO_WRAP and activation
// checkpointing are configured. Each setting alone works.
#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <memory>

using ModulePtr = std::shared_ptr<torch::nn::Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;

enum class AutoWrapPolicy { TransformerBased, SizeBased, NoWrap };

struct TrainConfig {
  AutoWrapPolicy auto_wrap_policy = AutoWrapPolicy::NoWrap;
  bool activation_checkpointing = true;
  int64_t min_num_params = 1000;
};

WrapFn resolve_wrap_policy(const TrainConfig &cfg) {
  switch (cfg.auto_wrap_policy) {
  case AutoWrapPolicy::TransformerBased:
  case AutoWrapPolicy::SizeBased:
    return [](ModulePtr m) { return m; };
  case AutoWrapPolicy::NoWrap:
    return nullptr; // "don't wrap"
  }
  return nullptr;
}

struct BlockImpl : torch::nn::Module {
  BlockImpl() {
    fc = register_module("fc", torch::nn::Linear(64, 64));
    norm = register_module("norm", torch::nn::LayerNorm(
                                       torch::nn::LayerNormOptions({64})));
  }
  torch::Tensor forward(torch::Tensor x) { return norm(torch::relu(fc(x))) + x; }
  torch::nn::Linear fc{nullptr};
  torch::nn::LayerNorm norm{nullptr};
};
TORCH_MODULE(Block);

// The first pass checks the policy before using it.
void shard_model(torch::nn::Module &root, const TrainConfig &cfg) {
  WrapFn policy = resolve_wrap_policy(cfg);
  if (!policy)
    return;
  for (auto &child : root.named_children()) {
    ModulePtr module = child.value();
    root.replace_module(child.key(), policy(module));
  }
}

// Its sibling does not.
void apply_activation_checkpointing(torch::nn::Module &root,
                                    const TrainConfig &cfg) {
  if (!cfg.activation_checkpointing)
    return;
  WrapFn policy = resolve_wrap_policy(cfg);
  for (auto &child : root.named_children()) {
    ModulePtr module = child.value();
    ModulePtr wrapped = policy(module);
    root.replace_module(child.key(), wrapped);
  }
}

int main() {
  torch::nn::Sequential model{Block{}, Block{}, Block{}};
  TrainConfig cfg;
  TORCH_CHECK(!model->named_children().is_empty(), "the model has no blocks");
  shard_model(*model, cfg);
  apply_activation_checkpointing(*model, cfg);
  std::cout << model->forward(torch::randn({8, 64})).sizes() << "\n";
}
