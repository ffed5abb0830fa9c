//===- main.cpp - The wrapguard-verify command line -----------------------===//
//
// Runs the shim's verifier on the example model (--demo, --bench). Joining
// the scanner's flagged sites with a runtime trace needs no LibTorch and is
// the scanner's: `wrapguard join --sites FILE --trace TRACE`.
#include "DemoModel.h"

#include <wrapguard/plan.h>
#include <wrapguard/policy.h>
#include <wrapguard/verify.h>

#include <c10/util/Exception.h>
#include <torch/cuda.h>
#include <torch/utils.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

const char *const Usage = R"(usage:
  wrapguard-verify --demo [--device cpu|cuda] [--json]
      Verifies activation checkpointing of the bundled example model (a
      transformer-style stack of LayerNorm/Linear/GELU/Dropout blocks) under
      each wrap policy: grads vs the plain model, recomputations per backward,
      allocator-level peak memory and step time. Exit status 1 when a policy
      that wraps something fails.
  wrapguard-verify --bench [--device cpu|cuda] [--blocks N] [--seq N]
      [--width N] [--hidden N] [--batch N] [--steps N] [--threads N]
      [--selective] [--memory-budget-mib M | --checkpoint-every K]
      [--plain-only] [--retain-freed-memory] [--json]
      Plain vs checkpointed on a larger model (used by tools/bench/bench-shim):
      every block checkpointed; with --selective, selective recompute (the
      outputs of matrix products that the backward reads kept); with
      --memory-budget-mib, the blocks plan_checkpointing picks for a peak of
      at most M MiB; with --checkpoint-every, blocks 0, K, 2K, ... (the
      naive way to fit). Exit
      status 1 when grads differ, a wrapped block recomputes other than once,
      the peak is not lower, or a plan's peak exceeds its budget by over 5%.
      --plain-only times the plain model alone, step by step, as the Python
      side of the benchmark does; --retain-freed-memory first calls
      wrapguard::retain_freed_cpu_memory() (malloc keeps freed memory).
Exit status 2 on a usage error. Flagged sites are joined with a
WRAPGUARD_TRACE file by the scanner: wrapguard join --sites FILE --trace TRACE.
)";

// ---------------------------------------------------------------------------
// --demo

std::string formatBytes(std::int64_t bytes) {
  char buf[32];
  double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
  std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
  return buf;
}

std::string formatDouble(const char *fmt, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width)
    s.append(width - s.size(), ' ');
  return s;
}

std::optional<torch::Device> deviceOrError(const std::string &name) {
  torch::Device device(name);
  if (device.is_cuda() && !torch::cuda::is_available()) {
    std::cerr << "wrapguard-verify: --device cuda requested but CUDA is not "
                 "available in this build or on this machine\n";
    return std::nullopt;
  }
  return device;
}

std::vector<wrapguard::WrapPolicy> demoPolicies() {
  return {
      wrapguard::WrapPolicy::no_wrap(),
      wrapguard::WrapPolicy::size_based(100000),
      wrapguard::WrapPolicy::transformer_based({"DemoBlock"}),
      wrapguard::WrapPolicy::lambda([](const torch::nn::Module &m) {
        // Blocks that hold a Dropout: their masks must replay exactly.
        for (const auto &child : m.children())
          if (wrapguard::short_type_name(*child) == "Dropout")
            return true;
        return false;
      }),
  };
}

// One row of the --demo table.
std::vector<std::string> demoRow(const wrapguard::VerifyResult &r,
                                 double tolerance) {
  std::string saved = "-";
  if (r.peak_bytes_plain > 0)
    saved = formatDouble(
        "%.0f%%", 100.0 * (r.peak_bytes_plain - r.peak_bytes_checkpointed) /
                      r.peak_bytes_plain);
  std::string result = r.wrapped.empty()     ? "nothing wrapped"
                       : r.passed(tolerance) ? "ok"
                                             : "FAIL";
  return {r.policy,
          std::to_string(r.wrapped.size()),
          r.wrapped.empty() ? "-" : std::to_string(r.recompute_per_backward),
          formatDouble("%.3g", r.max_abs_grad_diff),
          formatBytes(r.peak_bytes_plain),
          formatBytes(r.peak_bytes_checkpointed),
          r.wrapped.empty() ? "-" : saved,
          formatDouble("%.3f s", r.step_seconds_plain),
          formatDouble("%.3f s", r.step_seconds_checkpointed),
          result};
}

