// REQUIRES: libtorch
// RUN: %check_wrapguard %s %t -- -isystem /usr/include/torch/csrc/api/include

// Whether a default-constructed callable handle is empty comes from the
// constructor that runs, read from its definition: a LibTorch module holder's
// default constructor constructs its module (the most common line of
// LibTorch training code), while `Linear l{nullptr};` is the empty holder.

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/loss.h>
#include <torch/nn/pimpl.h>

#include <memory>

struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); } // no-warning
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);

torch::Tensor default_constructed_loss(torch::Tensor pred, torch::Tensor y) {
  torch::nn::MSELoss criterion;
  return criterion(pred, y); // no-warning
}

torch::Tensor default_constructed_user_module(torch::Tensor x) {
  Block block;
  return block(x); // no-warning
}

torch::Tensor constructed_with_options(torch::Tensor x) {
  torch::nn::Linear fc(4, 2);
  return fc(x); // no-warning
}

// A handle of the project's own whose default constructor leaves it empty.
struct ScorerImpl {
  float operator()(float x) const { return x; }
};
class Scorer {
public:
  Scorer() = default;
  explicit Scorer(std::shared_ptr<ScorerImpl> impl) : impl_(std::move(impl)) {}
  explicit operator bool() const { return impl_ != nullptr; }
  float operator()(float x) const { return (*impl_)(x); }

private:
  std::shared_ptr<ScorerImpl> impl_;
};

// And one whose default constructor fills it.
class DefaultScorer {
public:
  DefaultScorer() : impl_(std::make_shared<ScorerImpl>()) {}
  explicit operator bool() const { return impl_ != nullptr; }
  float operator()(float x) const { return (*impl_)(x); }

private:
  std::shared_ptr<ScorerImpl> impl_;
};

float default_scorer(float x) {
  DefaultScorer s;
  return s(x); // no-warning
}

// True neighbours: the empty holders.

torch::Tensor empty_holder_braces(torch::Tensor x) {
  torch::nn::Linear fc{nullptr};
  return fc(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'fc', which is always empty here [wrapguard-unchecked-policy-call]
}

torch::Tensor empty_holder_assigned(torch::Tensor x) {
  Block block = nullptr;
  return block(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'block', which is always empty here [wrapguard-unchecked-policy-call]
}

float default_constructed_empty_scorer(float x) {
  Scorer s;
  return s(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 's', which is always empty here [wrapguard-unchecked-policy-call]
}
