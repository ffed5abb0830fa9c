// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A global callable (or a static member) is a source, as a field is: what
// the project assigns it decides, not its name nor its initializer. A
// setter whose caller passes null, an emptying with nothing that sets it
// again, and a move out of it are evidence; a setter that replaces null
// with a default, a reset followed elsewhere by a set, and a global only
// initialised are not. liblouis's table resolver: the library calls
// `(*tableResolver)(..)` unguarded, and `lou_registerTableResolver(NULL)`
// stores the null its embedder passes.

#include <functional>
#include <utility>
#include <vector>

using Fn = std::function<void()>;

// A C-style hook whose setter stores what it is given, and a caller that
// resets it with null.
typedef char **(*resolver_fn)(const char *);
char **default_resolver(const char *);
static resolver_fn g_resolver = &default_resolver;
void register_resolver(resolver_fn r) { g_resolver = r; }
char **resolve(const char *name) {
  return (*g_resolver)(name);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'g_resolver' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: check that 'g_resolver' is not empty before this call, e.g. 'if (g_resolver)'
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'g_resolver' is assigned a value from 'r' in 'register_resolver' ({{.*}}.cpp:[[@LINE-5]])
  // CHECK-NOTES: :[[@LINE-4]]:12: note: 'r' of 'register_resolver' is passed an empty callable in 'reset_resolver' ({{.*}}.cpp:[[@LINE+6]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:12: warning: call through possibly empty callable 'g_resolver' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:12: note: check that 'g_resolver' is not empty before this call, e.g. 'if (g_resolver)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:12: note: 'g_resolver' is assigned a value from 'r' in 'register_resolver' ({{.*}}.cpp:[[@LINE-9]])
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:12: note: 'r' of 'register_resolver' is passed an empty callable in 'reset_resolver' ({{.*}}.cpp:[[@LINE+2]])
}
void reset_resolver() { register_resolver(nullptr); }

// A setter that replaces null with a default: the callers' null never
// reaches the global.
typedef void (*log_fn)(const char *);
void default_log(const char *);
static log_fn g_logger = &default_log;
void register_logger(log_fn f) {
  if (f == nullptr)
    g_logger = &default_log;
  else
    g_logger = f;
}
void log_message(const char *m) {
  g_logger(m); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_logger' [wrapguard-unchecked-policy-call]
}
void quiet_logger() { register_logger(nullptr); }

// A setter whose callers all pass a function.
static Fn g_on_tick;
void set_on_tick(Fn f) { g_on_tick = std::move(f); }
void tick() {
  g_on_tick(); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_on_tick' [wrapguard-unchecked-policy-call]
}
void install_tick() { set_on_tick([] {}); }

// A global only initialised, empty: some registration the project does not
// show may come first.
Fn g_unregistered;
void fire_unregistered() {
  g_unregistered(); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_unregistered' [wrapguard-unchecked-policy-call]
}

// Emptied, and nothing sets it again: once disabled, the next call fails.
Fn g_on_exit = [] {};
void disable_exit_hook() { g_on_exit = nullptr; }
void at_exit() {
  g_on_exit();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_on_exit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'g_on_exit' is made empty in 'disable_exit_hook' ({{.*}}.cpp:[[@LINE-4]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'g_on_exit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: note: 'g_on_exit' is made empty in 'disable_exit_hook' ({{.*}}.cpp:[[@LINE-6]])
}

// Moved out of: empty until assigned again.
Fn g_pending = [] {};
void flush(std::vector<Fn> &queue) { Fn job = std::move(g_pending); queue.push_back(job); }
void run_pending() {
  g_pending();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_pending' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'g_pending' is made empty in 'flush' ({{.*}}.cpp:[[@LINE-4]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'g_pending' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: note: 'g_pending' is made empty in 'flush' ({{.*}}.cpp:[[@LINE-6]])
}

// A reset between phases, with a set elsewhere and no test anywhere: one
// phase of a lifecycle, as for a field. With a test elsewhere (the seed's
// story), the emptying counts.
Fn g_phase;
void begin_phase() { g_phase = [] {}; }
void end_phase() { g_phase = nullptr; }
void step_phase() {
  g_phase(); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_phase' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:3: note: 'g_phase' is made empty in 'end_phase' ({{.*}}.cpp:[[@LINE-4]])
}
Fn g_stage;
void begin_stage() { g_stage = [] {}; }
void end_stage() { g_stage = nullptr; }
void maybe_stage() {
  if (g_stage)
    g_stage();
}
void step_stage() {
  g_stage();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'g_stage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'g_stage' is made empty in 'end_stage' ({{.*}}.cpp:[[@LINE-8]])
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'g_stage' is checked for emptiness in 'maybe_stage' ({{.*}}.cpp:[[@LINE-7]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: warning: call through possibly empty callable 'g_stage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:3: note: 'g_stage' is made empty in 'end_stage' ({{.*}}.cpp:[[@LINE-11]])
}

// A static member, through a setter that a caller gives null.
struct Hooks {
  static Fn on_error;
};
Fn Hooks::on_error = [] {};
void set_on_error(Fn f) { Hooks::on_error = f; }
void fail() {
  Hooks::on_error();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'Hooks::on_error' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Hooks::on_error' is assigned a value from 'f' in 'set_on_error' ({{.*}}.cpp:[[@LINE-4]])
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'f' of 'set_on_error' is passed an empty callable in 'clear_on_error' ({{.*}}.cpp:[[@LINE+5]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: warning: call through possibly empty callable 'Hooks::on_error' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:3: note: 'Hooks::on_error' is assigned a value from 'f' in 'set_on_error' ({{.*}}.cpp:[[@LINE-7]])
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:3: note: 'f' of 'set_on_error' is passed an empty callable in 'clear_on_error' ({{.*}}.cpp:[[@LINE+2]])
}
void clear_on_error() { set_on_error(nullptr); }

// Each specialization of a class template has its own static member:
// emptying Slot<0>'s says nothing of Slot<1>'s.
template <int N> struct Slot {
  static Fn fn;
};
template <int N> Fn Slot<N>::fn = [] {};
void clear_slot_zero() { Slot<0>::fn = nullptr; }
void fire_slot_one() {
  Slot<1>::fn(); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'Slot<1>::fn' [wrapguard-unchecked-policy-call]
}
