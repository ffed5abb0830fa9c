// Built and linked against the installed shim (wrapguard::shim), which
// brings LibTorch.
#include <wrapguard/policy.h>

#include <torch/torch.h>

#include <cstdio>

struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor X) { return torch::relu(fc(X)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);

int main() {
  torch::nn::Sequential Model{Block(), Block()};
  auto Report = wrapguard::apply_activation_checkpointing(
      Model, wrapguard::WrapPolicy::transformer_based({"BlockImpl"}));
  std::printf("shim: wrapped %zu modules\n", Report.wrapped.size());
  return Report.wrapped.size() == 2 ? 0 : 1;
}
