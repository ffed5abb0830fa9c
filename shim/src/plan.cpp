//===- plan.cpp - Activation checkpointing under a memory budget ----------===//
//
// The profile (a step with every candidate fully recomputed, observed at each
// candidate's forward, recompute and backward, and one with every candidate
// selectively recomputed), the peak it predicts for any choice of modes, and
// the two solvers.
#include <wrapguard/plan.h>
#include <wrapguard/verify.h>

#include <c10/util/Exception.h>
#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace wrapguard {
namespace {

using torch::Tensor;

std::string mib(std::int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB",
                static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

// ---------------------------------------------------------------------------
// The profiled step

// One observed point of the step: a unit's phase, or the step's start or end
// (unit -1). Levels and peaks are bytes above the step's start.
struct Event {
  int unit = -1;
  CheckpointPhase phase = CheckpointPhase::forward_begin;
  std::int64_t level = 0;
  std::int64_t peak = 0; // highest level since the previous event
  double seconds = 0;
};

class Timeline {
public:
  Timeline(MemoryMeter &meter, torch::Device device)
      : meter_(meter), device_(device) {}

  void start() {
    events_.clear();
    sync();
    base_ = meter_.current();
    meter_.reset_peak();
    start_ = std::chrono::steady_clock::now();
    events_.push_back({});
  }
  void record(int unit, CheckpointPhase phase) {
    sync();
    Event e;
    e.unit = unit;
    e.phase = phase;
    e.level = meter_.current() - base_;
    e.peak = meter_.peak() - base_;
    e.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    meter_.reset_peak();
    events_.push_back(e);
  }
  void finish() { record(-1, CheckpointPhase::backward_end); }
  const std::vector<Event> &events() const { return events_; }

private:
  void sync() {
    if (device_.is_cuda())
      torch::cuda::synchronize(device_.has_index() ? device_.index() : -1);
  }
  MemoryMeter &meter_;
  torch::Device device_;
  std::int64_t base_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::vector<Event> events_;
};

// The candidates, wrapped in place for the profile; put back as they were
// when this goes out of scope, whatever happened.
class TemporaryWrappers {
public:
  TemporaryWrappers(std::vector<detail::WrapSite> sites,
                    const CheckpointOptions &options)
      : sites_(std::move(sites)) {
    // Not a wrap a WRAPGUARD_CALL_* site made: keep it out of the trace.
    CallSite *&current = detail::current_site();
    CallSite *outer = current;
    current = nullptr;
    try {
      for (const detail::WrapSite &site : sites_) {
        torch::nn::AnyModule original = detail::module_at(site);
        wrappers_.push_back(CheckpointWrapper(
            std::make_shared<CheckpointWrapperImpl>(original, options)));
        originals_.push_back(
            detail::replace_at(site, torch::nn::AnyModule(wrappers_.back())));
      }
    } catch (...) {
      current = outer;
      restore();
      throw;
    }
    current = outer;
  }
  ~TemporaryWrappers() { restore(); }
  TemporaryWrappers(const TemporaryWrappers &) = delete;
  TemporaryWrappers &operator=(const TemporaryWrappers &) = delete;

  std::size_t size() const { return wrappers_.size(); }
  const detail::WrapSite &site(std::size_t i) const { return sites_[i]; }
  CheckpointWrapper &wrapper(std::size_t i) { return wrappers_[i]; }
  /// Puts unit `i`'s module back now (a unit left out of the plan).
  void unwrap(std::size_t i) {
    if (!unwrapped_.insert(i).second)
      return;
    detail::replace_at(sites_[i], originals_[i]);
  }

private:
  void restore() {
    for (std::size_t i = originals_.size(); i-- > 0;)
      if (!unwrapped_.count(i))
        detail::replace_at(sites_[i], originals_[i]);
    originals_.clear();
  }
  std::vector<detail::WrapSite> sites_;
  std::vector<CheckpointWrapper> wrappers_;
  std::vector<torch::nn::AnyModule> originals_;
  std::set<std::size_t> unwrapped_;
};

// Parameter grads as they were before the profile, put back afterwards; the
// profiled steps start from none, as a step after zero_grad(set_to_none).
class GradStash {
public:
  explicit GradStash(std::vector<Tensor> params) {
    for (Tensor &p : params)
      saved_.emplace_back(p, p.grad());
    clear();
  }
  ~GradStash() {
    for (auto &entry : saved_)
      entry.first.mutable_grad() = entry.second;
  }
  GradStash(const GradStash &) = delete;
  GradStash &operator=(const GradStash &) = delete;
  void clear() {
    for (auto &entry : saved_)
      entry.first.mutable_grad() = Tensor();
  }

private:
  std::vector<std::pair<Tensor, Tensor>> saved_;
};

// Indices of one unit's five events in a step, or why it has no such set.
struct UnitEvents {
  std::size_t at[5] = {0, 0, 0, 0, 0};
  int seen[5] = {0, 0, 0, 0, 0};
  std::string problem() const {
    if (seen[0] == 0)
      return "did not run in the profiled step";
    if (seen[0] > 1)
      return "ran " + std::to_string(seen[0]) +
             " times in one step (a shared module)";
    if (seen[2] == 0)
      return "was not recomputed in the backward (nothing in it needs a "
             "grad)";
    for (int k = 1; k < 5; ++k)
      if (seen[k] != 1)
        return "was recomputed " + std::to_string(seen[2]) +
               " times in one backward";
    for (int k = 1; k < 5; ++k)
      if (at[k] <= at[k - 1])
        return "ran its phases out of order";
    return {};
  }
};

std::vector<UnitEvents> index_events(const std::vector<Event> &events,
                                     std::size_t units) {
  std::vector<UnitEvents> out(units);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event &e = events[i];
    if (e.unit < 0)
      continue;
    const int k = static_cast<int>(e.phase);
    out[e.unit].at[k] = i;
    ++out[e.unit].seen[k];
  }
  return out;
}

// What one unit did in one profiled step: its five events' levels, peaks and
// times, in bytes above the step's start and seconds.
struct UnitStep {
  std::int64_t level[5] = {0, 0, 0, 0, 0};
  std::int64_t peak[5] = {0, 0, 0, 0, 0}; // of the stretch ending there
  double seconds[5] = {0, 0, 0, 0, 0};
  std::size_t at[5] = {0, 0, 0, 0, 0};
  double forward_seconds = 0, recompute_seconds = 0;

