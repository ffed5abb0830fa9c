//===- shim_test.cpp - Unit tests of checkpointing, policies, verifier ----===//
//
// CheckpointWrapper, checkpoint, checkpoint_sequential, wrap policies and the
// verifier, on the CPU where every op is deterministic: grads must match the
// plain module's exactly (max |delta| == 0).
#include "DemoModel.h"

#include <wrapguard/call.h>
#include <wrapguard/checkpoint.h>
#include <wrapguard/policy.h>
#include <wrapguard/verify.h>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using torch::Tensor;
using wrapguard::CheckpointWrapper;
using wrapguard::WrapPolicy;

double max_diff(const Tensor &a, const Tensor &b) {
  if (!a.defined() || !b.defined())
    return a.defined() == b.defined() ? 0.0 : 1e300;
  return (a - b).abs().max().item<double>();
}

// Two tensors in, one out; the second input scales the first.
struct TwoInputImpl : torch::nn::Cloneable<TwoInputImpl> {
  TwoInputImpl() { reset(); }
  void reset() override {
    lin = register_module("lin", torch::nn::Linear(8, 8));
  }
  Tensor forward(const Tensor &x, const Tensor &scale) {
    return torch::tanh(lin(x)) * scale;
  }
  torch::nn::Linear lin{nullptr};
};
TORCH_MODULE(TwoInput);

// Integer output: never requires grad.
struct ArgmaxImpl : torch::nn::Cloneable<ArgmaxImpl> {
  ArgmaxImpl() { reset(); }
  void reset() override {
    lin = register_module("lin", torch::nn::Linear(8, 4));
  }
  Tensor forward(const Tensor &x) { return lin(x).argmax(-1); }
  torch::nn::Linear lin{nullptr};
};
TORCH_MODULE(Argmax);

struct NoTensorImpl : torch::nn::Cloneable<NoTensorImpl> {
  NoTensorImpl() { reset(); }
  void reset() override { w = register_parameter("w", torch::ones({2})); }
  Tensor forward(int64_t n) { return w * n; }
  Tensor w;
};
TORCH_MODULE(NoTensor);

// A custom parent that calls its child directly: its child cannot be swapped.
struct DirectParentImpl : torch::nn::Cloneable<DirectParentImpl> {
  DirectParentImpl() { reset(); }
  void reset() override {
    block = register_module("block", wrapguard::DemoBlock(small()));
  }
  Tensor forward(const Tensor &x) { return block(x); }
  static wrapguard::DemoModelOptions small() {
    return wrapguard::DemoModelOptions().width(16).hidden(32).blocks(2);
  }
  wrapguard::DemoBlock block{nullptr};
};
TORCH_MODULE(DirectParent);

wrapguard::DemoModelOptions small_options() {
  return wrapguard::DemoModelOptions().width(16).hidden(32).blocks(4).dropout(
      0.3);
}

// Runs `plain` and a CheckpointWrapper around a clone of it on the same
// inputs and seed; expects identical outputs, parameter and input grads.
// Returns the wrapper.
template <typename Holder>
CheckpointWrapper
expect_same_as_plain(Holder plain, const std::vector<Tensor> &inputs,
                     int64_t expected_recomputes = 1,
                     wrapguard::CheckpointOptions options = {}) {
  using Impl = typename Holder::ContainedType;
  Holder copy(std::dynamic_pointer_cast<Impl>(plain->clone()));
  CheckpointWrapper wrapper(copy, options);

  auto run = [&](torch::nn::AnyModule module, std::vector<Tensor> &leaves) {
    leaves.clear();
    for (const Tensor &t : inputs)
      leaves.push_back(t.detach().clone().requires_grad_(t.requires_grad()));
    torch::manual_seed(42);
    auto out = wrapguard::detail::any_module_forward(module)(leaves).at(0);
    if (out.requires_grad())
      (out * out).sum().backward();
    return out;
  };
  std::vector<Tensor> plain_in, ckpt_in;
  Tensor a = run(torch::nn::AnyModule(plain), plain_in);
  Tensor b = run(torch::nn::AnyModule(wrapper), ckpt_in);
  EXPECT_EQ(max_diff(a, b), 0.0);
  EXPECT_EQ(a.requires_grad(), b.requires_grad());
  auto pa = plain->parameters(), pb = copy->parameters();
  EXPECT_EQ(pa.size(), pb.size());
  for (size_t i = 0; i < pa.size() && i < pb.size(); ++i)
    EXPECT_EQ(max_diff(pa[i].grad(), pb[i].grad()), 0.0) << "param " << i;
  for (size_t i = 0; i < inputs.size(); ++i)
    EXPECT_EQ(max_diff(plain_in[i].grad(), ckpt_in[i].grad()), 0.0)
        << "input " << i;
  EXPECT_EQ(wrapper->recompute_count(), expected_recomputes);
  return wrapper;
}

TEST(CheckpointWrapper, LinearGradsMatch) {
  torch::manual_seed(0);
  expect_same_as_plain(torch::nn::Linear(8, 8),
                       {torch::randn({4, 8}, torch::requires_grad())});
}

TEST(CheckpointWrapper, Conv2dGradsMatch) {
  torch::manual_seed(0);
  expect_same_as_plain(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 3).padding(1)),
      {torch::randn({2, 3, 8, 8}, torch::requires_grad())});
}

TEST(CheckpointWrapper, BlockWithDropoutMatchesThanksToRngRestore) {
  torch::manual_seed(0);
  wrapguard::DemoBlock block(small_options().dropout(0.5));
  expect_same_as_plain(block,
                       {torch::randn({3, 5, 16}, torch::requires_grad())});
}

