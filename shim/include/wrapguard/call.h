//===- call.h - Null-safe calls through policy results ----------*- C++ -*-===//
//
// Null-safe calls through wrap-policy results, with per-site counting.
// Header-only, C++17, no LibTorch: the clang-tidy check's `FixMode: shim`
// rewrites flagged calls to these helpers, and the rewritten files must
// compile with `-I shim/include` alone. The trace is JSON written with
// nlohmann/json (header-only, Debian's nlohmann-json3-dev), the shim's one
// JSON writer.
#ifndef WRAPGUARD_CALL_H
#define WRAPGUARD_CALL_H

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace wrapguard {

/// The shim's JSON value: nlohmann/json with fields kept in insertion order,
/// so objects are written in the order they were built.
using json = nlohmann::ordered_json;

/// One call site of a helper, identified by file, line and function. Counters
/// are atomic so sites can be hit from several threads.
///
/// Example:
/// ```
///   wrapguard::CallSite& s = WRAPGUARD_SITE();
///   std::uint64_t n = s.calls.load();
/// ```
struct CallSite {
  CallSite(std::string file_, int line_, std::string function_)
      : file(std::move(file_)), line(line_), function(std::move(function_)) {}
  const std::string file;
  const int line;
  const std::string function;
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> empty_calls{0};

  /// JSON objects describing what the site's callable wrapped (the shim adds
  /// one per CheckpointWrapper built during a call through the site).
  void add_note(json note) {
    std::lock_guard<std::mutex> lock(notes_mutex_);
    notes_.push_back(std::move(note));
  }
  std::vector<json> notes() const {
    std::lock_guard<std::mutex> lock(notes_mutex_);
    return notes_;
  }

  /// Zeroes the counters and drops the notes. The site itself lives on:
  /// `WRAPGUARD_SITE()` keeps a reference to it for the life of the process.
  void reset() {
    calls.store(0, std::memory_order_relaxed);
    empty_calls.store(0, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(notes_mutex_);
    notes_.clear();
  }

private:
  mutable std::mutex notes_mutex_;
  std::vector<json> notes_;
};

/// A copy of one site's counters, as returned by `call_sites()`.
struct CallSiteSnapshot {
  std::string file;
  int line = 0;
  std::string function;
  std::uint64_t calls = 0;
  std::uint64_t empty_calls = 0;
  std::vector<json> notes;
};

namespace detail {

/// `value` as JSON text on one line: the one place the shim turns JSON into
/// text. Non-ASCII stays UTF-8; each malformed UTF-8 sequence in a string (a
/// Latin-1 file name, say) becomes U+FFFD, so the text is always valid UTF-8
/// JSON and writing never throws for a bad byte.
inline std::string dump_json(const json &value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/false,
                    json::error_handler_t::replace);
}

/// Process-wide registry of call sites and of extra trace records.
class SiteRegistry {
public:
  static SiteRegistry &instance() {
    // Leaked on purpose: the trace is written from an atexit handler, which
    // may run after function-local statics of other TUs are destroyed.
    static SiteRegistry *registry = new SiteRegistry();
    return *registry;
  }

  CallSite &site(const char *file, int line, const char *function) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto key = std::make_tuple(std::string(file), line, std::string(function));
    auto it = sites_.find(key);
    if (it == sites_.end()) {
      it = sites_.emplace(key, std::make_unique<CallSite>(file, line, function))
               .first;
    }
    return *it->second;
  }

  /// The sites called since the start or the last `reset()`.
  std::vector<CallSiteSnapshot> snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<CallSiteSnapshot> out;
    for (const auto &entry : sites_) {
      const CallSite &s = *entry.second;
      const std::uint64_t calls = s.calls.load();
      if (calls == 0)
        continue; // reset and not called since: as if never reached
      out.push_back(
          {s.file, s.line, s.function, calls, s.empty_calls.load(), s.notes()});
    }
    return out;
  }

  /// Zeroes every counter and drops notes and records (tests use this).
  /// Sites are never destroyed: `WRAPGUARD_SITE()` caches a reference to its
  /// site in a function-local static.
  void reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &entry : sites_)
      entry.second->reset();
    records_.clear();
  }

  /// Appends `value` to the top-level array `key` of the trace.
  void add_record(const std::string &key, json value) {
    std::lock_guard<std::mutex> lock(mutex_);
    records_[key].push_back(std::move(value));
  }

  /// The trace: `{"sites":[...], <record key>:[...], ...}`.
  json to_json() const {
    json sites = json::array();
    for (const CallSiteSnapshot &s : snapshot()) {
      json wrapped = json::array();
      for (const json &note : s.notes)
        wrapped.push_back(note);
      sites.push_back({{"file", s.file},
                       {"line", s.line},
                       {"function", s.function},
                       {"calls", s.calls},
                       {"empty_calls", s.empty_calls},
                       {"wrapped", std::move(wrapped)}});
    }
    json out = {{"sites", std::move(sites)}};
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &entry : records_)
      out[entry.first] = entry.second;
    return out;
  }

  bool write_json(const std::string &path) const {
    std::string text = dump_json(to_json()) + "\n";
    std::FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
      return false;
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    return std::fclose(f) == 0 && ok;
  }

private:
  SiteRegistry() = default;
  mutable std::mutex mutex_;
  std::map<std::tuple<std::string, int, std::string>, std::unique_ptr<CallSite>>
      sites_;
  std::map<std::string, std::vector<json>> records_;
};

inline void write_trace_at_exit() {
  if (const char *path = std::getenv("WRAPGUARD_TRACE")) {
    if (*path && !SiteRegistry::instance().write_json(path))
      std::fprintf(stderr, "wrapguard: cannot write trace to '%s'\n", path);
  }
}

