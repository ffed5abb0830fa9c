// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// Error paths. Clang's CFG, as the dataflow framework builds it, gives a
// try statement's handlers no predecessor, so a call in a `catch` was never
// analysed (couchbase's transactions call the caller's callback from their
// handlers). Each handler is now analysed from the join of the states where
// its try block may throw: a test around the try statement, or a value
// normalised before anything in the try block may throw, holds there. A
// function whose try block never completes but whose handler does still
// returns.

#include <exception>
#include <functional>
#include <stdexcept>
#include <utility>

using Fn = std::function<void()>;
void work();
[[noreturn]] void fail(const char *);

// A call in a handler, through a parameter that a caller passes empty.
void on_error_param(Fn cb = nullptr) {
  try {
    work();
  } catch (...) {
    cb();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'cb' of 'on_error_param' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+102]])
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:5: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: note: 'cb' of 'on_error_param' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+100]])
  }
}

// A try block that only rethrows: the handlers are its only way out.
void rethrown(Fn cb, std::exception_ptr &&err) {
  try {
    std::rethrow_exception(std::move(err));
  } catch (const std::runtime_error &e) {
    cb();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'cb' of 'rethrown' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+90]])
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:5: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: note: 'cb' of 'rethrown' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+88]])
  } catch (...) {
    cb();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'cb' of 'rethrown' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+84]])
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:5: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: note: 'cb' of 'rethrown' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+82]])
  }
}

// A handler inside a handler.
void nested(Fn cb = nullptr) {
  try {
    work();
  } catch (...) {
    try {
      work();
    } catch (...) {
      cb();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: 'cb' of 'nested' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+69]])
      // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: 'cb' of 'nested' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+67]])
    }
  }
}

// Tested around the try statement: the test holds in the handler.
void guarded_outside(Fn cb = nullptr) {
  if (cb) {
    try {
      work();
    } catch (...) {
      cb();
    }
  }
}

// Tested in the handler.
void guarded_inside(Fn cb = nullptr) {
  try {
    work();
  } catch (const std::exception &e) {
    if (cb)
      cb();
  }
}

// Normalised before the try statement, or at the top of the try block,
// before anything in it may throw.
void normalised_before(Fn cb = nullptr) {
  if (!cb)
    cb = [] {};
  try {
    work();
  } catch (...) {
    cb();
  }
}
void normalised_in_try(Fn cb = nullptr) {
  try {
    if (!cb)
      cb = [] {};
    work();
  } catch (...) {
    cb();
  }
}

// A function whose try block never completes but whose handler does still
// returns: the code after its calls runs.
void swallow() {
  try {
    fail("always");
  } catch (...) {
  }
}
void after_swallow(Fn cb = nullptr) {
  swallow();
  cb();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'cb' of 'after_swallow' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+13]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: note: 'cb' of 'after_swallow' is passed an empty callable in 'callers' ({{.*}}.cpp:[[@LINE+11]])
}

void callers() {
  on_error_param();
  rethrown(nullptr, nullptr);
  nested();
  guarded_outside();
  guarded_inside();
  normalised_before();
  normalised_in_try();
  after_swallow();
}