TEST(CheckpointWrapper, WithoutRngRestoreDropoutDiffers) {
  // Proves the test above can fail: no RNG replay, different masks.
  torch::manual_seed(0);
  wrapguard::DemoBlock plain(small_options().dropout(0.5));
  wrapguard::DemoBlock copy(
      std::dynamic_pointer_cast<wrapguard::DemoBlockImpl>(plain->clone()));
  CheckpointWrapper wrapper(
      copy, wrapguard::CheckpointOptions().preserve_rng_state(false));
  Tensor x = torch::randn({3, 5, 16});
  torch::manual_seed(1);
  plain(x).square().sum().backward();
  torch::manual_seed(1);
  wrapper(x).square().sum().backward();
  EXPECT_GT(max_diff(plain->fc1->weight.grad(), copy->fc1->weight.grad()), 0.0);
}

TEST(CheckpointWrapper, SeveralInputs) {
  torch::manual_seed(0);
  expect_same_as_plain(TwoInput(),
                       {torch::randn({4, 8}, torch::requires_grad()),
                        torch::randn({4, 8}, torch::requires_grad())});
}

TEST(CheckpointWrapper, InputsThatDontRequireGrad) {
  torch::manual_seed(0);
  // Parameter grads must still flow although no input requires grad.
  expect_same_as_plain(TwoInput(),
                       {torch::randn({4, 8}), torch::randn({4, 8})});
  expect_same_as_plain(torch::nn::Embedding(10, 8),
                       {torch::randint(0, 10, {4, 3}, torch::kLong)});
}

TEST(CheckpointWrapper, OutputsThatDontRequireGrad) {
  torch::manual_seed(0);
  Argmax m;
  CheckpointWrapper wrapper(m);
  Tensor x0 = torch::randn({4, 8}, torch::requires_grad());
  Tensor out = wrapper(x0);
  EXPECT_FALSE(out.requires_grad());
  EXPECT_TRUE(torch::equal(out, m(x0)));
  // Frozen parameters and plain input: nothing requires grad.
  torch::nn::Linear frozen(8, 8);
  for (auto &p : frozen->parameters())
    p.requires_grad_(false);
  CheckpointWrapper w2(frozen);
  Tensor x = torch::randn({2, 8});
  Tensor y = w2(x);
  EXPECT_FALSE(y.requires_grad());
  EXPECT_EQ(max_diff(y, frozen(x)), 0.0);
  EXPECT_EQ(w2->recompute_count(), 0);
}

TEST(CheckpointWrapper, EvalMode) {
  torch::manual_seed(0);
  wrapguard::DemoBlock block(small_options().dropout(0.5));
  block->eval();
  expect_same_as_plain(block,
                       {torch::randn({2, 4, 16}, torch::requires_grad())});
}

TEST(CheckpointWrapper, NestedWrapper) {
  torch::manual_seed(0);
  torch::nn::Linear lin(8, 8);
  torch::nn::Linear copy(
      std::dynamic_pointer_cast<torch::nn::LinearImpl>(lin->clone()));
  CheckpointWrapper inner(copy);
  CheckpointWrapper outer(inner);
  Tensor x = torch::randn({4, 8}, torch::requires_grad());
  Tensor x2 = x.detach().clone().requires_grad_(true);
  lin(x).square().sum().backward();
  outer(x2).square().sum().backward();
  EXPECT_EQ(max_diff(lin->weight.grad(), copy->weight.grad()), 0.0);
  EXPECT_EQ(max_diff(x.grad(), x2.grad()), 0.0);
  EXPECT_EQ(outer->recompute_count(), 1);
  EXPECT_EQ(inner->recompute_count(), 1);
}

TEST(CheckpointWrapper, RecomputesOncePerBackwardAndNeverWithoutGrad) {
  torch::nn::Linear lin(8, 8);
  CheckpointWrapper w(lin);
  for (int i = 0; i < 3; ++i)
    w(torch::randn({2, 8})).sum().backward();
  EXPECT_EQ(w->recompute_count(), 3);
  {
    torch::NoGradGuard no_grad;
    w(torch::randn({2, 8}));
  }
  EXPECT_EQ(w->recompute_count(), 3);
}

TEST(CheckpointWrapper, AutogradGradReachesParameters) {
  torch::manual_seed(0);
  torch::nn::Linear lin(8, 8);
  CheckpointWrapper w(lin);
  Tensor x = torch::randn({2, 8});
  auto expected = torch::autograd::grad({lin(x).square().sum()}, {lin->weight});
  auto got = torch::autograd::grad({w(x).square().sum()}, {lin->weight});
  EXPECT_EQ(max_diff(expected[0], got[0]), 0.0);
  EXPECT_FALSE(lin->weight.grad().defined()); // grad() must not accumulate
}

