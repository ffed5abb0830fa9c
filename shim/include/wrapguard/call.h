//===- call.h - Null-safe calls through policy results ----------*- C++ -*-===//
//
// Null-safe calls through wrap-policy results, with per-site counting.
// Header-only, C++17, standard library only: the clang-tidy check's
// `FixMode: shim` rewrites flagged calls to these helpers, and the rewritten
// files must compile with nothing but `-I shim/include` (no LibTorch).
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

namespace wrapguard {

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

  /// Raw JSON objects describing what the site's callable wrapped (the shim
  /// adds one per CheckpointWrapper built during a call through the site).
  void add_note(std::string json_object) {
    std::lock_guard<std::mutex> lock(notes_mutex_);
    notes_.push_back(std::move(json_object));
  }
  std::vector<std::string> notes() const {
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
  std::vector<std::string> notes_;
};

/// A copy of one site's counters, as returned by `call_sites()`.
struct CallSiteSnapshot {
  std::string file;
  int line = 0;
  std::string function;
  std::uint64_t calls = 0;
  std::uint64_t empty_calls = 0;
  std::vector<std::string> notes;
};

namespace detail {

/// Length of the well-formed UTF-8 sequence at `s[i]` (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or 0 when it is not one.
inline std::size_t utf8_sequence_length(const std::string &s, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u;
  };
  const unsigned lead = byte(i);
  std::size_t n = 0;
  unsigned low = 0x80, high = 0xBF; // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    low = lead == 0xE0 ? 0xA0 : 0x80;
    high = lead == 0xED ? 0x9F : 0xBF;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    low = lead == 0xF0 ? 0x90 : 0x80;
    high = lead == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (byte(i + 1) < low || byte(i + 1) > high)
    return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
      return 0;
  return n;
}

/// `s` as the contents of a JSON string (RFC 8259): quotes, backslashes and
/// control characters escaped, well-formed UTF-8 kept as it is, and each byte
/// of a malformed sequence (a Latin-1 file name, say) replaced by U+FFFD, so
/// the document stays valid UTF-8.
inline std::string json_escape(const std::string &s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(s, i);
      out += n ? s.substr(i, n) : "\\ufffd";
      i += n ? n : 1;
      continue;
    }
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
    ++i;
  }
  return out;
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

  /// Appends a raw JSON value to the top-level array `key` of the trace.
  void add_record(const std::string &key, std::string json_value) {
    std::lock_guard<std::mutex> lock(mutex_);
    records_[key].push_back(std::move(json_value));
  }

  std::string to_json() const {
    std::vector<CallSiteSnapshot> sites = snapshot();
    std::string out = "{\"sites\":[";
    for (std::size_t i = 0; i < sites.size(); ++i) {
      const CallSiteSnapshot &s = sites[i];
      out += i ? ",\n" : "\n";
      out += "{\"file\":\"" + json_escape(s.file) +
             "\",\"line\":" + std::to_string(s.line) + ",\"function\":\"" +
             json_escape(s.function) +
             "\",\"calls\":" + std::to_string(s.calls) +
             ",\"empty_calls\":" + std::to_string(s.empty_calls) +
             ",\"wrapped\":[";
      for (std::size_t j = 0; j < s.notes.size(); ++j)
        out += (j ? "," : "") + s.notes[j];
      out += "]}";
    }
    out += "]";
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &entry : records_) {
      out += ",\n\"" + json_escape(entry.first) + "\":[";
      for (std::size_t j = 0; j < entry.second.size(); ++j)
        out += (j ? ",\n" : "") + entry.second[j];
      out += "]";
    }
    out += "}\n";
    return out;
  }

  bool write_json(const std::string &path) const {
    std::string text = to_json();
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
  std::map<std::string, std::vector<std::string>> records_;
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
///   std::function<Module(Module)> policy = resolve_policy(cfg); // may be
///   empty Module wrapped = wrapguard::call_or_identity(policy, module);
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