  static constexpr int fb = 0, fe = 1, rb = 2, re = 3, be = 4;
  // Held from its forward to its backward: its outputs, the RNG state, and
  // what selective recompute kept.
  std::int64_t held() const { return level[fe] - level[fb]; }
  // Allocated by its recompute and still held after it.
  std::int64_t recomputed() const { return level[re] - level[rb]; }
  double forward() const { return forward_seconds; }
  double recompute() const { return recompute_seconds; }
  // How far its forward, recompute and grad stretches rise above the level
  // each starts from (the grad stretch: above the recompute's start).
  std::int64_t forward_rise() const { return peak[fe] - level[fb]; }
  std::int64_t recompute_rise() const { return peak[re] - level[rb]; }
  std::int64_t grad_rise() const { return peak[be] - level[rb]; }
};

std::vector<UnitStep> unit_steps(const std::vector<Event> &events,
                                 const std::vector<int> &order,
                                 const std::vector<PlanCandidate> &info) {
  const std::vector<UnitEvents> all = index_events(events, info.size());
  std::vector<UnitStep> out;
  for (int wrapper : order) {
    const UnitEvents &ev = all[wrapper];
    TORCH_CHECK(ev.problem().empty(), "wrapguard::plan_checkpointing: '",
                info[wrapper].name, "' ", ev.problem(),
                " in a profiled step after it did not in the warm-up step; "
                "the model must run the same way each step");
    UnitStep u;
    for (int k = 0; k < 5; ++k) {
      const Event &e = events[ev.at[k]];
      u.level[k] = e.level;
      u.peak[k] = e.peak;
      u.seconds[k] = e.seconds;
      u.at[k] = ev.at[k];
    }
    u.forward_seconds = u.seconds[UnitStep::fe] - u.seconds[UnitStep::fb];
    u.recompute_seconds = u.seconds[UnitStep::re] - u.seconds[UnitStep::rb];
    out.push_back(u);
  }
  return out;
}

// The profile: the timeline of the fully recomputed step (`events`, whose
// units are `full`), with each unit's own stretches also priced for its
// other modes: plain from the full step's recompute, selective from the
// selective step's (`selective`, empty when not profiled).
// `rng_bytes` is what a recompute's copy of the RNG state takes; it is part
// of a checkpointed unit's recompute stretch, not of a plain unit's.
CheckpointProfile build_profile(const std::vector<Event> &events,
                                const std::vector<UnitStep> &full,
                                const std::vector<UnitStep> &selective,
                                const std::vector<int> &order,
                                const std::vector<PlanCandidate> &info,
                                std::int64_t rng_bytes) {
  using U = UnitStep;
  constexpr int plain = static_cast<int>(CheckpointMode::plain),
                sel = static_cast<int>(CheckpointMode::selective);
  CheckpointProfile profile;
  std::vector<int> unit_of_wrapper(info.size(), -1);
  for (std::size_t u = 0; u < order.size(); ++u) {
    unit_of_wrapper[order[u]] = static_cast<int>(u);
    const U &f = full[u];
    PlanCandidate c = info[order[u]];
    // A plain run holds what the recompute allocates (its outputs too)
    // instead of what the checkpointed forward held.
    c.plain_bytes = f.recomputed() - f.held();
    c.full_seconds = f.recompute();
    c.forward_seconds = f.forward();
    if (!selective.empty()) {
      const U &s = selective[u];
      c.selective_profiled = true;
      c.selective_bytes = s.held() - f.held();
      c.selective_seconds =
          std::max(0.0, s.recompute() + s.forward() - f.forward());
    }
    profile.units.push_back(std::move(c));
  }
  for (std::size_t k = 1; k < events.size(); ++k) {
    const Event &prev = events[k - 1], &cur = events[k];
    CheckpointProfile::Segment seg;
    seg.peak.fill(cur.peak);
    for (std::size_t u = 0; u < order.size(); ++u)
      if (full[u].at[U::fe] <= k - 1 && full[u].at[U::be] >= k)
        seg.active.push_back(static_cast<int>(u));
    if (prev.unit >= 0 && prev.unit == cur.unit) {
      const int u = unit_of_wrapper[cur.unit];
      const U &f = full[u];
      seg.owner = u;
      // Each mode's stretch rises from where the full step's starts; the
      // active units' bytes (the owner's own, after its forward) come on top.
      if (prev.phase == CheckpointPhase::forward_begin) {
        // A plain forward rises as the recompute does.
        seg.peak[plain] = f.level[U::fb] + f.recompute_rise();
        if (!selective.empty())
          seg.peak[sel] = f.level[U::fb] + selective[u].forward_rise();
      } else if (prev.phase == CheckpointPhase::recompute_begin) {
        seg.peak[plain] = f.level[U::rb] - rng_bytes; // nothing to recompute
        if (!selective.empty())
          seg.peak[sel] = f.level[U::rb] + selective[u].recompute_rise();
      } else {
        // The grad stretch without the recompute's allocations, which the
        // plain unit's held bytes stand for.
        seg.peak[plain] = cur.peak - f.recomputed();
        if (!selective.empty())
          seg.peak[sel] = f.level[U::rb] + selective[u].grad_rise();
      }
    }
    profile.segments.push_back(std::move(seg));
  }
  return profile;
}

// Runs one step, observed from its start: forward, loss, backward, from no
// parameter grads (cleared before the step starts, as verify_checkpointing
// does, so that the peak is counted the same way).
void run_step(const TensorFn &forward, const std::vector<Tensor> &inputs,
              const PlanOptions &options, GradStash &grads,
              Timeline &timeline) {
  grads.clear();
  torch::manual_seed(0);
  timeline.start();
  Tensor output = forward(inputs).at(0);
  Tensor loss = options.loss_fn()(output);
  TORCH_CHECK(loss.numel() == 1,
              "wrapguard::plan_checkpointing: the loss must be a scalar, got "
              "shape ",
              loss.sizes());
  loss.backward();
  timeline.finish();
}

// Runs the profiled steps with every wrapper in one mode; returns the last
// step's events and each unit's fastest times.
std::pair<std::vector<Event>, std::vector<UnitStep>>
profile_steps(const TensorFn &forward, const std::vector<Tensor> &inputs,
              const PlanOptions &options, GradStash &grads, Timeline &timeline,
              const std::vector<int> &order,
              const std::vector<PlanCandidate> &info) {
  std::vector<UnitStep> fastest;
  for (int step = 0; step < options.profile_steps(); ++step) {
    run_step(forward, inputs, options, grads, timeline);
    std::vector<UnitStep> units = unit_steps(timeline.events(), order, info);
    if (step > 0)
      for (std::size_t u = 0; u < units.size(); ++u) {
        // This step's memory, the fastest times of all steps.
        units[u].forward_seconds =
            std::min(units[u].forward_seconds, fastest[u].forward_seconds);
        units[u].recompute_seconds =
            std::min(units[u].recompute_seconds, fastest[u].recompute_seconds);
      }
    fastest = std::move(units);
  }
  return {timeline.events(), std::move(fastest)};
}

CheckpointProfile profile_impl(const std::shared_ptr<torch::nn::Module> &root,
                               const TensorFn &forward,
                               const std::vector<Tensor> &inputs,
                               const PlanOptions &options) {
  TORCH_CHECK(!inputs.empty() && inputs[0].defined(),
              "wrapguard::plan_checkpointing: needs at least one sample input");
  TORCH_CHECK(options.profile_steps() >= 1,
              "wrapguard::plan_checkpointing: profile_steps must be at least "
              "1, got ",
              options.profile_steps());
  detail::check_one_device(*root, inputs, "wrapguard::plan_checkpointing");
  const torch::Device device = inputs[0].device();
  TORCH_CHECK(MemoryMeter::supported(device),
              "wrapguard::plan_checkpointing: cannot measure ", device.str(),
              " memory in this build");
  std::vector<detail::WrapSite> sites;
  for (detail::WrapSite &site : detail::wrap_sites(*root))
    if (!site.has_site_below)
      sites.push_back(std::move(site));
  TORCH_CHECK(!sites.empty(),
              "wrapguard::plan_checkpointing: the model has no module that "
              "can be checkpointed: candidates are children of a "
              "torch::nn::Sequential that have parameters");

  std::vector<PlanCandidate> info;
  for (const detail::WrapSite &site : sites) {
    PlanCandidate c;
    c.name = site.path;
    c.type = short_type_name(*site.module);
    c.num_params = count_unwrapped_params(*site.module);
    info.push_back(std::move(c));
  }

  const std::vector<Tensor> params = root->parameters();
  detail::ForkRng fork(detail::cuda_devices_of(inputs, params));
  GradStash grads(params);
  MemoryMeter meter(device);
  Timeline timeline(meter, device);
  CheckpointOptions full_options = options.checkpoint_options();
  full_options.selective(false);
  TemporaryWrappers wrapped(std::move(sites), full_options);
  for (std::size_t i = 0; i < wrapped.size(); ++i)
    wrapped.wrapper(i)->set_observer([&timeline, i](CheckpointPhase phase) {
      timeline.record(static_cast<int>(i), phase);
    });

  // The warm-up step also tells which candidates a plan can use: each must
  // run once and be recomputed once. The others run plain from here on.
  run_step(forward, inputs, options, grads, timeline);
  std::vector<std::string> left_out;
  std::vector<std::pair<std::size_t, int>> first_seen; // (forward event, unit)
  const std::vector<UnitEvents> warm =
      index_events(timeline.events(), wrapped.size());
  for (std::size_t i = 0; i < wrapped.size(); ++i) {
    const std::string problem = warm[i].problem();
    if (problem.empty()) {
      first_seen.emplace_back(warm[i].at[0], static_cast<int>(i));
      continue;
    }
    wrapped.unwrap(i);
    left_out.push_back("'" + info[i].name + "' (" + info[i].type + ") " +
                       problem + ", so it is left out of the plan");
  }
  TORCH_CHECK(!first_seen.empty(),
              "wrapguard::plan_checkpointing: no candidate module can be "
              "planned: ",
              left_out.empty() ? std::string() : left_out.front());
  std::sort(first_seen.begin(), first_seen.end());
  std::vector<int> order;
  for (const auto &entry : first_seen)
    order.push_back(entry.second);

  auto [events, full] =
      profile_steps(forward, inputs, options, grads, timeline, order, info);
  std::vector<UnitStep> selective;
  if (options.consider_selective()) {
    for (std::size_t i = 0; i < wrapped.size(); ++i)
      wrapped.wrapper(i)->options.selective(true);
    try {
      run_step(forward, inputs, options, grads, timeline); // warm-up
      selective =
          profile_steps(forward, inputs, options, grads, timeline, order, info)
              .second;
    } catch (const c10::Error &e) {
      left_out.push_back(
          std::string("selective recompute is not considered: it failed in "
                      "the profile: ") +
          e.what_without_backtrace());
      selective.clear();
    }
  }
  for (std::size_t i = 0; i < wrapped.size(); ++i)
    wrapped.wrapper(i)->set_observer(nullptr);
  std::int64_t rng_bytes = 0;
  if (full_options.preserve_rng_state()) {
    const std::int64_t before = meter.current();
    const auto copy =
        detail::RngState::capture(detail::cuda_devices_of(inputs, params));
    rng_bytes = meter.current() - before;
  }
  CheckpointProfile profile =
      build_profile(events, full, selective, order, info, rng_bytes);
  profile.warnings = std::move(left_out);
  return profile;
}

// ---------------------------------------------------------------------------
// The solvers

constexpr CheckpointMode all_modes[] = {
    CheckpointMode::plain, CheckpointMode::selective, CheckpointMode::full};

// The modes a unit may take: full and plain always, selective where it was
// profiled and asked for.
std::vector<CheckpointMode> modes_of(const PlanCandidate &unit,
                                     const PlanOptions &options) {
  std::vector<CheckpointMode> out;
  for (CheckpointMode m : all_modes)
    if (m != CheckpointMode::selective ||
        (unit.selective_profiled && options.consider_selective()))
      out.push_back(m);
  return out;
}

// Whether the profile is a chain: every segment's active units are the first
// k in forward order, and a unit's own segments have k = the unit (its
// forward) or the unit + 1 (its recompute and grad). Then the peak
// constraints of the units' prefixes decide everything, and a dynamic
// program over the units in order is exact.
bool is_chain(const CheckpointProfile &profile) {
  for (const CheckpointProfile::Segment &s : profile.segments) {
    for (std::size_t i = 0; i < s.active.size(); ++i)
      if (s.active[i] != static_cast<int>(i))
        return false;
    const int k = static_cast<int>(s.active.size());
    if (s.owner >= 0 && k != s.owner && k != s.owner + 1)
      return false;
  }
  return true;
}

// Dynamic programming over the units in forward order. A state after units
// 0..u is the bytes their modes hold beyond full recompute and the seconds
// they add; only the Pareto frontier (fewer bytes, or fewer seconds) is kept,
// which is exact because every later constraint grows with the bytes alone.
// Returns no modes, with `why_not` said, when the frontier grows too large.
std::vector<CheckpointMode> solve_exact(const CheckpointProfile &profile,
                                        std::int64_t budget,
                                        const PlanOptions &options,
                                        std::string &why_not) {
  const int n = static_cast<int>(profile.units.size());
  // Segments by when the decision of unit u settles them: its own, and the
  // others whose active prefix ends with u.
  std::vector<std::vector<const CheckpointProfile::Segment *>> own(n),
      settled(n);
  for (const CheckpointProfile::Segment &s : profile.segments) {
    const int k = static_cast<int>(s.active.size());
    if (s.owner >= 0)
      own[s.owner].push_back(&s);
    else if (k > 0)
      settled[k - 1].push_back(&s);
  }
  struct State {
    std::int64_t bytes;
    double seconds;
    int parent;
    CheckpointMode mode;
  };
  std::vector<std::vector<State>> layers;
  std::vector<State> frontier{{0, 0.0, -1, CheckpointMode::full}};
  for (int u = 0; u < n; ++u) {
    const PlanCandidate &unit = profile.units[u];
    std::vector<State> next;
    for (int i = 0; i < static_cast<int>(frontier.size()); ++i) {
      const State &from = frontier[i];
      for (CheckpointMode mode : modes_of(unit, options)) {
        const std::int64_t bytes = from.bytes + unit.bytes(mode);
        bool fits = true;
        for (const auto *s : own[u]) {
          const bool holds_u = static_cast<int>(s->active.size()) == u + 1;
          fits = fits && s->peak[static_cast<int>(mode)] +
                                 (holds_u ? bytes : from.bytes) <=
                             budget;
        }
        for (const auto *s : settled[u])
          fits = fits && s->peak[0] + bytes <= budget;
        if (fits)
          next.push_back({bytes, from.seconds + unit.seconds(mode), i, mode});
      }
    }
    std::sort(next.begin(), next.end(), [](const State &a, const State &b) {
      return a.bytes != b.bytes ? a.bytes < b.bytes : a.seconds < b.seconds;
    });
    std::vector<State> kept;
    for (const State &st : next)
      if (kept.empty() || st.seconds < kept.back().seconds)
        kept.push_back(st);
    if (static_cast<std::int64_t>(kept.size()) > options.max_exact_states()) {
      why_not = "the exact solver's frontier reached " +
                std::to_string(kept.size()) + " states at module " +
                std::to_string(u + 1) + " of " + std::to_string(n) +
                " (max_exact_states " +
                std::to_string(options.max_exact_states()) + ")";
      return {};
    }
    TORCH_INTERNAL_ASSERT(!kept.empty(),
                          "no state fits although full recompute does");
    layers.push_back(std::move(frontier));
    frontier = std::move(kept);
  }
  int best = 0;
  for (int i = 1; i < static_cast<int>(frontier.size()); ++i)
    if (frontier[i].seconds < frontier[best].seconds)
      best = i;
  std::vector<CheckpointMode> modes(n);
  const State *st = &frontier[best];
  for (int u = n - 1; u >= 0; --u) {
    modes[u] = st->mode;
    if (u > 0)
      st = &layers[u][st->parent];
  }
  return modes;
}

// From all plain, takes the step (a unit to a mode that holds less) that
// saves the most bytes per second it adds, until the prediction fits; then
// gives back, last taken first, any step the budget does not need.
std::vector<CheckpointMode> solve_greedy(const CheckpointProfile &profile,
                                         std::int64_t budget,
                                         const PlanOptions &options) {
  const std::size_t n = profile.units.size();
  std::vector<CheckpointMode> modes(n, CheckpointMode::plain);
  std::vector<std::pair<std::size_t, CheckpointMode>> taken; // (unit, from)
  while (profile.predict_peak(modes) > budget) {
    double best_ratio = -1;
    std::size_t best_unit = n;
    CheckpointMode best_mode = CheckpointMode::full;
    for (std::size_t u = 0; u < n; ++u) {
      const PlanCandidate &unit = profile.units[u];
      for (CheckpointMode m : modes_of(unit, options)) {
        const std::int64_t saved = unit.bytes(modes[u]) - unit.bytes(m);
        if (saved <= 0)
          continue;
        const double added =
            std::max(unit.seconds(m) - unit.seconds(modes[u]), 1e-12);
        const double ratio = static_cast<double>(saved) / added;
        if (ratio > best_ratio) {
          best_ratio = ratio;
          best_unit = u;
          best_mode = m;
        }
      }
    }
    if (best_unit == n) { // nothing left to save: full recompute fits
      std::fill(modes.begin(), modes.end(), CheckpointMode::full);
      return modes;
    }
    taken.emplace_back(best_unit, modes[best_unit]);
    modes[best_unit] = best_mode;
  }
  for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
    const CheckpointMode now = modes[it->first];
    modes[it->first] = it->second;
    if (profile.predict_peak(modes) > budget)
      modes[it->first] = now;
  }
  return modes;
}

} // namespace

