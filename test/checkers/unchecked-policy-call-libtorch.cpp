// REQUIRES: libtorch
// RUN: %check_wrapguard %s %t -- -isystem /usr/include/torch/csrc/api/include

// Real LibTorch headers: a module tree, named_children(), and TORCH_CHECK as a
// guard (it ends in a [[noreturn]] call). accelerate's NO_WRAP bug in C++.

#include <c10/util/Exception.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

#include <functional>
#include <memory>

using ModulePtr = std::shared_ptr<torch::nn::Module>;
using WrapFn = std::function<ModulePtr(ModulePtr)>;

enum class AutoWrapPolicy { SizeBased, NoWrap };

WrapFn resolve_wrap_policy(AutoWrapPolicy p) {
  if (p == AutoWrapPolicy::SizeBased)
    return [](ModulePtr m) { return m; };
  return nullptr; // "don't wrap"
}

struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);

void apply_activation_checkpointing(torch::nn::Module &root, AutoWrapPolicy p) {
  WrapFn policy = resolve_wrap_policy(p);
  for (auto &child : root.named_children()) {
    ModulePtr module = child.value();
    ModulePtr wrapped = policy(module);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: call through possibly empty callable 'policy' [wrapguard-unchecked-policy-call]
    // CHECK-FIXES: {{^}}    ModulePtr wrapped = (policy ? policy(module) : module);{{$}}
    root.replace_module(child.key(), wrapped);
  }
}

void torch_check_on_something_else(torch::nn::Module &root, AutoWrapPolicy p) {
  WrapFn policy = resolve_wrap_policy(p);
  TORCH_CHECK(!root.named_children().is_empty(), "the model has no blocks");
  for (auto &child : root.named_children())
    root.replace_module(child.key(), policy(child.value()));
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: call through possibly empty callable 'policy' [wrapguard-unchecked-policy-call]
}

// Negative cases.

void shard_model(torch::nn::Module &root, AutoWrapPolicy p) {
  WrapFn policy = resolve_wrap_policy(p);
  if (!policy)
    return;
  for (auto &child : root.named_children()) {
    ModulePtr module = child.value();
    root.replace_module(child.key(), policy(module)); // no-warning
  }
}

void guarded_by_torch_check(torch::nn::Module &root, AutoWrapPolicy p) {
  WrapFn policy = resolve_wrap_policy(p);
  TORCH_CHECK(policy, "activation checkpointing needs a wrap policy");
  for (auto &child : root.named_children()) {
    ModulePtr module = child.value();
    root.replace_module(child.key(), policy(module)); // no-warning
  }
}

void guarded_by_torch_internal_assert(torch::nn::Module &root, AutoWrapPolicy p) {
  WrapFn policy = resolve_wrap_policy(p);
  TORCH_INTERNAL_ASSERT(policy != nullptr);
  for (auto &child : root.named_children())
    root.replace_module(child.key(), policy(child.value())); // no-warning
}

int main() {
  torch::nn::Sequential model(Block{}, Block{});
  shard_model(*model, AutoWrapPolicy::NoWrap);
  guarded_by_torch_check(*model, AutoWrapPolicy::SizeBased);
  guarded_by_torch_internal_assert(*model, AutoWrapPolicy::SizeBased);
  torch_check_on_something_else(*model, AutoWrapPolicy::SizeBased);
  apply_activation_checkpointing(*model, AutoWrapPolicy::NoWrap);
}