TEST(CheckpointWrapper, DoubleBackwardIsAClearError) {
  torch::nn::Linear lin(8, 8);
  CheckpointWrapper w(lin);
  Tensor x = torch::randn({2, 8}, torch::requires_grad());
  Tensor y = w(x).square().sum();
  try {
    torch::autograd::grad({y}, {x}, {}, /*retain_graph=*/true,
                          /*create_graph=*/true);
    FAIL() << "double backward must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("does not support double backward"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckpointWrapper, ModuleWithoutParametersIsAClearError) {
  try {
    CheckpointWrapper w(torch::nn::ReLU{});
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("has no parameters"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckpointWrapper, ForwardWithoutTensorIsAClearError) {
  try {
    CheckpointWrapper w(NoTensor{});
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("takes no tensor"), std::string::npos)
        << e.what();
  }
}

TEST(CheckpointWrapper, CloneIsDeep) {
  torch::nn::Linear lin(4, 4);
  CheckpointWrapper w(lin);
  auto copy =
      std::dynamic_pointer_cast<wrapguard::CheckpointWrapperImpl>(w->clone());
  ASSERT_TRUE(copy);
  copy->parameters()[0].data().fill_(3.0);
  EXPECT_NE(lin->weight.sum().item<double>(), 3.0 * 16);
  Tensor y = copy->forward(torch::ones({1, 4}));
  y.sum().backward();
  EXPECT_EQ(copy->recompute_count(), 1);
  EXPECT_EQ(w->recompute_count(), 0);
}

// ---------------------------------------------------------------------------
// Selective recompute (issue 16): the forward keeps the outputs of matrix
// products and convolutions that the backward reads, the recompute reuses
// them, skips the other matrix products and reruns the rest.

wrapguard::CheckpointOptions selective() {
  return wrapguard::CheckpointOptions().selective(true);
}

TEST(Selective, BlockGradsIdenticalAndDropoutReplayed) {
  torch::manual_seed(0);
  wrapguard::DemoBlock block(small_options().dropout(0.5));
  // DemoBlock runs ATen's linear: one addmm per Linear, the bias folded in.
  CheckpointWrapper w = expect_same_as_plain(
      block, {torch::randn({3, 5, 16}, torch::requires_grad())}, 1,
      selective());
  EXPECT_EQ(w->reused_output_count(), 1); // fc1's addmm, which GELU saves
  // fc2's addmm: only dropout (which saves its mask) and the residual add
  // (which saves nothing) read it, so it was dropped and the recompute skipped
  // it.
  EXPECT_EQ(w->skipped_output_count(), 1);
}

// DemoBlock with the dropout CUDA runs: at::dropout takes the fused
// native_dropout on CUDA, which draws the mask and applies it in one operator.
struct FusedDropoutBlockImpl : torch::nn::Cloneable<FusedDropoutBlockImpl> {
  FusedDropoutBlockImpl() { reset(); }
  void reset() override {
    norm = register_module(
        "norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({16})));
    fc1 = register_module("fc1", torch::nn::Linear(16, 32));
    fc2 = register_module("fc2", torch::nn::Linear(32, 16));
  }
  Tensor forward(const Tensor &x) {
    Tensor h = fc2(torch::gelu(fc1(norm(x))));
    return x + std::get<0>(at::native_dropout(h, 0.5, is_training()));
  }
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(FusedDropoutBlock);

TEST(Selective, FusedDropoutsMaskDoesNotKeepItsInput) {
  // Issue 23: on CUDA selective kept 48.7% of full recompute's savings, not
  // 60%: native_dropout's mask (which its backward saves) looked computed
  // from its input, fc2's output, so that output was kept. The mask depends
  // on the input's shape and the RNG only.
  torch::manual_seed(0);
  CheckpointWrapper w = expect_same_as_plain(
      FusedDropoutBlock(), {torch::randn({3, 5, 16}, torch::requires_grad())},
      1, selective());
  EXPECT_EQ(w->reused_output_count(), 1);  // fc1's, which GELU saves
  EXPECT_EQ(w->skipped_output_count(), 1); // fc2's: only the mask is read
}

TEST(Selective, WithoutRngReplayDropoutDiffers) {
  // Proves the test above can fail: dropout is recomputed, not kept, so
  // without the RNG replay it draws another mask.
  torch::manual_seed(0);
  wrapguard::DemoBlock plain(small_options().dropout(0.5));
  wrapguard::DemoBlock copy(
      std::dynamic_pointer_cast<wrapguard::DemoBlockImpl>(plain->clone()));
  CheckpointWrapper wrapper(copy, selective().preserve_rng_state(false));
  Tensor x = torch::randn({3, 5, 16});
  torch::manual_seed(1);
  plain(x).square().sum().backward();
  torch::manual_seed(1);
  wrapper(x).square().sum().backward();
  EXPECT_GT(max_diff(plain->fc1->weight.grad(), copy->fc1->weight.grad()), 0.0);
}

// A layer, then GELU, which saves its input: the backward reads the layer's
// output.
template <typename Layer, typename Options>
struct ThenGeluImpl : torch::nn::Cloneable<ThenGeluImpl<Layer, Options>> {
  explicit ThenGeluImpl(Options options_) : options(std::move(options_)) {
    reset();
  }
  void reset() override {
    layer = this->register_module("layer", Layer(options));
  }
  Tensor forward(const Tensor &x) { return torch::gelu(layer(x)); }
  Options options;
  Layer layer{nullptr};
};
template <typename Layer, typename Options>
struct ThenGelu : torch::nn::ModuleHolder<ThenGeluImpl<Layer, Options>> {
  using torch::nn::ModuleHolder<ThenGeluImpl<Layer, Options>>::ModuleHolder;
};

TEST(Selective, Conv2dAndTwoDimensionalLinear) {
  torch::manual_seed(0);
  auto conv = expect_same_as_plain(
      ThenGelu<torch::nn::Conv2d, torch::nn::Conv2dOptions>(
          torch::nn::Conv2dOptions(3, 4, 3).padding(1)),
      {torch::randn({2, 3, 8, 8}, torch::requires_grad())}, 1, selective());
  EXPECT_EQ(conv->reused_output_count(), 1); // aten::convolution
  EXPECT_EQ(conv->skipped_output_count(), 0);
  auto lin = expect_same_as_plain(
      ThenGelu<torch::nn::Linear, torch::nn::LinearOptions>(
          torch::nn::LinearOptions(8, 8)),
      {torch::randn({4, 8}, torch::requires_grad())}, 1, selective());
  EXPECT_EQ(lin->reused_output_count(), 1); // aten::addmm
  EXPECT_EQ(lin->skipped_output_count(), 0);
}

TEST(Selective, AnOutputNoBackwardReadsIsSkipped) {
  // A Linear alone: its backward reads its input and weight, never its
  // output, so the recompute hands back zeros for it; the grads still match.
  torch::manual_seed(0);
  auto lin = expect_same_as_plain(
      torch::nn::Linear(8, 8), {torch::randn({4, 8}, torch::requires_grad())},
      1, selective());
  EXPECT_EQ(lin->reused_output_count(), 0);
  EXPECT_EQ(lin->skipped_output_count(), 1);
}

TEST(Selective, KeepsExactlyTheMatmulOutputsTheBackwardReads) {
  // Held from forward to backward: full recompute keeps the output; selective
  // also the output of fc1 (3x5x32 floats), which GELU saves, but not that of
  // fc2 (3x5x16 floats), which nothing saves.
  torch::manual_seed(0);
  wrapguard::DemoBlock block(small_options());
  wrapguard::MemoryMeter meter(torch::kCPU);
  Tensor x = torch::randn({3, 5, 16}, torch::requires_grad());
  auto held = [&](const wrapguard::CheckpointOptions &options) {
    CheckpointWrapper w(block, options);
    const auto before = meter.current();
    Tensor y = w(x);
    return meter.current() - before;
  };
  const auto full = held({});
  EXPECT_EQ(held(selective()) - full, 3 * 5 * 32 * 4);
  // Nothing named: selective keeps nothing and recomputes everything.
  EXPECT_EQ(held(selective().saved_ops({})), full);
}

// Two 2-D Linears, each followed by GELU: addmm's outputs are kept as they
// are (no in-place bias add, so no copy).
struct Mlp2dImpl : torch::nn::Cloneable<Mlp2dImpl> {
  Mlp2dImpl() { reset(); }
  void reset() override {
    fc1 = register_module("fc1", torch::nn::Linear(8, 32));
    fc2 = register_module("fc2", torch::nn::Linear(32, 8));
  }
  Tensor forward(const Tensor &x) {
    return torch::gelu(fc2(torch::gelu(fc1(x))));
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Mlp2d);

TEST(Selective, AKeptOutputDoesNotHoldTheForwardsGraph) {
  // The forward runs with grad on, and autograd sets its history on addmm's
  // output. Kept with that history, fc2's output would hold AddmmBackward,
  // which saves the first GELU's output (4x32 floats), until the backward.
  torch::manual_seed(0);
  Mlp2d mlp;
  wrapguard::MemoryMeter meter(torch::kCPU);
  Tensor x = torch::randn({4, 8}, torch::requires_grad());
  auto held = [&](const wrapguard::CheckpointOptions &options) {
    CheckpointWrapper w(mlp, options);
    const auto before = meter.current();
    Tensor y = w(x);
    return meter.current() - before;
  };
  const auto full = held({});
  EXPECT_EQ(held(selective()) - full, (4 * 32 + 4 * 8) * 4);
  auto w = expect_same_as_plain(Mlp2d(), {x}, 1, selective());
  EXPECT_EQ(w->reused_output_count(), 2);
}

TEST(Selective, NoOpsToKeepIsFullRecompute) {
  torch::manual_seed(0);
  auto w =
      expect_same_as_plain(wrapguard::DemoBlock(small_options().dropout(0.5)),
                           {torch::randn({3, 5, 16}, torch::requires_grad())},
                           1, selective().saved_ops({}));
  EXPECT_EQ(w->reused_output_count(), 0);
}

// mm's output, read before and after an in-place write: the recompute must
// get mm's value from before the write.
struct WriteAfterReadImpl : torch::nn::Cloneable<WriteAfterReadImpl> {
  WriteAfterReadImpl() { reset(); }
  void reset() override { w = register_parameter("w", torch::randn({8, 8})); }
  Tensor forward(const Tensor &x) {
    Tensor y = torch::mm(x, w);
    Tensor before = y * 2;
    y.add_(1);
    return torch::tanh(y) * before;
  }
  Tensor w;
};
TORCH_MODULE(WriteAfterRead);

TEST(Selective, InPlaceWriteOnAKeptOutputKeepsTheValueFromBefore) {
  torch::manual_seed(0);
  auto w = expect_same_as_plain(WriteAfterRead(),
                                {torch::randn({4, 8}, torch::requires_grad())},
                                1, selective());
  EXPECT_EQ(w->reused_output_count(), 1);
}

// Keeps its matmul's output in a member (as modules that expose attention
// weights do), so the output outlives the forward and stays kept.
struct KeepsLastImpl : torch::nn::Cloneable<KeepsLastImpl> {
  KeepsLastImpl() { reset(); }
  void reset() override { w = register_parameter("w", torch::randn({8, 8})); }
  Tensor forward(const Tensor &x) {
    last = torch::mm(x, w);
    return torch::tanh(last); // tanh saves its result, not `last`
  }
  Tensor w, last;
};
TORCH_MODULE(KeepsLast);

TEST(Selective, KeptOutputWrittenAfterTheForwardIsRecomputed) {
  // The caller writes into the kept output after the forward. The recompute
  // sees the version change and computes mm; reusing the written value would
  // give tanh another result, and other grads.
  torch::manual_seed(0);
  KeepsLast plain;
  KeepsLast copy(std::dynamic_pointer_cast<KeepsLastImpl>(plain->clone()));
  CheckpointWrapper w(copy, selective());
  Tensor x = torch::randn({4, 8});
  plain(x).square().sum().backward();
  Tensor b = w(x);
  copy->last.mul_(3);
  b.square().sum().backward();
  EXPECT_EQ(max_diff(plain->w.grad(), copy->w.grad()), 0.0);
  EXPECT_EQ(w->reused_output_count(), 0);
  EXPECT_EQ(w->skipped_output_count(), 0);
}

// mm's output reaches GELU, which saves its input, through a multiplication
// by a number, which saves nothing: the backward reads a value computed from
// it, so it must be kept.
struct ThroughScaleImpl : torch::nn::Cloneable<ThroughScaleImpl> {
  ThroughScaleImpl() { reset(); }
  void reset() override { w = register_parameter("w", torch::randn({8, 8})); }
  Tensor forward(const Tensor &x) { return torch::gelu(torch::mm(x, w) * 2); }
  Tensor w;
};
TORCH_MODULE(ThroughScale);

TEST(Selective, AnOutputTheBackwardReadsThroughAnotherOperatorIsKept) {
  torch::manual_seed(0);
  auto w = expect_same_as_plain(ThroughScale(),
                                {torch::randn({4, 8}, torch::requires_grad())},
                                1, selective());
  EXPECT_EQ(w->reused_output_count(), 1);
  EXPECT_EQ(w->skipped_output_count(), 0);
}

// Which branch runs depends on mm's value, read through item(): with zeros
// the recompute would take the other branch and build another graph.
struct BranchesImpl : torch::nn::Cloneable<BranchesImpl> {
  BranchesImpl() { reset(); }
  void reset() override {
    w = register_parameter("w", torch::rand({8, 8}) + 0.1);
  }
  Tensor forward(const Tensor &x) {
    Tensor y = torch::mm(x, w);
    return y.sum().item<double>() > 0 ? x * w.sum() : x * 3;
  }
  Tensor w;
};
TORCH_MODULE(Branches);

TEST(Selective, AnOutputThatSteersControlFlowIsKept) {
  torch::manual_seed(0);
  auto w = expect_same_as_plain(
      Branches(), {torch::rand({4, 8}, torch::requires_grad()) + 0.1}, 1,
      selective());
  EXPECT_EQ(w->reused_output_count(), 1);
  EXPECT_EQ(w->skipped_output_count(), 0);
}

// Writes a value computed from mm into a buffer from before the forward:
// zeros written there would outlive the recompute.
struct CountsImpl : torch::nn::Cloneable<CountsImpl> {
  CountsImpl() { reset(); }
  void reset() override {
    w = register_parameter("w", torch::randn({8, 8}));
    total = register_buffer("total", torch::zeros({8}));
  }
  Tensor forward(const Tensor &x) {
    Tensor y = torch::mm(x, w);
    total.add_(y.detach().sum(0));
    return x * w.sum();
  }
  Tensor w, total;
};
TORCH_MODULE(Counts);

TEST(Selective, AnOutputWrittenIntoModuleStateIsKept) {
  torch::manual_seed(0);
  Counts counts;
  CheckpointWrapper w(counts, selective());
  Tensor x = torch::randn({4, 8}, torch::requires_grad());
  w(x).sum().backward();
  const Tensor once = torch::mm(x.detach(), counts->w.detach()).sum(0);
  // Forward and recompute each add the same sum (as any recompute does).
  EXPECT_LT(max_diff(counts->total, 2 * once), 1e-5);
  EXPECT_EQ(w->reused_output_count(), 1);
  EXPECT_EQ(w->skipped_output_count(), 0);
}

TEST(Selective, RequiresGradChangedBeforeTheBackwardIsAClearError) {
  // fc2's output is skipped on the strength of what the forward's graph
  // saved; with fc1 frozen after the forward that reasoning no longer holds.
  torch::manual_seed(0);
  wrapguard::DemoBlock block(small_options());
  CheckpointWrapper w(block, selective());
  Tensor y = w(torch::randn({3, 5, 16}, torch::requires_grad()));
  block->fc1->weight.set_requires_grad(false);
  try {
    y.sum().backward();
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("changed requires_grad between the "
                                         "forward and the backward"),
              std::string::npos)
        << e.what();
  }
}

// Runs one matmul on its first call and two afterwards.
struct ChangingImpl : torch::nn::Cloneable<ChangingImpl> {
  ChangingImpl() { reset(); }
  void reset() override { w = register_parameter("w", torch::randn({8, 8})); }
  Tensor forward(const Tensor &x) {
    Tensor y = torch::mm(x, w);
    return calls++ == 0 ? y : torch::mm(y, w);
  }
  Tensor w;
  int calls = 0;
};
TORCH_MODULE(Changing);

TEST(Selective, ARecomputeThatRunsOtherOperatorsIsAClearError) {
  CheckpointWrapper w(Changing(), selective());
  Tensor y = w(torch::randn({4, 8}));
  try {
    y.sum().backward();
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "a checkpointed forward must run the same operators"),
              std::string::npos)
        << e.what();
  }
}

// Linear, GELU, Linear, the first Linear fully checkpointed on its own.
struct FullInsideImpl : torch::nn::Module {
  FullInsideImpl(torch::nn::Linear a, torch::nn::Linear b)
      : first(register_module("first", CheckpointWrapper(a))),
        last(register_module("last", b)) {}
  Tensor forward(const Tensor &x) { return last(torch::gelu(first(x))); }
  CheckpointWrapper first;
  torch::nn::Linear last;
};
TORCH_MODULE(FullInside);

TEST(Selective, FullWrapperNestedInASelectiveOne) {
  // The inner wrapper's operators are neither kept nor replayed by the outer.
  torch::manual_seed(0);
  torch::nn::Linear a(8, 16), b(16, 8);
  torch::nn::Linear a2(
      std::dynamic_pointer_cast<torch::nn::LinearImpl>(a->clone()));
  torch::nn::Linear b2(
      std::dynamic_pointer_cast<torch::nn::LinearImpl>(b->clone()));
  FullInside inside(a2, b2);
  CheckpointWrapper outer(inside, selective());
  Tensor x = torch::randn({4, 8}, torch::requires_grad());
  Tensor x2 = x.detach().clone().requires_grad_(true);
  b(torch::gelu(a(x))).square().sum().backward();
  outer(x2).square().sum().backward();
  EXPECT_EQ(max_diff(a->weight.grad(), a2->weight.grad()), 0.0);
  EXPECT_EQ(max_diff(b->weight.grad(), b2->weight.grad()), 0.0);
  EXPECT_EQ(max_diff(x.grad(), x2.grad()), 0.0);
  EXPECT_EQ(outer->recompute_count(), 1);
  EXPECT_EQ(inside->first->recompute_count(), 1);
  // The last Linear's addmm: the block's output, which nothing saves.
  EXPECT_EQ(outer->reused_output_count(), 0);
  EXPECT_EQ(outer->skipped_output_count(), 1);
}

TEST(Checkpoint, PlainFunctionGradsMatch) {
  torch::manual_seed(0);
  torch::nn::Linear lin(8, 8);
  Tensor x = torch::randn({4, 8}, torch::requires_grad());
  Tensor s = torch::randn({4, 8}, torch::requires_grad());
  auto fn = [&](const Tensor &a, const Tensor &b) {
    return torch::dropout(torch::relu(lin(a)), 0.5, true) * b;
  };
  torch::manual_seed(5);
  fn(x, s).sum().backward();
  Tensor gw = lin->weight.grad().clone(), gx = x.grad().clone(),
         gs = s.grad().clone();
  lin->zero_grad();
  x.mutable_grad() = Tensor();
  s.mutable_grad() = Tensor();
  torch::manual_seed(5);
  wrapguard::checkpoint(fn, x, s).sum().backward();
  EXPECT_EQ(max_diff(gw, lin->weight.grad()), 0.0);
  EXPECT_EQ(max_diff(gx, x.grad()), 0.0);
  EXPECT_EQ(max_diff(gs, s.grad()), 0.0);
}

TEST(Checkpoint, PlainFunctionWithAutogradGradIsAClearError) {
  torch::nn::Linear lin(8, 8);
  Tensor x = torch::randn({4, 8}, torch::requires_grad());
  Tensor y =
      wrapguard::checkpoint([&](const Tensor &a) { return lin(a); }, x).sum();
  try {
    torch::autograd::grad({y}, {x});
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("works only with .backward()"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckpointSequential, GradsMatchPlain) {
  torch::manual_seed(0);
  torch::nn::Sequential seq;
  for (int i = 0; i < 5; ++i)
    seq->push_back(wrapguard::DemoBlock(small_options()));
  auto copy =
      std::dynamic_pointer_cast<torch::nn::SequentialImpl>(seq->clone());
  Tensor x = torch::randn({2, 3, 16}, torch::requires_grad());
  Tensor x2 = x.detach().clone().requires_grad_(true);
  torch::manual_seed(9);
  Tensor a = seq->forward(x);
  a.square().sum().backward();
  torch::manual_seed(9);
  Tensor b =
      wrapguard::checkpoint_sequential(torch::nn::Sequential(copy), 3, x2);
  b.square().sum().backward();
  EXPECT_EQ(max_diff(a, b), 0.0);
  EXPECT_EQ(max_diff(x.grad(), x2.grad()), 0.0);
  auto pa = seq->parameters(), pb = copy->parameters();
  for (size_t i = 0; i < pa.size(); ++i)
    EXPECT_EQ(max_diff(pa[i].grad(), pb[i].grad()), 0.0);
}

TEST(CheckpointSequential, EmptySequentialIsAClearError) {
  try {
    wrapguard::checkpoint_sequential(torch::nn::Sequential(), 1,
                                     torch::ones({1}));
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("the Sequential is empty"),
              std::string::npos);
  }
}

TEST(CheckpointSequential, MoreSegmentsThanLayersIsAClearError) {
  torch::nn::Sequential seq(torch::nn::Linear(2, 2), torch::nn::Linear(2, 2));
  try {
    wrapguard::checkpoint_sequential(seq, 3, torch::ones({1, 2}));
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("3 segments for 2 layers"),
              std::string::npos)
        << e.what();
  }
}

std::vector<std::string> wrapped_names(const wrapguard::CheckpointReport &r) {
  std::vector<std::string> out;
  for (const auto &w : r.wrapped)
    out.push_back(w.name + ":" + w.type);
  return out;
}

TEST(Policies, NoWrapWrapsNothingAndNeverThrows) {
  wrapguard::DemoModel model(small_options());
  WrapPolicy policy = WrapPolicy::no_wrap();
  EXPECT_FALSE(policy.resolve(*model->blocks[0]));
  EXPECT_FALSE(policy.can_wrap());
  wrapguard::CheckpointReport report;
  EXPECT_NO_THROW(report =
                      wrapguard::apply_activation_checkpointing(model, policy));
  EXPECT_TRUE(report.wrapped.empty());
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("NO_WRAP wraps nothing"),
            std::string::npos);
  // The model still runs, unchanged.
  EXPECT_EQ(model(torch::randn({1, 2, 16})).size(-1), 16);
}

TEST(Policies, ValidateRejectsPolicyThatCanWrapNothing) {
  EXPECT_THROW(wrapguard::validate_checkpointing(WrapPolicy::no_wrap(), {}),
               c10::ValueError);
  EXPECT_THROW(
      wrapguard::validate_checkpointing(WrapPolicy::transformer_based({}), {}),
      c10::ValueError);
  EXPECT_NO_THROW(wrapguard::validate_checkpointing(
      WrapPolicy::no_wrap(),
      wrapguard::CheckpointingRequest().activation_checkpointing(false)));
  EXPECT_NO_THROW(
      wrapguard::validate_checkpointing(WrapPolicy::size_based(10), {}));
  try {
    wrapguard::validate_checkpointing(WrapPolicy::no_wrap(), {});
  } catch (const c10::ValueError &e) {
    EXPECT_NE(std::string(e.what()).find("policy NO_WRAP wraps no module"),
              std::string::npos);
  }
}

TEST(Policies, TransformerPolicyWrapsTheBlocks) {
  for (std::string name :
       {"DemoBlock", "DemoBlockImpl", "wrapguard::DemoBlockImpl"}) {
    wrapguard::DemoModel model(small_options());
    auto report = wrapguard::apply_activation_checkpointing(
        model, WrapPolicy::transformer_based({name}));
    EXPECT_EQ(
        wrapped_names(report),
        (std::vector<std::string>{"blocks.0:DemoBlock", "blocks.1:DemoBlock",
                                  "blocks.2:DemoBlock", "blocks.3:DemoBlock"}))
        << name;
    EXPECT_TRUE(model->blocks[1]->as<wrapguard::CheckpointWrapperImpl>() !=
                nullptr);
  }
}

TEST(Policies, SizePolicyWrapsTheSmallestSubtreesThatQualify) {
  // A block has 32 + 544 + 528 = 1104 parameters; fc1 and fc2 qualify for 500
  // too but sit in a DemoBlock, which calls them directly.
  wrapguard::DemoModel model(small_options());
  auto report = wrapguard::apply_activation_checkpointing(
      model, WrapPolicy::size_based(500));
  EXPECT_EQ(report.wrapped.size(), 4u);
  EXPECT_EQ(report.wrapped[0].num_params, 1104);
  EXPECT_EQ(report.skipped.size(), 8u);
  EXPECT_NE(report.skipped[0].reason.find("not a torch::nn::Sequential"),
            std::string::npos);

  wrapguard::DemoModel big(small_options());
  auto none = wrapguard::apply_activation_checkpointing(
      big, WrapPolicy::size_based(5000));
  EXPECT_TRUE(none.wrapped.empty()); // the Sequential holds 4416 < 5000
  EXPECT_FALSE(none.warnings.empty());
}

TEST(Policies, NestedModulesAreWalked) {
  // Sequential -> DemoModel -> Sequential -> DemoBlock.
  torch::manual_seed(0);
  auto outer =
      torch::nn::Sequential(torch::nn::Linear(16, 16),
                            wrapguard::DemoModel(small_options().blocks(2)));
  auto copy =
      std::dynamic_pointer_cast<torch::nn::SequentialImpl>(outer->clone());
  auto report = wrapguard::apply_activation_checkpointing(
      copy, WrapPolicy::lambda([](const torch::nn::Module &m) {
        return wrapguard::short_type_name(m) == "DemoBlock";
      }));
  EXPECT_EQ(wrapped_names(report),
            (std::vector<std::string>{"1.blocks.0:DemoBlock",
                                      "1.blocks.1:DemoBlock"}));
  Tensor x = torch::randn({2, 3, 16});
  torch::manual_seed(3);
  Tensor a = outer->forward(x);
  a.sum().backward();
  torch::manual_seed(3);
  Tensor b = copy->forward(x);
  b.sum().backward();
  EXPECT_EQ(max_diff(a, b), 0.0);
  auto pa = outer->parameters(), pb = copy->parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (size_t i = 0; i < pa.size(); ++i)
    EXPECT_EQ(max_diff(pa[i].grad(), pb[i].grad()), 0.0);
  EXPECT_EQ(report.wrapped[1].wrapper->recompute_count(), 1);
}

TEST(Policies, OptionsReachTheWrappers) {
  wrapguard::DemoModel model(small_options());
  auto policy = WrapPolicy::transformer_based({"DemoBlock"}, selective());
  EXPECT_EQ(policy.name(), "TRANSFORMER_BASED(DemoBlock) selective");
  auto report = wrapguard::apply_activation_checkpointing(model, policy);
  ASSERT_EQ(report.wrapped.size(), 4u);
  for (const auto &w : report.wrapped)
    EXPECT_TRUE(w.wrapper->options.selective()) << w.name;
  model(torch::randn({2, 3, 16})).sum().backward();
  EXPECT_EQ(report.wrapped[0].wrapper->reused_output_count(), 1);
  EXPECT_EQ(report.wrapped[0].wrapper->skipped_output_count(), 1);
}

TEST(Policies, ModulesPolicyWrapsByPathAndChecksPathsFirst) {
  wrapguard::DemoModel model(small_options());
  auto report = wrapguard::apply_activation_checkpointing(
      model, WrapPolicy::modules({"blocks.1", "blocks.3"}));
  EXPECT_EQ(
      wrapped_names(report),
      (std::vector<std::string>{"blocks.1:DemoBlock", "blocks.3:DemoBlock"}));
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"blocks.9", "is not in the model"},
      {"head", "is not a child of a torch::nn::Sequential"},
      {"blocks.1", "is a CheckpointWrapper already"},
      {"blocks.1.module.fc1", "is inside a CheckpointWrapper"},
      {"", "is the root"}};
  for (const auto &[path, why] : bad) {
    try {
      wrapguard::apply_activation_checkpointing(
          model, WrapPolicy::modules({"blocks.0", path}));
      FAIL() << path << " must throw";
    } catch (const c10::Error &e) {
      EXPECT_NE(
          std::string(e.what()).find("names '" + path + "', which " + why),
          std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("nothing was wrapped"),
                std::string::npos);
    }
    // blocks.0 comes first in the walk, yet was not wrapped.
    EXPECT_TRUE(model->blocks[0]->as<wrapguard::DemoBlockImpl>() != nullptr);
  }
}