// ---------------------------------------------------------------------------
// CheckpointProfile, PlanCandidate, solve_checkpoint_plan

const char *mode_name(CheckpointMode mode) {
  switch (mode) {
  case CheckpointMode::plain:
    return "plain";
  case CheckpointMode::selective:
    return "selective";
  case CheckpointMode::full:
    return "full";
  }
  return "?";
}

std::int64_t PlanCandidate::bytes(CheckpointMode m) const {
  return m == CheckpointMode::plain       ? plain_bytes
         : m == CheckpointMode::selective ? selective_bytes
                                          : 0;
}

double PlanCandidate::seconds(CheckpointMode m) const {
  return m == CheckpointMode::plain       ? 0.0
         : m == CheckpointMode::selective ? selective_seconds
                                          : full_seconds;
}

std::int64_t CheckpointProfile::predict_peak(
    const std::vector<CheckpointMode> &modes) const {
  TORCH_CHECK(modes.size() == units.size(),
              "wrapguard::CheckpointProfile::predict_peak: ", modes.size(),
              " modes for ", units.size(), " units");
  std::int64_t peak = 0;
  for (const Segment &s : segments) {
    const int m =
        static_cast<int>(s.owner >= 0 ? modes[s.owner] : CheckpointMode::full);
    std::int64_t p = s.peak[m];
    for (int u : s.active)
      p += units[u].bytes(modes[u]);
    peak = std::max(peak, p);
  }
  return peak;
}