void printDemoTable(const std::vector<wrapguard::VerifyResult> &results,
                    const wrapguard::DemoModelOptions &options,
                    torch::Device device, double tolerance) {
  std::cout << "example model: " << options.blocks() << " blocks (LayerNorm, "
            << "Linear " << options.width() << "->" << options.hidden()
            << ", GELU, Linear, Dropout " << options.dropout()
            << "), batch 2x128x" << options.width() << ", device "
            << device.str() << "\n\n";
  const std::vector<std::pair<std::string, std::size_t>> cols = {
      {"policy", 30},     {"wrapped", 8},     {"recompute", 10},
      {"max|dgrad|", 11}, {"peak plain", 12}, {"peak ckpt", 12},
      {"saved", 7},       {"step plain", 11}, {"step ckpt", 10},
      {"result", 0}};
  for (const auto &c : cols)
    std::cout << pad(c.first, c.second);
  std::cout << "\n";
  for (const auto &r : results) {
    std::vector<std::string> cells = demoRow(r, tolerance);
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::cout << pad(cells[i], cols[i].second);
    std::cout << "\n";
  }
  std::cout << "\n";
  for (const auto &r : results)
    for (const auto &w : r.warnings)
      std::cout << "warning: " << r.policy << ": " << w << "\n";
}

