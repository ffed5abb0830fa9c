// RUN: %check_wrapguard %s %t

// An assertion is not belief. Code that tests a value and ends the process
// when it is empty (`assert(h)`, a CHECK macro that aborts, a call to a
// non-throwing function that never returns) states that the value is never
// empty there; it is no evidence that an untested call elsewhere may find it
// empty (imgui's `IM_ASSERT(loader->FontBakedLoadGlyph != NULL)` before the
// loaders are used unguarded). A test that throws is still belief: a caller
// may catch the exception and go on, so that code handles an empty value.

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

using Hook = int (*)(int);

// The sources: declarations only, so only tests elsewhere can decide them.
Hook find_hook(const char *name);
Hook find_step(const char *name);
Hook find_filter(const char *name);
Hook find_reader(const char *name);
Hook find_writer(const char *name);
Hook find_loader(const char *name);

#define MY_ASSERT(x) assert(x)
#define MY_CHECK(x)                                                            \
  do {                                                                         \
    if (!(x))                                                                  \
      std::abort();                                                            \
  } while (0)

[[noreturn]] void die(const char *why) noexcept;
// A project's own fatal error: no exception specification, a body that aborts.
[[noreturn]] void fatal(const char *why) {
  std::fputs(why, stderr);
  std::abort();
}
// A function that never returns because it throws.
[[noreturn]] void raise_error(const char *why) { throw std::runtime_error(why); }

// Hard negatives: every test of these sources is an assertion.
int install(const char *n) {
  Hook h = find_hook(n);
  MY_ASSERT(h != nullptr && "hooks must be registered first");
  return h(1);
}
int use_hook(const char *n) {
  return find_hook(n)(2); // no-warning
}

int step_checked(const char *n) {
  Hook h = find_step(n);
  MY_CHECK(h);
  return h(1);
}
int step(const char *n) {
  return find_step(n)(2); // no-warning
}

int filter_checked(const char *n) {
  Hook h = find_filter(n);
  if (!h)
    die("no filter");
  return h(1);
}
int filter(const char *n) {
  return find_filter(n)(2); // no-warning
}

Hook find_codec(const char *name);
int codec_checked(const char *n) {
  Hook h = find_codec(n);
  if (!h)
    fatal("no codec");
  return h(1);
}
int codec(const char *n) {
  return find_codec(n)(2); // no-warning
}

// True neighbours. A test that throws is belief, through a function too.
Hook find_sink(const char *name);
int sink_checked(const char *n) {
  Hook h = find_sink(n);
  if (!h)
    raise_error("no sink");
  return h(1);
}
int sink(const char *n) {
  return find_sink(n)(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'find_sink(n)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'find_sink(n)' is not empty before this call, e.g. 'if (find_sink(n))'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: a value from 'find_sink' is checked for emptiness in 'sink_checked' ({{.*}}.cpp:[[@LINE-8]])
}

int read_checked(const char *n) {
  Hook h = find_reader(n);
  if (!h)
    throw std::runtime_error("no reader");
  return h(1);
}
int read(const char *n) {
  return find_reader(n)(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'find_reader(n)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'find_reader(n)' is not empty before this call, e.g. 'if (find_reader(n))'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: a value from 'find_reader' is checked for emptiness in 'read_checked' ({{.*}}.cpp:[[@LINE-8]])
}

// A test that handles the empty value (returns) is belief.
int write_checked(const char *n) {
  Hook h = find_writer(n);
  if (!h)
    return 0;
  return h(1);
}
int write(const char *n) {
  return find_writer(n)(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'find_writer(n)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'find_writer(n)' is not empty before this call, e.g. 'if (find_writer(n))'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: a value from 'find_writer' is checked for emptiness in 'write_checked' ({{.*}}.cpp:[[@LINE-8]])
}

// An assertion first and a real test after it: the note names the test, not
// the assertion.
int load_asserted(const char *n) {
  Hook h = find_loader(n);
  assert(h);
  return h(1);
}
int load_checked(const char *n) {
  Hook h = find_loader(n);
  return h ? h(1) : 0;
}
int load(const char *n) {
  return find_loader(n)(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'find_loader(n)' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'find_loader(n)' is not empty before this call, e.g. 'if (find_loader(n))'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: a value from 'find_loader' is checked for emptiness in 'load_checked' ({{.*}}.cpp:[[@LINE-6]])
}

// A class the project never constructs (its users make the objects), whose
// constructor leaves a field empty: an assertion where the objects come in
// says that whoever makes one sets it (imgui's `AddContextHook` asserts the
// hook's callback), so that constructor is no evidence.
struct ContextHook {
  ContextHook() { std::memset(this, 0, sizeof(*this)); }
  int type;
  Hook callback;
};
struct HookList {
  ContextHook *items;
  int n;
};
void add_hook(HookList &l, const ContextHook *h) {
  assert(h->callback != nullptr);
  l.items[l.n++] = *h;
}
void call_hooks(HookList &l) {
  for (int i = 0; i < l.n; ++i)
    l.items[i].callback(i); // no-warning
}

// True neighbour: the same, with no assertion.
struct TimerHook {
  TimerHook() { std::memset(this, 0, sizeof(*this)); }
  int period;
  Hook callback;
};
struct TimerList {
  TimerHook *items;
  int n;
};
void add_timer(TimerList &l, const TimerHook *h) { l.items[l.n++] = *h; }
void call_timers(TimerList &l) {
  for (int i = 0; i < l.n; ++i)
    l.items[i].callback(i);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'l.items[i].callback' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'l.items[i].callback' is not empty before this call, e.g. 'if (l.items[i].callback)'
  // CHECK-NOTES: :[[@LINE-3]]:5: note: 'TimerHook::callback' is not set by the constructor 'TimerHook()' ({{.*}}.cpp:[[@LINE-14]])
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