TEST(Policies, DirectChildIsReportedAsSkipped) {
  DirectParent parent;
  auto report = wrapguard::apply_activation_checkpointing(
      parent, WrapPolicy::transformer_based({"DemoBlock"}));
  EXPECT_TRUE(report.wrapped.empty());
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].name, "block");
}

TEST(Policies, ThrowingPolicyIsAClearError) {
  wrapguard::DemoModel model(small_options());
  auto policy = WrapPolicy::lambda([](const torch::nn::Module &m) -> bool {
    if (wrapguard::short_type_name(m) == "Linear")
      throw std::runtime_error("boom");
    return false;
  });
  try {
    wrapguard::apply_activation_checkpointing(model, policy);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_EQ(
        std::string(e.what_without_backtrace()),
        "wrapguard::apply_activation_checkpointing: policy LAMBDA threw for "
        "module 'blocks.0.fc1' (Linear): boom");
  }
}

// Issue 10, item 8: a c10::Error from the policy is rethrown as itself (type,
// message, backtrace), with the module it was thrown for added as context.
TEST(Policies, ThrowingPolicyKeepsTheC10ErrorAndAddsContext) {
  wrapguard::DemoModel model(small_options());
  auto policy = WrapPolicy::lambda([](const torch::nn::Module &m) -> bool {
    TORCH_CHECK_INDEX(wrapguard::short_type_name(m) != "Linear",
                      "no Linear here");
    return false;
  });
  try {
    wrapguard::apply_activation_checkpointing(model, policy);
    FAIL() << "must throw";
  } catch (const c10::IndexError &e) {
    EXPECT_EQ(e.msg(), "no Linear here");
    ASSERT_EQ(e.context().size(), 1u);
    EXPECT_EQ(
        e.context()[0],
        "wrapguard::apply_activation_checkpointing: policy LAMBDA threw for "
        "module 'blocks.0.fc1' (Linear)");
  }
}

