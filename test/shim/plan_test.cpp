//===- plan_test.cpp - Unit tests of checkpointing under a budget ---------===//
//
// The solvers on profiles built by hand (exact against brute force, greedy
// where it is wrong, the impossible budget), and plan_checkpointing on small
// models, measured: each plan meets its budget with grads identical to plain.
#include "DemoModel.h"

#include <wrapguard/plan.h>
#include <wrapguard/verify.h>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using torch::Tensor;
using wrapguard::CheckpointMode;
using wrapguard::CheckpointProfile;
using wrapguard::PlanMethod;
using wrapguard::PlanOptions;

// ---------------------------------------------------------------------------
// Profiles by hand

struct ChainUnit {
  std::int64_t plain_bytes, selective_bytes;
  double full_seconds, selective_seconds;
};

// The timeline of a chain: each unit's forward and the stretch after it (its
// output held), the head; then in reverse each unit's recompute and grad
// stretches and the stretch after them (its parameter grads made, its output
// freed). Rises are made up but differ per unit and per mode.
CheckpointProfile chain(const std::vector<ChainUnit> &units) {
  CheckpointProfile p;
  const int n = static_cast<int>(units.size());
  const auto prefix = [](int k) {
    std::vector<int> out;
    for (int i = 0; i < k; ++i)
      out.push_back(i);
    return out;
  };
  const auto segment = [&](int owner, int active, std::int64_t full,
                           std::int64_t plain, std::int64_t selective) {
    CheckpointProfile::Segment s;
    s.owner = owner;
    s.peak = {plain, selective, full};
    s.active = prefix(active);
    p.segments.push_back(s);
  };
  std::int64_t level = 0;
  for (int u = 0; u < n; ++u) {
    wrapguard::PlanCandidate c;
    c.name = "blocks." + std::to_string(u);
    c.type = "Block";
    c.plain_bytes = units[u].plain_bytes;
    c.selective_bytes = units[u].selective_bytes;
    c.full_seconds = units[u].full_seconds;
    c.selective_seconds = units[u].selective_seconds;
    c.selective_profiled = true;
    p.units.push_back(c);
    segment(u, u, level + 3 + u, level + 5 + u, level + 4);
    level += 2; // its output
    segment(-1, u + 1, level, level, level);
  }
  segment(-1, n, level + 7, level + 7, level + 7); // head and loss
  for (int u = n - 1; u >= 0; --u) {
    const std::int64_t recomputed = units[u].plain_bytes + 2;
    segment(u, u + 1, level + recomputed + 1, level, level + 3 + u % 2);
    segment(u, u + 1, level + recomputed + 4, level + 4 + 2, level + 6);
    level += 3 - 2; // parameter grads made, output freed
    segment(-1, u, level, level, level);
  }
  return p;
}

double seconds_of(const CheckpointProfile &p,
                  const std::vector<CheckpointMode> &modes) {
  double s = 0;
  for (std::size_t u = 0; u < modes.size(); ++u)
    s += p.units[u].seconds(modes[u]);
  return s;
}

std::vector<CheckpointMode> modes_of(const wrapguard::CheckpointPlan &plan) {
  std::vector<CheckpointMode> out;
  for (const auto &c : plan.candidates)
    out.push_back(c.mode);
  return out;
}

// The least seconds of any choice of modes that fits, by trying them all.
double brute_force(const CheckpointProfile &p, std::int64_t budget,
                   bool selective) {
  const int n = static_cast<int>(p.units.size());
  double best = std::numeric_limits<double>::infinity();
  std::vector<CheckpointMode> modes(n);
  int combos = 1;
  for (int i = 0; i < n; ++i)
    combos *= 3;
  for (int c = 0; c < combos; ++c) {
    bool allowed = true;
    for (int u = 0, k = c; u < n; ++u, k /= 3) {
      modes[u] = static_cast<CheckpointMode>(k % 3);
      allowed = allowed && (selective || modes[u] != CheckpointMode::selective);
    }
    if (allowed && p.predict_peak(modes) <= budget)
      best = std::min(best, seconds_of(p, modes));
  }
  return best;
}