CheckpointPlan solve_checkpoint_plan(const CheckpointProfile &profile,
                                     std::int64_t budget_bytes,
                                     const PlanOptions &options) {
  TORCH_CHECK(budget_bytes > 0,
              "wrapguard::plan_checkpointing: the budget must be positive, "
              "got ",
              budget_bytes, " bytes");
  TORCH_CHECK(!profile.units.empty(),
              "wrapguard::plan_checkpointing: the profile has no module to "
              "checkpoint");
  const std::size_t n = profile.units.size();
  CheckpointPlan plan;
  plan.options = options.checkpoint_options();
  plan.options.selective(false);
  plan.budget_bytes = budget_bytes;
  plan.min_peak_bytes = profile.predict_peak(
      std::vector<CheckpointMode>(n, CheckpointMode::full));
  plan.plain_peak_bytes = profile.predict_peak(
      std::vector<CheckpointMode>(n, CheckpointMode::plain));
  plan.warnings = profile.warnings;
  TORCH_CHECK(budget_bytes >= plan.min_peak_bytes,
              "wrapguard::plan_checkpointing: no plan fits a budget of ",
              mib(budget_bytes), " (", budget_bytes,
              " bytes): the lowest achievable peak is ",
              mib(plan.min_peak_bytes), " (", plan.min_peak_bytes,
              " bytes), with all ", n,
              " candidate modules fully recomputed; raise the budget to at "
              "least that, or give the step less to hold (a smaller batch)");

  std::vector<CheckpointMode> modes;
  if (!is_chain(profile)) {
    plan.method = PlanMethod::greedy;
    plan.method_reason =
        "the profiled step is not a chain (some module's activations are "
        "not freed in the reverse order of the forward)";
  } else {
    modes = solve_exact(profile, budget_bytes, options, plan.method_reason);
    plan.method = modes.empty() ? PlanMethod::greedy : PlanMethod::exact;
  }
  if (plan.method == PlanMethod::greedy)
    modes = solve_greedy(profile, budget_bytes, options);

  plan.predicted_peak_bytes = profile.predict_peak(modes);
  TORCH_INTERNAL_ASSERT(plan.predicted_peak_bytes <= budget_bytes,
                        "the chosen plan exceeds the budget");
  for (std::size_t u = 0; u < n; ++u) {
    PlanCandidate c = profile.units[u];
    c.mode = modes[u];
    if (c.mode == CheckpointMode::full)
      plan.modules.push_back(c.name);
    else if (c.mode == CheckpointMode::selective)
      plan.selective_modules.push_back(c.name);
    plan.predicted_extra_seconds += c.seconds(c.mode);
    plan.candidates.push_back(std::move(c));
  }
  if (plan.modules.empty() && plan.selective_modules.empty())
    plan.warnings.push_back("the budget holds the plain step (predicted " +
                            mib(plan.plain_peak_bytes) +
                            "), so nothing needs checkpointing");
  return plan;
}