TEST(Policies, WrapAtCallSiteIsNoted) {
  wrapguard::reset_call_sites();
  wrapguard::DemoBlock block(small_options());
  wrapguard::WrapFn fn =
      WrapPolicy::transformer_based({"DemoBlock"}).resolve(*block);
  torch::nn::AnyModule wrapped =
      WRAPGUARD_CALL_OR_IDENTITY(fn, torch::nn::AnyModule(block));
  EXPECT_TRUE(wrapped.ptr()->as<wrapguard::CheckpointWrapperImpl>() != nullptr);
  auto sites = wrapguard::call_sites();
  ASSERT_EQ(sites.size(), 1u);
  ASSERT_EQ(sites[0].notes.size(), 1u);
  EXPECT_EQ(wrapguard::detail::dump_json(sites[0].notes[0]),
            "{\"type\":\"DemoBlock\",\"num_params\":1104}");
}

wrapguard::MakeBatch demo_batch() {
  return [](torch::Device d) {
    return std::vector<Tensor>{
        torch::randn({2, 32, 16}, torch::TensorOptions().device(d))};
  };
}

TEST(Verify, DemoModelIdenticalOneRecomputeLessMemory) {
  wrapguard::DemoModel model(small_options());
  auto r = wrapguard::verify_checkpointing(
      torch::nn::AnyModule(model), WrapPolicy::transformer_based({"DemoBlock"}),
      demo_batch(),
      wrapguard::VerifyOptions().device(torch::kCPU).timed_steps(1));
  EXPECT_EQ(r.wrapped.size(), 4u);
  EXPECT_EQ(r.recompute_per_backward, 1);
  EXPECT_EQ(r.max_abs_output_diff, 0.0);
  EXPECT_EQ(r.max_abs_loss_diff, 0.0);
  EXPECT_EQ(r.max_abs_grad_diff, 0.0);
  EXPECT_GT(r.peak_bytes_plain, 0);
  EXPECT_LT(r.peak_bytes_checkpointed, r.peak_bytes_plain);
  EXPECT_GT(r.activation_bytes_saved(), 0);
  EXPECT_TRUE(r.passed());
  EXPECT_NE(r.to_json().find("\"recompute_per_backward\":1"),
            std::string::npos);
  // The model passed in is untouched.
  EXPECT_TRUE(model->blocks[0]->as<wrapguard::DemoBlockImpl>() != nullptr);
}