int runDemo(const std::string &deviceName, bool json) {
  const std::optional<torch::Device> device = deviceOrError(deviceName);
  if (!device)
    return 2;
  torch::set_num_threads(std::min<int>(2, torch::get_num_threads()));
  auto options =
      wrapguard::DemoModelOptions().blocks(4).width(128).hidden(512).dropout(
          0.1);
  torch::manual_seed(0);
  wrapguard::DemoModel model(options);
  wrapguard::MakeBatch batch = [](torch::Device d) {
    return std::vector<torch::Tensor>{
        torch::randn({2, 128, 128}, torch::TensorOptions().device(d))};
  };
  {
    // Warm-up, so the first policy's times don't include thread-pool and
    // heap start-up.
    auto warm = std::dynamic_pointer_cast<wrapguard::DemoModelImpl>(
        model->clone(*device));
    warm->forward(batch(*device)[0]).square().mean().backward();
  }
  const double tolerance = device->is_cpu() ? 0.0 : 1e-5;
  bool allPassed = true;
  std::vector<wrapguard::VerifyResult> results;
  for (const auto &policy : demoPolicies()) {
    auto r = wrapguard::verify_checkpointing(
        torch::nn::AnyModule(model), policy, batch,
        wrapguard::VerifyOptions().device(*device).timed_steps(2));
    if (!r.wrapped.empty() && !r.passed(tolerance))
      allPassed = false;
    if (json)
      std::cout << r.to_json() << std::endl;
    results.push_back(std::move(r));
  }
  if (json)
    return allPassed ? 0 : 1;
  printDemoTable(results, options, *device, tolerance);
  std::cout << (allPassed
                    ? "every policy that wraps: grads identical to plain, "
                      "one recompute per backward, lower peak memory\n"
                    : "FAILED: see the table\n");
  return allPassed ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --bench: one CheckpointWrapper measurement for tools/bench/bench-shim

struct BenchShape {
  std::int64_t blocks = 8, seq = 512, width = 512, hidden = 2048, batch = 2;
  int steps = 5, threads = 2;
  bool selective = false, plainOnly = false, retainFreed = false;
  std::int64_t budgetMib = 0; // 0: no budget
  std::int64_t every = 0;     // 0: every block
};

// Plans the blocks to checkpoint for the budget, on the model itself (the
// profile leaves it as it was).
wrapguard::CheckpointPlan planBench(wrapguard::DemoModel &model,
                                    const wrapguard::MakeBatch &batch,
                                    const BenchShape &s,
                                    const wrapguard::CheckpointOptions &ckpt,
                                    torch::Device device) {
  torch::manual_seed(0);
  return wrapguard::plan_checkpointing(
      model, batch(device), s.budgetMib << 20,
      wrapguard::PlanOptions().checkpoint_options(ckpt));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The plain model alone, one untimed and `steps` timed steps, each as the
// Python side of tools/bench/bench-shim times it: grads cleared, seed set,
// forward, loss, backward.
int runPlainOnly(wrapguard::DemoModel &model, const wrapguard::MakeBatch &batch,
                 const BenchShape &s, torch::Device device, bool json) {
  torch::manual_seed(0);
  const torch::Tensor x = batch(device).at(0);
  wrapguard::MemoryMeter meter(device);
  std::vector<double> times;
  std::int64_t peak = 0, held = 0;
  for (int step = 0; step <= s.steps; ++step) {
    for (torch::Tensor &p : model->parameters())
      p.mutable_grad() = torch::Tensor();
    torch::manual_seed(0);
    if (device.is_cuda())
      torch::cuda::synchronize();
    meter.reset_peak();
    const std::int64_t base = meter.current();
    const auto start = std::chrono::steady_clock::now();
    torch::Tensor loss = model(x).square().mean();
    held = meter.current() - base;
    loss.backward();
    if (device.is_cuda())
      torch::cuda::synchronize();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    peak = meter.peak() - base;
    if (step > 0)
      times.push_back(seconds);
  }
  if (json) {
    wrapguard::json out = {{"device", device.str()},
                           {"policy", "PLAIN_ONLY"},
                           {"retain_freed_memory", s.retainFreed},
                           {"peak_bytes_plain", peak},
                           {"activation_bytes_plain", held},
                           {"step_seconds_plain", median(times)},
                           {"step_times_plain", times}};
    std::cout << wrapguard::detail::dump_json(out) << std::endl;
  } else {
    std::cout << "plain: " << median(times) << " s (median of " << times.size()
              << "), peak " << formatBytes(peak) << "\n";
  }
  return 0;
}

int runBench(const std::string &deviceName, const BenchShape &s, bool json) {
  const std::optional<torch::Device> device = deviceOrError(deviceName);
  if (!device)
    return 2;
  if (s.retainFreed && !wrapguard::retain_freed_cpu_memory())
    std::cerr << "wrapguard-verify: --retain-freed-memory has no effect here "
                 "(not glibc)\n";
  torch::set_num_threads(s.threads);
  torch::manual_seed(0);
  wrapguard::DemoModel model(wrapguard::DemoModelOptions()
                                 .blocks(s.blocks)
                                 .width(s.width)
                                 .hidden(s.hidden)
                                 .dropout(0.1));
  // Made on the CPU (the same weights on every device, from the seed), then
  // moved once: the plan and the plain-only steps run the model itself, and
  // the verifier's clones are made from it.
  model->to(*device);
  const wrapguard::MakeBatch batch = [s](torch::Device d) {
    return std::vector<torch::Tensor>{torch::randn(
        {s.batch, s.seq, s.width}, torch::TensorOptions().device(d))};
  };
  if (s.plainOnly)
    return runPlainOnly(model, batch, s, *device, json);
  const auto verifyOptions =
      wrapguard::VerifyOptions().device(*device).timed_steps(s.steps);
  const auto ckpt = wrapguard::CheckpointOptions().selective(s.selective);
  wrapguard::VerifyResult r;
  if (s.budgetMib > 0) {
    const wrapguard::CheckpointPlan plan =
        planBench(model, batch, s, ckpt, *device);
    if (!json)
      std::cout << plan.to_string();
    r = wrapguard::verify_checkpointing(torch::nn::AnyModule(model), plan,
                                        batch, verifyOptions);
  } else {
    wrapguard::WrapPolicy policy =
        wrapguard::WrapPolicy::transformer_based({"DemoBlock"}, ckpt);
    if (s.every > 0) {
      std::set<std::string> paths;
      for (std::int64_t i = 0; i < s.blocks; i += s.every)
        paths.insert("blocks." + std::to_string(i));
      policy = wrapguard::WrapPolicy::modules(paths, ckpt);
    }
    r = wrapguard::verify_checkpointing(torch::nn::AnyModule(model), policy,
                                        batch, verifyOptions);
  }
  if (json) {
    std::cout << r.to_json() << std::endl;
  } else {
    std::cout << r.policy << "\nplain: " << r.step_seconds_plain << " s, peak "
              << formatBytes(r.peak_bytes_plain) << ", activations "
              << formatBytes(r.activation_bytes_plain)
              << "\ncheckpointed: " << r.step_seconds_checkpointed
              << " s, peak " << formatBytes(r.peak_bytes_checkpointed)
              << ", activations "
              << formatBytes(r.activation_bytes_checkpointed) << "\nmax|dgrad| "
              << r.max_abs_grad_diff << ", recomputes "
              << r.recompute_per_backward << "\n";
  }
  return r.passed(device->is_cpu() ? 0.0 : 1e-5) ? 0 : 1;
}

// ---------------------------------------------------------------------------
// The command line

struct Options {
  bool demo = false, bench = false, json = false;
  BenchShape shape;
  std::string device = "cpu";
};

// Parses a whole decimal integer in [min, max] into `out`; false, with a
// message, for anything else (issue 10, defect 3: std::stoll used to throw
// from outside any try and end the process).
template <typename T>
bool parseInteger(const std::string &option, const std::string &text, T min,
                  T max, T &out) {
  long long value = 0;
  const char *begin = text.data(), *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < min ||
      value > max) {
    std::cerr << "wrapguard-verify: " << option << " expects an integer from "
              << min << " to " << max << ", got '" << text << "'\n";
    return false;
  }
  out = static_cast<T>(value);
  return true;
}

// Handles one numeric --bench option; nullopt when `arg` is none of them.
std::optional<bool> parseShapeOption(const std::string &arg,
                                     const std::string &value,
                                     BenchShape &shape) {
  const std::int64_t big = INT64_MAX;
  if (arg == "--blocks")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.blocks);
  if (arg == "--seq")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.seq);
  if (arg == "--width")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.width);
  if (arg == "--hidden")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.hidden);
  if (arg == "--batch")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.batch);
  if (arg == "--steps")
    return parseInteger<int>(arg, value, 0, INT_MAX, shape.steps);
  if (arg == "--threads")
    return parseInteger<int>(arg, value, 1, INT_MAX, shape.threads);
  // Shifted left by 20 bits into bytes, so at most 2^43 MiB.
  if (arg == "--memory-budget-mib")
    return parseInteger<std::int64_t>(arg, value, 1, big >> 20,
                                      shape.budgetMib);
  if (arg == "--checkpoint-every")
    return parseInteger<std::int64_t>(arg, value, 1, big, shape.every);
  return std::nullopt;
}