// ---------------------------------------------------------------------------
// plan_checkpointing

CheckpointProfile
profile_checkpointing(const torch::nn::AnyModule &module,
                      const std::vector<Tensor> &sample_inputs,
                      PlanOptions options) {
  TORCH_CHECK(!module.is_empty(), "wrapguard::plan_checkpointing: empty model");
  return profile_impl(module.ptr(), detail::any_module_forward(module),
                      sample_inputs, options);
}

CheckpointProfile
profile_checkpointing(const torch::nn::Sequential &module,
                      const std::vector<Tensor> &sample_inputs,
                      PlanOptions options) {
  TORCH_CHECK(!module.is_empty(), "wrapguard::plan_checkpointing: null model");
  std::shared_ptr<torch::nn::SequentialImpl> seq = module.ptr();
  TensorFn forward = [seq](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{seq->forward(in.at(0))};
  };
  return profile_impl(seq, forward, sample_inputs, options);
}

CheckpointPlan plan_checkpointing(const torch::nn::AnyModule &module,
                                  const std::vector<Tensor> &sample_inputs,
                                  std::int64_t budget_bytes,
                                  PlanOptions options) {
  return solve_checkpoint_plan(
      profile_checkpointing(module, sample_inputs, options), budget_bytes,
      options);
}

