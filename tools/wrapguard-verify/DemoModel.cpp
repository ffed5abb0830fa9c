//===- DemoModel.cpp - The example model of wrapguard-verify --------------===//
#include "DemoModel.h"

#include <torch/nn/functional/activation.h>

namespace wrapguard {

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
  return x + drop(fc2(torch::gelu(fc1(norm(x)))));
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
  return head(norm(blocks->forward(x)));
}

} // namespace wrapguard
