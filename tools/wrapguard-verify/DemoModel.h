//===- DemoModel.h - The example model of wrapguard-verify ------*- C++ -*-===//
//
// A transformer-style stack that wrapguard-verify --demo and --bench verify
// and the shim's tests wrap. It is an example, not part of the shim's API, so
// it lives here rather than in shim/include.
#ifndef WRAPGUARD_VERIFY_DEMOMODEL_H
#define WRAPGUARD_VERIFY_DEMOMODEL_H

#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <cstdint>

namespace wrapguard {

/// Options of the example model.
///
/// Example:
/// ```
///   auto options = wrapguard::DemoModelOptions().blocks(2).width(32);
/// ```
struct DemoModelOptions {
  TORCH_ARG(std::int64_t, blocks) = 4;
  TORCH_ARG(std::int64_t, width) = 64;
  TORCH_ARG(std::int64_t, hidden) = 256;
  TORCH_ARG(double, dropout) = 0.1;
};

/// A pre-norm residual MLP block:
/// x + Dropout(Linear(GELU(Linear(LayerNorm(x))))).
///
/// Example:
/// ```
///   wrapguard::DemoBlock block(wrapguard::DemoModelOptions().width(16));
///   auto y = block(torch::randn({2, 8, 16}));
/// ```
class DemoBlockImpl : public torch::nn::Cloneable<DemoBlockImpl> {
public:
  explicit DemoBlockImpl(DemoModelOptions options = {});
  void reset() override;
  torch::Tensor forward(const torch::Tensor &x);

  DemoModelOptions options;
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::Dropout drop{nullptr};
};
TORCH_MODULE(DemoBlock);

/// `blocks` DemoBlocks in a Sequential, then a final LayerNorm and a linear
/// head.
///
/// Example:
/// ```
///   wrapguard::DemoModel model(wrapguard::DemoModelOptions().blocks(2));
///   auto report = wrapguard::apply_activation_checkpointing(
///       model, wrapguard::WrapPolicy::transformer_based({"DemoBlock"}));
/// ```
class DemoModelImpl : public torch::nn::Cloneable<DemoModelImpl> {
public:
  explicit DemoModelImpl(DemoModelOptions options = {});
  void reset() override;
  torch::Tensor forward(const torch::Tensor &x);

  DemoModelOptions options;
  torch::nn::Sequential blocks{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(DemoModel);

} // namespace wrapguard

#endif // WRAPGUARD_VERIFY_DEMOMODEL_H