std::vector<ChainUnit> varied_units(int n) {
  std::vector<ChainUnit> out;
  unsigned seed = 7;
  auto next = [&seed](int mod) {
    seed = seed * 1103515245u + 12345u;
    return static_cast<int>((seed >> 16) % mod);
  };
  for (int i = 0; i < n; ++i) {
    const std::int64_t plain = 10 + next(30);
    out.push_back(
        {plain, plain / (2 + next(3)), 1.0 + next(9), 0.1 + 0.1 * next(20)});
  }
  return out;
}

TEST(PlanSolver, ExactPlanIsOptimalAndMeetsEveryBudget) {
  const CheckpointProfile p = chain(varied_units(6));
  const std::vector<CheckpointMode> all_full(6, CheckpointMode::full),
      all_plain(6, CheckpointMode::plain);
  const std::int64_t low = p.predict_peak(all_full),
                     high = p.predict_peak(all_plain);
  ASSERT_LT(low, high);
  for (bool selective : {true, false}) {
    for (std::int64_t budget = low; budget <= high; ++budget) {
      const auto options = PlanOptions().consider_selective(selective);
      const auto plan = wrapguard::solve_checkpoint_plan(p, budget, options);
      EXPECT_EQ(plan.method, PlanMethod::exact);
      EXPECT_LE(plan.predicted_peak_bytes, budget);
      EXPECT_EQ(plan.predicted_peak_bytes, p.predict_peak(modes_of(plan)));
      EXPECT_DOUBLE_EQ(plan.predicted_extra_seconds,
                       brute_force(p, budget, selective))
          << "budget " << budget << " selective " << selective;
      if (!selective)
        EXPECT_TRUE(plan.selective_modules.empty());
      const auto greedy = wrapguard::solve_checkpoint_plan(
          p, budget, PlanOptions(options).max_exact_states(0));
      EXPECT_EQ(greedy.method, PlanMethod::greedy);
      EXPECT_LE(greedy.predicted_peak_bytes, budget);
      EXPECT_GE(greedy.predicted_extra_seconds,
                plan.predicted_extra_seconds - 1e-9);
    }
  }
}

TEST(PlanSolver, ExactVersusGreedyChoice) {
  // One stretch holds every plain unit's bytes: a knapsack. Saving 6 bytes
  // is cheapest by checkpointing A alone (6 s); greedy, by bytes per second,
  // takes B and C (1.25 bytes/s each) for 8 s.
  CheckpointProfile p;
  for (auto [name, bytes, secs] :
       {std::tuple{"A", 6, 6.0}, {"B", 5, 4.0}, {"C", 5, 4.0}}) {
    wrapguard::PlanCandidate c;
    c.name = name;
    c.plain_bytes = bytes;
    c.full_seconds = secs;
    p.units.push_back(c);
  }
  CheckpointProfile::Segment s;
  s.peak = {100, 100, 100};
  s.active = {0, 1, 2};
  p.segments.push_back(s);

  auto exact = wrapguard::solve_checkpoint_plan(p, 110);
  EXPECT_EQ(exact.method, PlanMethod::exact);
  EXPECT_TRUE(exact.method_reason.empty());
  EXPECT_EQ(exact.modules, std::vector<std::string>{"A"});
  EXPECT_DOUBLE_EQ(exact.predicted_extra_seconds, 6.0);

  // After the first unit the frontier holds two states (A plain, A full).
  auto greedy = wrapguard::solve_checkpoint_plan(
      p, 110, PlanOptions().max_exact_states(1));
  EXPECT_EQ(greedy.method, PlanMethod::greedy);
  EXPECT_NE(greedy.method_reason.find("frontier reached 2 states at module 1 "
                                      "of 3 (max_exact_states 1)"),
            std::string::npos)
      << greedy.method_reason;
  EXPECT_EQ(greedy.modules, (std::vector<std::string>{"B", "C"}));
  EXPECT_DOUBLE_EQ(greedy.predicted_extra_seconds, 8.0);
  EXPECT_LE(greedy.predicted_peak_bytes, 110);
  EXPECT_EQ(greedy.name(), "MEMORY_BUDGET(0.0 MiB, greedy)");

  // Not a chain (a stretch where B's activations live but A's do not):
  // greedy, saying why.
  p.segments.push_back(s);
  p.segments.back().active = {1};
  auto unchained = wrapguard::solve_checkpoint_plan(p, 110);
  EXPECT_EQ(unchained.method, PlanMethod::greedy);
  EXPECT_NE(unchained.method_reason.find("not a chain"), std::string::npos);
}

