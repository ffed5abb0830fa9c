// RUN: %check_wrapguard %s %t

// A `return nullptr;` that cannot run is no evidence. A function never
// returns when every path through its visible body throws or calls another
// function that never returns; none of these is declared [[noreturn]], and
// no name list is involved. Code after a call to one is dead.

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

using IntFn = std::function<int(int)>;

int identity(int x) { return x; }

// Formats and throws on every path.
void throw_error(const std::string &what, int code) {
  std::ostringstream os;
  os << "error " << code << ": " << what;
  if (code < 0)
    throw std::invalid_argument(os.str());
  throw std::runtime_error(os.str());
}
#define LOG_FATAL(what) throw_error(what, __LINE__)

// Never returns through another function that never returns.
void fail_twice_removed(const char *what) { LOG_FATAL(what); }

// A fatal message object that throws when it dies, glog-style.
struct FatalMessage {
  std::ostringstream os;
  FatalMessage &operator<<(const char *s) {
    os << s;
    return *this;
  }
  ~FatalMessage() noexcept(false) { throw std::runtime_error(os.str()); }
};

// Prints, then aborts: the shape of an ABORT macro.
void abort_with(const char *why) {
  std::fprintf(stderr, "%s\n", why);
  std::abort();
}
#define ABORT(why) abort_with(why)

// Returns when the message is not empty: not a stop.
void warn(const std::string &what) {
  if (what.empty())
    throw std::logic_error("empty warning");
  std::fprintf(stderr, "%s\n", what.c_str());
}

// Catches its own throw and returns: not a stop either.
void swallow(const char *what) {
  try {
    throw std::runtime_error(what);
  } catch (const std::exception &) {
  }
}

IntFn make_policy(int kind) {
  if (kind == 0)
    return identity;
  if (kind == 1)
    return [](int x) { return x + 1; };
  LOG_FATAL("unknown policy kind");
  return nullptr; // Cannot run.
}

IntFn make_policy_transitive(int kind) {
  if (kind == 0)
    return identity;
  fail_twice_removed("unknown policy kind");
  return nullptr; // Cannot run.
}

IntFn make_policy_fatal_object(int kind) {
  if (kind == 0)
    return identity;
  FatalMessage() << "unknown policy kind";
  return nullptr; // Cannot run.
}

int uses_factories(int kind, int x) {
  return make_policy(kind)(x) + make_policy_transitive(kind)(x) +
         make_policy_fatal_object(kind)(x); // no-warning
}

IntFn get_policy();

int after_a_stop_in_the_caller(int x) {
  IntFn f = get_policy();
  if (!f)
    LOG_FATAL("no policy");
  return f(x); // no-warning
}

// The flag and the noreturn macro: every branch that leaves `fn` empty ends.
int flag_and_abort(int mode, int x) {
  bool sampling = false;
  IntFn fn;
  sampling = true;
  if (mode == 0)
    fn = identity;
  else if (mode == 1)
    fn = [](int y) { return y * 2; };
  else
    ABORT("unknown sampling mode");
  if (sampling)
    return fn(x); // no-warning
  return x;
}

// True neighbours: the same shapes where the stop returns after all.

IntFn make_policy_warn(int kind) {
  if (kind == 0)
    return identity;
  warn("unknown policy kind");
  return nullptr;
}

int uses_warn_factory(int kind, int x) {
  return make_policy_warn(kind)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'make_policy_warn(kind)' [wrapguard-unchecked-policy-call]
}

IntFn make_policy_swallow(int kind) {
  if (kind == 0)
    return identity;
  swallow("unknown policy kind");
  return nullptr;
}

int uses_swallow_factory(int kind, int x) {
  return make_policy_swallow(kind)(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'make_policy_swallow(kind)' [wrapguard-unchecked-policy-call]
}

int flag_and_warn(int mode, int x) {
  bool sampling = false;
  IntFn fn;
  sampling = true;
  if (mode == 0)
    fn = identity;
  else
    warn("unknown sampling mode");
  if (sampling)
    return fn(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'fn' [wrapguard-unchecked-policy-call]
  return x;
}

// What code after such a call passes is no evidence either: an assertion
// macro that aborts and then returns a placeholder (corrade's
// CORRADE_ASSERT) passes its `nullptr`s to no one.
using BeginFn = void (*)();
struct Runner {
  explicit Runner(BeginFn begin) { begin(); } // no-warning
};
struct Probe {
  explicit Probe(BeginFn begin) { begin(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: call through possibly empty callable 'begin' [wrapguard-unchecked-policy-call]
};
static void start_clock() {}
bool in_benchmark();
#define CHECKED_OR(cond, placeholder)                                          \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::abort();                                                            \
      return placeholder;                                                      \
    }                                                                          \
  } while (false)
Runner make_runner() {
  CHECKED_OR(in_benchmark(), Runner{nullptr});
  return Runner{start_clock};
}
// True neighbour: the same placeholder after a warning that goes on.
Probe make_probe() {
  if (!in_benchmark()) {
    warn("not in a benchmark");
    return Probe{nullptr};
  }
  return Probe{start_clock};
}
