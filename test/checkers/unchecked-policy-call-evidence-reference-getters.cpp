// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A function that returns a reference hands out storage: it never "returns
// an empty callable", whatever the storage was initialised with, because
// anyone may assign through it (`sink() = cb;`). Every call of it denotes
// the same storage, so a test of `sink()` guards a call through `sink()`.
// CHECK-NOTES holds every note of the default mode: none may say that
// `sink` returns an empty callable.

#include <cstdio>
#include <functional>
#include <utility>

using Cb = std::function<void(const char *)>;

struct Log {
  static Cb &sink() {
    static thread_local Cb cb = nullptr;
    return cb;
  }
};

void set_sink(Cb cb) { Log::sink() = std::move(cb); }

void log_message(const char *msg) {
  if (Log::sink() == nullptr) {
    std::fputs(msg, stderr);
  } else {
    Log::sink()(msg); // no-warning
  }
}

void log_if_set(const char *msg) {
  if (Log::sink())
    Log::sink()(msg); // no-warning
}

// A global behind a getter, tested through the getter.
Cb on_error;
Cb &error_handler() { return on_error; }

void report(const char *msg) {
  if (!error_handler())
    return;
  error_handler()(msg); // no-warning
}

// True neighbour: unguarded while its siblings test the same storage (the
// seed's story), reported without claiming that the getter returns empty.
void log_unguarded(const char *msg) {
  Log::sink()(msg);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'Log::sink()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'Log::sink()' is not empty before this call, e.g. 'if (Log::sink())'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: a value from 'Log::sink' is checked for emptiness in 'log_message' ({{.*}}.cpp:28)
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:3: warning: call through possibly empty callable 'Log::sink()' [wrapguard-unchecked-policy-call]
}

// A getter that returns a copy of an empty static does
// return empty, and says so.
Cb sink_copy() {
  static Cb cb;
  return cb;
}

void log_copy(const char *msg) {
  sink_copy()(msg);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through callable 'sink_copy()', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'sink_copy()' is not empty before this call, e.g. 'if (sink_copy())'
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:3: warning: call through callable 'sink_copy()', which is always empty here [wrapguard-unchecked-policy-call]
}