CheckpointPlan plan_checkpointing(const torch::nn::Sequential &module,
                                  const std::vector<Tensor> &sample_inputs,
                                  std::int64_t budget_bytes,
                                  PlanOptions options) {
  return solve_checkpoint_plan(
      profile_checkpointing(module, sample_inputs, options), budget_bytes,
      options);
}

CheckpointReport
apply_activation_checkpointing(const std::shared_ptr<torch::nn::Module> &root,
                               const CheckpointPlan &plan) {
  TORCH_CHECK(root, "wrapguard::apply_activation_checkpointing: root is null");
  std::set<std::string> full(plan.modules.begin(), plan.modules.end());
  std::set<std::string> selective(plan.selective_modules.begin(),
                                  plan.selective_modules.end());
  std::set<std::string> all = full;
  all.insert(selective.begin(), selective.end());
  // Every path is checked before anything is wrapped.
  detail::check_module_paths(*root, all, plan.name());
  CheckpointOptions options = plan.options;
  CheckpointReport report = apply_activation_checkpointing(
      root, WrapPolicy::modules(std::move(full), options.selective(false)));
  if (!selective.empty()) {
    CheckpointReport more = apply_activation_checkpointing(
        root,
        WrapPolicy::modules(std::move(selective), options.selective(true)));
    report.modules_visited =
        std::max(report.modules_visited, more.modules_visited);
    for (WrappedModule &w : more.wrapped)
      report.wrapped.push_back(std::move(w));
    // Each walk's own "wrapped no module" warning is not the plan's.
    report.warnings.clear();
  }
  report.policy = plan.name();
  report.warnings.insert(report.warnings.end(), plan.warnings.begin(),
                         plan.warnings.end());
  return report;
}