TEST(Verify, SelectiveHoldsBetweenFullAndPlain) {
  wrapguard::DemoModel model(small_options());
  auto opts = wrapguard::VerifyOptions().device(torch::kCPU).timed_steps(0);
  auto full = wrapguard::verify_checkpointing(
      torch::nn::AnyModule(model), WrapPolicy::transformer_based({"DemoBlock"}),
      demo_batch(), opts);
  auto sel = wrapguard::verify_checkpointing(
      torch::nn::AnyModule(model),
      WrapPolicy::transformer_based({"DemoBlock"}, selective()), demo_batch(),
      opts);
  EXPECT_TRUE(sel.passed());
  EXPECT_TRUE(sel.selective);
  EXPECT_EQ(sel.max_abs_grad_diff, 0.0);
  EXPECT_GT(sel.activation_bytes_checkpointed,
            full.activation_bytes_checkpointed);
  EXPECT_LT(sel.activation_bytes_checkpointed, sel.activation_bytes_plain);
  EXPECT_NE(sel.to_json().find("\"selective\":true"), std::string::npos);
}

TEST(Verify, NoWrapReportsNothingWrapped) {
  wrapguard::DemoModel model(small_options());
  auto r = wrapguard::verify_checkpointing(
      torch::nn::AnyModule(model), WrapPolicy::no_wrap(), demo_batch(),
      wrapguard::VerifyOptions().device(torch::kCPU).timed_steps(0));
  EXPECT_TRUE(r.wrapped.empty());
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.max_abs_grad_diff, 0.0);
}