TEST(PlanSolver, ImpossibleBudgetNamesTheLowestPeak) {
  const CheckpointProfile p = chain(varied_units(4));
  const std::int64_t low =
      p.predict_peak(std::vector<CheckpointMode>(4, CheckpointMode::full));
  try {
    wrapguard::solve_checkpoint_plan(p, low - 1);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what_without_backtrace())
                  .find("no plan fits a budget of 0.0 MiB (" +
                        std::to_string(low - 1) +
                        " bytes): the lowest achievable peak is 0.0 MiB (" +
                        std::to_string(low) +
                        " bytes), with all 4 candidate modules fully "
                        "recomputed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(wrapguard::solve_checkpoint_plan(p, low));
}

// ---------------------------------------------------------------------------
// Real models

wrapguard::DemoModelOptions plan_options() {
  return wrapguard::DemoModelOptions().blocks(4).width(32).hidden(128).dropout(
      0.2);
}

Tensor plan_batch() {
  torch::manual_seed(1);
  return torch::randn({2, 64, 32});
}

wrapguard::MakeBatch batch_on_device() {
  return
      [](torch::Device d) { return std::vector<Tensor>{plan_batch().to(d)}; };
}

TEST(Plan, EachPlanMeetsItsBudgetMeasured) {
  torch::manual_seed(0);
  wrapguard::DemoModel model(plan_options());
  const CheckpointProfile profile =
      wrapguard::profile_checkpointing(model, {plan_batch()});
  ASSERT_EQ(profile.units.size(), 4u);
  const std::int64_t low = profile.predict_peak(
                         std::vector<CheckpointMode>(4, CheckpointMode::full)),
                     high = profile.predict_peak(
                         std::vector<CheckpointMode>(4, CheckpointMode::plain));
  ASSERT_LT(low, high);
  // Times on a model this small are noise; a copy of the profile where
  // selective recompute is free makes sure mixed plans are measured too.
  CheckpointProfile free_selective = profile;
  for (auto &u : free_selective.units)
    u.selective_seconds = 0;
  bool used_selective = false;
  for (const CheckpointProfile *p :
       std::vector<const CheckpointProfile *>{&profile, &free_selective}) {
    for (double f : {0.0, 0.2, 0.4, 0.6, 0.8}) {
      const auto budget = static_cast<std::int64_t>(low + f * (high - low));
      const auto plan = wrapguard::solve_checkpoint_plan(*p, budget);
      used_selective = used_selective || !plan.selective_modules.empty();
      auto r = wrapguard::verify_checkpointing(
          torch::nn::AnyModule(model), plan, batch_on_device(),
          wrapguard::VerifyOptions().device(torch::kCPU).timed_steps(0));
      SCOPED_TRACE(plan.to_string());
      EXPECT_LE(r.peak_bytes_checkpointed, budget);
      // The prediction is the measurement, give or take a few kilobytes.
      EXPECT_NEAR(static_cast<double>(r.peak_bytes_checkpointed),
                  static_cast<double>(plan.predicted_peak_bytes),
                  0.01 * budget);
      EXPECT_EQ(r.max_abs_grad_diff, 0.0);
      EXPECT_EQ(r.recompute_per_backward, 1);
      EXPECT_TRUE(r.passed());
      EXPECT_EQ(r.wrapped.size(),
                plan.modules.size() + plan.selective_modules.size());
    }
  }
  EXPECT_TRUE(used_selective);
}

TEST(Plan, ImpossibleBudgetIsAClearErrorAndLeavesTheModel) {
  torch::manual_seed(0);
  wrapguard::DemoModel model(plan_options());
  const CheckpointProfile profile =
      wrapguard::profile_checkpointing(model, {plan_batch()});
  const std::int64_t low = profile.predict_peak(
      std::vector<CheckpointMode>(4, CheckpointMode::full));
  try {
    wrapguard::plan_checkpointing(model, {plan_batch()}, low / 2);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("the lowest achievable peak is"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("(" + std::to_string(low) + " bytes)"),
              std::string::npos)
        << e.what();
  }
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(model->blocks[i]->as<wrapguard::DemoBlockImpl>() != nullptr);
}

TEST(Plan, ModelIsLeftAsItWas) {
  torch::manual_seed(0);
  wrapguard::DemoModel model(plan_options());
  Tensor marker = torch::full_like(model->head->weight, 7);
  model->head->weight.mutable_grad() = marker;
  const Tensor batch = plan_batch();
  torch::manual_seed(5);
  wrapguard::plan_checkpointing(model, {batch}, 1LL << 40);
  const Tensor after = torch::rand({4});
  torch::manual_seed(5);
  EXPECT_TRUE(torch::equal(after, torch::rand({4}))) << "RNG state";
  EXPECT_TRUE(model->head->weight.grad().is_same(marker));
  EXPECT_FALSE(model->blocks[0]
                   ->as<wrapguard::DemoBlockImpl>()
                   ->fc1->weight.grad()
                   .defined());
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(model->blocks[i]->as<wrapguard::DemoBlockImpl>() != nullptr);
  EXPECT_EQ(model->blocks->named_children().size(), 4u);
  for (const auto &child : model->blocks->named_children())
    EXPECT_TRUE(child.value()->as<wrapguard::DemoBlockImpl>() != nullptr);
}

TEST(Plan, ApplyChecksEveryPathBeforeWrapping) {
  torch::manual_seed(0);
  wrapguard::DemoModel model(plan_options());
  const CheckpointProfile profile =
      wrapguard::profile_checkpointing(model, {plan_batch()});
  auto plan = wrapguard::solve_checkpoint_plan(
      profile, profile.predict_peak(
                   std::vector<CheckpointMode>(4, CheckpointMode::full)));
  ASSERT_FALSE(plan.modules.empty());
  plan.selective_modules.push_back("blocks.9");
  try {
    wrapguard::apply_activation_checkpointing(model, plan);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "names 'blocks.9', which is not in the model; nothing was "
                  "wrapped"),
              std::string::npos)
        << e.what();
  }
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(model->blocks[i]->as<wrapguard::DemoBlockImpl>() != nullptr);

  plan.selective_modules = {"blocks.3"};
  plan.modules = {"blocks.0", "blocks.1"};
  auto report = wrapguard::apply_activation_checkpointing(model, plan);
  EXPECT_EQ(report.policy, plan.name());
  ASSERT_EQ(report.wrapped.size(), 3u);
  for (const auto &w : report.wrapped)
    EXPECT_EQ(w.wrapper->options.selective(), w.name == "blocks.3") << w.name;
}