// ---------------------------------------------------------------------------
// CheckpointPlan

std::string CheckpointPlan::name() const {
  return "MEMORY_BUDGET(" + mib(budget_bytes) + ", " +
         (method == PlanMethod::exact ? "exact" : "greedy") + ")";
}

std::string CheckpointPlan::to_string() const {
  std::ostringstream out;
  out << "plan " << name() << ": " << modules.size() << " full, "
      << selective_modules.size() << " selective of " << candidates.size()
      << " modules; predicted peak " << mib(predicted_peak_bytes) << " (lowest "
      << mib(min_peak_bytes) << ", plain " << mib(plain_peak_bytes)
      << "), predicted extra " << predicted_extra_seconds << " s per step\n";
  if (!method_reason.empty())
    out << "  greedy: " << method_reason << "\n";
  for (const PlanCandidate &c : candidates) {
    out << "  " << mode_name(c.mode) << " " << c.name << " (" << c.type
        << "): plain holds " << mib(c.plain_bytes) << ", full costs "
        << c.full_seconds << " s";
    if (c.selective_profiled)
      out << "; selective holds " << mib(c.selective_bytes) << ", costs "
          << c.selective_seconds << " s";
    out << "\n";
  }
  for (const std::string &w : warnings)
    out << "  warning: " << w << "\n";
  return out.str();
}

