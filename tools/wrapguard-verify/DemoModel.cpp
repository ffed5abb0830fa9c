//===- DemoModel.cpp - The example model of wrapguard-verify --------------===//
#include "DemoModel.h"

#include <torch/nn/functional/activation.h>

namespace wrapguard {
namespace {

// ATen's linear, as Python's nn.Linear calls it: on an input of more than two
// dimensions it folds the bias into one addmm. The C++ frontend's
// torch::nn::Linear (F::linear) runs matmul and then adds the bias in a
// kernel of its own, 33 more kernels per step on the bench model: the 1.4 %
// by which C++ trailed Python on a GPU (docs/bench-shim.md).
torch::Tensor linear(const torch::nn::Linear &layer, const torch::Tensor &x) {
  return torch::linear(x, layer->weight, layer->bias);
}

} // namespace

DemoBlockImpl::DemoBlockImpl(DemoModelOptions options_) : options(options_) {
  reset();
}

void DemoBlockImpl::reset() {
  norm = register_module(
      "norm",
      torch::nn::LayerNorm(torch::nn::LayerNormOptions({options.width()})));
  fc1 = register_module("fc1",
                        torch::nn::Linear(options.width(), options.hidden()));
  fc2 = register_module("fc2",
                        torch::nn::Linear(options.hidden(), options.width()));
  drop = register_module("drop", torch::nn::Dropout(options.dropout()));
}

torch::Tensor DemoBlockImpl::forward(const torch::Tensor &x) {
  return x + drop(linear(fc2, torch::gelu(linear(fc1, norm(x)))));
}

DemoModelImpl::DemoModelImpl(DemoModelOptions options_) : options(options_) {
  reset();
}

void DemoModelImpl::reset() {
  blocks = register_module("blocks", torch::nn::Sequential());
  for (std::int64_t i = 0; i < options.blocks(); ++i)
    blocks->push_back(DemoBlock(options));
  norm = register_module(
      "norm",
      torch::nn::LayerNorm(torch::nn::LayerNormOptions({options.width()})));
  head = register_module("head",
                         torch::nn::Linear(options.width(), options.width()));
}

torch::Tensor DemoModelImpl::forward(const torch::Tensor &x) {
  return linear(head, norm(blocks->forward(x)));
}

} // namespace wrapguard