inline bool install_trace_hook() {
  const char *path = std::getenv("WRAPGUARD_TRACE");
  if (!path || !*path)
    return false;
  SiteRegistry::instance(); // constructed before the handler is registered
  return std::atexit(write_trace_at_exit) == 0;
}

// Dynamic initialisation of an inline variable happens once per program, so
// the exit hook is installed exactly once, even when no site is ever reached
// (the trace then lists no sites, which the verifier reports as "not reached").
inline const bool trace_hook_installed = install_trace_hook();

/// The site whose callable is running on this thread, if any.
inline CallSite *&current_site() {
  thread_local CallSite *site = nullptr;
  return site;
}

struct CurrentSiteGuard {
  explicit CurrentSiteGuard(CallSite &s) : saved(current_site()) {
    current_site() = &s;
  }
  ~CurrentSiteGuard() { current_site() = saved; }
  CurrentSiteGuard(const CurrentSiteGuard &) = delete;
  CurrentSiteGuard &operator=(const CurrentSiteGuard &) = delete;
  CallSite *saved;
};

/// True when `f` holds no target. Callables with no conversion to bool (a
/// capturing lambda, a functor) are never empty.
template <typename F> bool is_empty_callable(const F &f) {
  if constexpr (std::is_constructible_v<bool, const F &>)
    return !static_cast<bool>(f);
  else
    return false;
}

} // namespace detail

/// Returns `f(m)` when `f` holds a target and `m` otherwise; never throws
/// `std::bad_function_call`. The result has the decayed type of `m`.
///
/// Example:
/// ```
///   // resolve_policy returns an empty std::function for NO_WRAP
///   std::function<Module(Module)> policy = resolve_policy(cfg);
///   Module wrapped = wrapguard::call_or_identity(policy, module);
/// ```
template <typename F, typename M>
std::decay_t<M> call_or_identity(F &&f, M &&m) {
  if (detail::is_empty_callable(f))
    return std::forward<M>(m);
  return std::invoke(std::forward<F>(f), std::forward<M>(m));
}

/// Calls `f(args...)` only when `f` holds a target. Returns true when it
/// called `f` (its result, if any, is discarded) and false when `f` was empty.
///
/// Example:
/// ```
///   std::function<void(Module&)> hook = find_hook(cfg); // may be empty
///   wrapguard::call_if(hook, module);
/// ```
template <typename F, typename... Args> bool call_if(F &&f, Args &&...args) {
  if (detail::is_empty_callable(f))
    return false;
  std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  return true;
}

/// `call_or_identity`, counted at `site`. Prefer the macro
/// `WRAPGUARD_CALL_OR_IDENTITY`, which captures the site.
template <typename F, typename M>
std::decay_t<M> call_or_identity_at(CallSite &site, F &&f, M &&m) {
  site.calls.fetch_add(1, std::memory_order_relaxed);
  if (detail::is_empty_callable(f)) {
    site.empty_calls.fetch_add(1, std::memory_order_relaxed);
    return std::forward<M>(m);
  }
  detail::CurrentSiteGuard guard(site);
  return std::invoke(std::forward<F>(f), std::forward<M>(m));
}

/// `call_if`, counted at `site`. Prefer the macro `WRAPGUARD_CALL_IF`.
template <typename F, typename... Args>
bool call_if_at(CallSite &site, F &&f, Args &&...args) {
  site.calls.fetch_add(1, std::memory_order_relaxed);
  if (detail::is_empty_callable(f)) {
    site.empty_calls.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  detail::CurrentSiteGuard guard(site);
  std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  return true;
}

/// Copies of every site's counters, ordered by file, line and function.
inline std::vector<CallSiteSnapshot> call_sites() {
  return detail::SiteRegistry::instance().snapshot();
}

/// Writes the registry as JSON to `path` now (`WRAPGUARD_TRACE` does it at
/// exit). Returns false when the file cannot be written.
inline bool write_trace(const std::string &path) {
  return detail::SiteRegistry::instance().write_json(path);
}

/// Zeroes every site's counters and drops notes and records (for tests);
/// until a site is called again, `call_sites()` and the trace omit it.
inline void reset_call_sites() { detail::SiteRegistry::instance().reset(); }

} // namespace wrapguard

/// The `CallSite` of the expansion point. The lambda's static caches the
/// registry lookup, so each call costs two relaxed atomic increments.
#define WRAPGUARD_SITE()                                                       \
  ([](const char *wrapguard_fn_) -> ::wrapguard::CallSite & {                  \
    static ::wrapguard::CallSite &wrapguard_site_ =                            \
        ::wrapguard::detail::SiteRegistry::instance().site(__FILE__, __LINE__, \
                                                           wrapguard_fn_);     \
    return wrapguard_site_;                                                    \
  }(__func__))

/// `f(m)` when `f` is non-empty, else `m`; counted per site.
/// Example: `auto w = WRAPGUARD_CALL_OR_IDENTITY(policy, module);`
#define WRAPGUARD_CALL_OR_IDENTITY(f, ...)                                     \
  ::wrapguard::call_or_identity_at(WRAPGUARD_SITE(), f, __VA_ARGS__)

/// Calls `f(args...)` when `f` is non-empty; true when it called. Counted per
/// site. Works with no arguments: `WRAPGUARD_CALL_IF(on_done);`. The callable
/// is the first of the variadic arguments, so the zero-argument form needs no
/// `__VA_OPT__` (which C++17 lacks) and is warning-free under -pedantic.
#define WRAPGUARD_CALL_IF(...)                                                 \
  ::wrapguard::call_if_at(WRAPGUARD_SITE(), __VA_ARGS__)

#endif // WRAPGUARD_CALL_H