std::string CheckpointPlan::to_json() const {
  json out;
  wrapguard::to_json(out, *this);
  return detail::dump_json(out);
}

void to_json(json &out, const CheckpointPlan &plan) {
  json candidates = json::array();
  for (const PlanCandidate &c : plan.candidates)
    candidates.push_back({{"name", c.name},
                          {"type", c.type},
                          {"num_params", c.num_params},
                          {"mode", mode_name(c.mode)},
                          {"plain_bytes", c.plain_bytes},
                          {"selective_bytes", c.selective_bytes},
                          {"full_seconds", c.full_seconds},
                          {"selective_seconds", c.selective_seconds},
                          {"forward_seconds", c.forward_seconds},
                          {"selective_profiled", c.selective_profiled}});
  out = {{"name", plan.name()},
         {"modules", plan.modules},
         {"selective_modules", plan.selective_modules},
         {"budget_bytes", plan.budget_bytes},
         {"predicted_peak_bytes", plan.predicted_peak_bytes},
         {"predicted_extra_seconds", plan.predicted_extra_seconds},
         {"min_peak_bytes", plan.min_peak_bytes},
         {"plain_peak_bytes", plan.plain_peak_bytes},
         {"method", plan.method == PlanMethod::exact ? "exact" : "greedy"},
         {"method_reason", plan.method_reason},
         {"candidates", std::move(candidates)},
         {"warnings", plan.warnings}};
}

} // namespace wrapguard
