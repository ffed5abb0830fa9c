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

// A method that returns a reference to a member of its object denotes that
// member of the object it is called on (cpprestsdk's
// `if (m_config.get_ssl_context_callback())
// m_config.get_ssl_context_callback()(*ctx);`).
class Config {
public:
  const Cb &on_ready() const { return m_on_ready; }
  void set_on_ready(Cb cb) { m_on_ready = std::move(cb); }
  void clear() { m_on_ready = nullptr; }

private:
  Cb m_on_ready;
};

void start(const Config &config) {
  if (config.on_ready())
    config.on_ready()("ready"); // no-warning
}

// True neighbours: another object's member, and the member emptied between
// the test and the call.
void start_other(const Config &a, const Config &b) {
  if (a.on_ready())
    b.on_ready()("ready");
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'b.on_ready()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'b.on_ready()' is not empty before this call, e.g. 'if (b.on_ready())'
  // CHECK-NOTES: :[[@LINE-3]]:5: note: a value from 'Config::on_ready' is checked for emptiness in 'start' ({{.*}}.cpp:[[@LINE-11]])
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:5: warning: call through possibly empty callable 'b.on_ready()' [wrapguard-unchecked-policy-call]
}

void start_cleared(Config &config) {
  if (config.on_ready()) {
    config.clear();
    config.on_ready()("ready");
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through callable 'config.on_ready()', which is always empty here [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'config.on_ready()' is not empty before this call, e.g. 'if (config.on_ready())'
    // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:5: warning: call through callable 'config.on_ready()', which is always empty here [wrapguard-unchecked-policy-call]
  }
}