TEST(Verify, SequentialRoot) {
  auto seq = torch::nn::Sequential(wrapguard::DemoBlock(small_options()),
                                   wrapguard::DemoBlock(small_options()));
  auto r = wrapguard::verify_checkpointing(
      seq, WrapPolicy::size_based(1000), demo_batch(),
      wrapguard::VerifyOptions().device(torch::kCPU).timed_steps(0));
  EXPECT_EQ(r.wrapped.size(), 2u);
  EXPECT_TRUE(r.passed());
}

// Issue 10, item 8: the JSON of a result escapes quotes, backslashes and
// control characters and keeps non-ASCII as valid UTF-8.
TEST(Verify, JsonEscapesNames) {
  wrapguard::VerifyResult r;
  r.device = "cpu";
  r.policy = "TRANSFORMER_BASED(Bl\xc3\xb6"
             "ck\"q\\)";
  r.wrapped.push_back({"blocks.\"0\"",
                       "Bl\xc3\xb6"
                       "ck\"q\\",
                       1, 1});
  r.warnings.push_back("tab\there\x01 latin1-\xe9 \xe2\x82\xac");
  const std::string json = r.to_json();
  EXPECT_NE(json.find("\"policy\":\"TRANSFORMER_BASED(Bl\xc3\xb6"
                      "ck\\\"q\\\\)\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"name\":\"blocks.\\\"0\\\"\",\"type\":\"Bl\xc3\xb6"
                      "ck\\\"q\\\\\","),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"warnings\":[\"tab\\there\\u0001 latin1-\xef\xbf\xbd "
                      "\xe2\x82\xac\"]"),
            std::string::npos)
      << json;
}

TEST(MemoryMeter, CountsCpuAllocations) {
  wrapguard::MemoryMeter meter(torch::kCPU);
  meter.reset_peak();
  const auto base = meter.current();
  {
    Tensor t = torch::empty({1 << 20}, torch::kFloat);
    EXPECT_EQ(meter.current() - base, 4 << 20);
  }
  EXPECT_EQ(meter.current(), base);
  EXPECT_EQ(meter.peak() - base, 4 << 20);
}

} // namespace