// A module with a child that has a child: planned as one unit.
struct InnerImpl : torch::nn::Module {
  InnerImpl() : fc(register_module("fc", torch::nn::Linear(16, 64))) {}
  Tensor forward(const Tensor &x) { return torch::gelu(fc(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Inner);

struct NestedImpl : torch::nn::Module {
  NestedImpl()
      : inner(register_module("inner", Inner())),
        out(register_module("out", torch::nn::Linear(64, 16))) {}
  Tensor forward(const Tensor &x) { return x + out(inner(x)); }
  Inner inner;
  torch::nn::Linear out;
};
TORCH_MODULE(Nested);

TEST(Plan, NestedModuleIsPlannedAsOneUnit) {
  torch::manual_seed(0);
  wrapguard::DemoModelOptions block =
      wrapguard::DemoModelOptions().width(16).hidden(32).dropout(0.0);
  Nested nested;
  torch::nn::Sequential model(torch::nn::Linear(16, 16), nested,
                              wrapguard::DemoModel(block.blocks(2)));
  const Tensor x = torch::randn({4, 10, 16});
  const CheckpointProfile profile =
      wrapguard::profile_checkpointing(model, {x});
  std::vector<std::string> names;
  for (const auto &u : profile.units)
    names.push_back(u.name + ":" + u.type);
  // Nested is one unit (its Linear and Inner are not planned apart); the
  // DemoModel is not a unit, but the two blocks of its Sequential are.
  EXPECT_EQ(names, (std::vector<std::string>{"0:Linear", "1:Nested",
                                             "2.blocks.0:DemoBlock",
                                             "2.blocks.1:DemoBlock"}));
  // Its bytes are all its activations, its children's included: what a
  // plain forward of it holds beyond what a fully recomputed one holds.
  wrapguard::MemoryMeter meter(torch::kCPU);
  const Tensor in = torch::randn({4, 10, 16}, torch::requires_grad());
  const auto held = [&](torch::nn::AnyModule m) {
    const auto before = meter.current();
    Tensor y = m.forward(in);
    return meter.current() - before;
  };
  const auto plain = held(torch::nn::AnyModule(nested));
  const auto full =
      held(torch::nn::AnyModule(wrapguard::CheckpointWrapper(nested)));
  EXPECT_EQ(profile.units[1].plain_bytes, plain - full);
  EXPECT_GT(profile.units[1].plain_bytes, 4 * 10 * 64 * 4); // two 64-wide
}

// Runs its Sequential twice per step: its modules cannot be planned.
struct TwiceImpl : torch::nn::Module {
  TwiceImpl()
      : seq(register_module("seq",
                            torch::nn::Sequential(torch::nn::Linear(16, 16)))) {
  }
  Tensor forward(const Tensor &x) { return seq->forward(seq->forward(x)); }
  torch::nn::Sequential seq;
};
TORCH_MODULE(Twice);

TEST(Plan, ModuleThatRunsTwiceIsLeftOut) {
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(16, 16), Twice());
  const Tensor x = torch::randn({4, 16});
  auto plan = wrapguard::plan_checkpointing(model, {x}, 1LL << 30);
  ASSERT_EQ(plan.candidates.size(), 1u);
  EXPECT_EQ(plan.candidates[0].name, "0");
  ASSERT_FALSE(plan.warnings.empty());
  EXPECT_NE(plan.warnings[0].find("'1.seq.0' (Linear) ran 2 times in one step"),
            std::string::npos)
      << plan.warnings[0];
  EXPECT_TRUE(model[1]->as<TwiceImpl>()->seq[0]->as<torch::nn::LinearImpl>() !=
              nullptr);
}

TEST(Plan, NothingToCheckpointIsAClearError) {
  torch::nn::Sequential model{torch::nn::ReLU(), torch::nn::Tanh()};
  try {
    wrapguard::plan_checkpointing(model, {torch::randn({2, 4})}, 1 << 20);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("has no module that can be "
                                         "checkpointed"),
              std::string::npos)
        << e.what();
  }
}

// Issue 23: a model and inputs on different devices fail before anything
// runs, with a c10::Error that names both devices (on a GPU the same mistake,
// model on the CPU and inputs on CUDA, gave ATen's error from layer_norm).
// The meta device stands in for the second device on a CPU-only machine.
TEST(Plan, ModelAndInputsOnTwoDevicesIsAClearError) {
  torch::manual_seed(0);
  wrapguard::DemoModel model(plan_options());
  const Tensor on_meta = torch::empty({2, 8, 16}, torch::kMeta);
  try {
    wrapguard::plan_checkpointing(model, {on_meta}, 1 << 20);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    const std::string what = e.what_without_backtrace();
    EXPECT_NE(what.find("wrapguard::plan_checkpointing: the model's parameter "
                        "'blocks.0.norm.weight' is on cpu but input 0 is on "
                        "meta; move the model with module->to(meta)"),
              std::string::npos)
        << what;
  }
  try {
    wrapguard::plan_checkpointing(model, {plan_batch(), on_meta}, 1 << 20);
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    const std::string what = e.what_without_backtrace();
    EXPECT_NE(what.find("input 0 is on cpu but input 1 is on meta"),
              std::string::npos)
        << what;
  }
  // The model is left as it was.
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(model->blocks[i]->as<wrapguard::DemoBlockImpl>() != nullptr);
}

TEST(Verify, BatchOnAnotherDeviceThanTheModelIsAClearError) {
  torch::manual_seed(0);
  wrapguard::DemoModel model(plan_options());
  // A make_batch that ignores the device it is asked for.
  const wrapguard::MakeBatch elsewhere = [](torch::Device) {
    return std::vector<Tensor>{torch::empty({2, 8, 16}, torch::kMeta)};
  };
  try {
    wrapguard::verify_checkpointing(
        torch::nn::AnyModule(model),
        wrapguard::WrapPolicy::transformer_based({"DemoBlock"}), elsewhere,
        wrapguard::VerifyOptions().device(torch::kCPU).timed_steps(0));
    FAIL() << "must throw";
  } catch (const c10::Error &e) {
    const std::string what = e.what_without_backtrace();
    EXPECT_NE(what.find("wrapguard::verify_checkpointing: the model's "
                        "parameter 'blocks.0.norm.weight' is on cpu but input "
                        "0 is on meta"),
              std::string::npos)
        << what;
  }
}

} // namespace