bool takesValue(const std::string &arg) {
  for (const char *name :
       {"--blocks", "--seq", "--width", "--hidden", "--batch", "--steps",
        "--threads", "--device", "--memory-budget-mib", "--checkpoint-every"})
    if (arg == name)
      return true;
  return false;
}

// Fills `o` from the command line. Returns an exit status when the process
// should end now (0 after --help, 2 on a usage error), else nullopt.
std::optional<int> parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg == "--sites" || arg == "--trace") {
      std::cerr << "wrapguard-verify: " << arg
                << " moved to the scanner: wrapguard join --sites FILE "
                   "--trace TRACE\n";
      return 2;
    }
    if (arg.rfind("--device=", 0) == 0) {
      value = arg.substr(9);
      arg = "--device";
    } else if (takesValue(arg)) {
      if (i + 1 >= argc) {
        std::cerr << "wrapguard-verify: " << arg << " needs a value\n" << Usage;
        return 2;
      }
      value = argv[++i];
    }
    if (std::optional<bool> ok = parseShapeOption(arg, value, o.shape)) {
      if (!*ok)
        return 2;
    } else if (arg == "--demo") {
      o.demo = true;
    } else if (arg == "--bench") {
      o.bench = true;
    } else if (arg == "--json") {
      o.json = true;
    } else if (arg == "--selective") {
      o.shape.selective = true;
    } else if (arg == "--plain-only") {
      o.shape.plainOnly = true;
    } else if (arg == "--retain-freed-memory") {
      o.shape.retainFreed = true;
    } else if (arg == "--device") {
      o.device = value;
    } else if (arg == "-h" || arg == "--help") {
      std::cout << Usage;
      return 0;
    } else {
      std::cerr << "wrapguard-verify: unknown argument '" << arg << "'\n"
                << Usage;
      return 2;
    }
  }
  return std::nullopt;
}

int run(const Options &o) {
  const BenchShape &s = o.shape;
  if ((s.selective || s.budgetMib || s.every || s.plainOnly || s.retainFreed) &&
      !o.bench) {
    std::cerr << "wrapguard-verify: --selective, --memory-budget-mib, "
                 "--checkpoint-every, --plain-only and --retain-freed-memory "
                 "go with --bench\n";
    return 2;
  }
  if (s.plainOnly && (s.selective || s.budgetMib || s.every)) {
    std::cerr << "wrapguard-verify: --plain-only checkpoints nothing\n";
    return 2;
  }
  if (s.budgetMib && s.every) {
    std::cerr << "wrapguard-verify: --memory-budget-mib and "
                 "--checkpoint-every exclude each other\n";
    return 2;
  }
  if (o.demo || o.bench) {
    if (o.device != "cpu" && o.device != "cuda") {
      std::cerr << "wrapguard-verify: --device must be cpu or cuda\n";
      return 2;
    }
    return o.bench ? runBench(o.device, o.shape, o.json)
                   : runDemo(o.device, o.json);
  }
  std::cerr << Usage;
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (std::optional<int> status = parseArgs(argc, argv, options))
    return *status;
  try {
    return run(options);
  } catch (const c10::Error &e) {
    std::cerr << "wrapguard-verify: " << e.what_without_backtrace() << "\n";
  } catch (const std::exception &e) {
    std::cerr << "wrapguard-verify: " << e.what() << "\n";
  }
  return 1;
}
