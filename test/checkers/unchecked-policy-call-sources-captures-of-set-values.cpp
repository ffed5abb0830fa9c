// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// Captures of values the enclosing function proved set. A reference capture
// reads the variable when the lambda runs; where the lambda is made under a
// test of it and nothing in the function writes the variable after its
// initialisation, it holds the tested value whenever the lambda runs
// (sobjectizer's `if (const auto &handler = m_params.closed_handler())
// invoke_noexcept_code([&handler, this] { handler(..); });`). An
// init-capture of a field (`[old = m_completion]`) holds the field's value
// where the lambda is made, under its test as for a variable. A variable
// written after the lambda is made, or by the lambda, and a value captured
// untested, stay as they were.

#include <functional>
#include <utility>

using H = std::function<void(int)>;
H get();
const H &get_ref();
void run(const std::function<void()> &f);

void by_reference(int x) {
  H h = get();
  if (h)
    run([&h, x] { h(x); });
}
void by_reference_binding(int x) {
  if (const H &h = get_ref())
    run([&h, x] { h(x); });
}

void written_after(int x) {
  H h = get();
  if (h)
    run([&h, x] { h(x); });
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:11: note: 'h' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES: :[[@LINE-3]]:11: note: a value from 'get' is checked for emptiness in 'by_reference' ({{.*}}.cpp:[[@LINE-14]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:19: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:11: note: 'h' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:11: note: a value from 'get' is checked for emptiness in 'by_reference' ({{.*}}.cpp:[[@LINE-17]])
  h = nullptr;
}
void written_by_the_lambda(int x) {
  H h = get();
  if (h)
    run([&h, x] { h(x); h = nullptr; });
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:11: note: 'h' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES: :[[@LINE-3]]:11: note: a value from 'get' is checked for emptiness in 'by_reference' ({{.*}}.cpp:[[@LINE-26]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:19: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:11: note: 'h' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:11: note: a value from 'get' is checked for emptiness in 'by_reference' ({{.*}}.cpp:[[@LINE-29]])
}
void untested(int x) {
  H h = get();
  run([&h, x] { h(x); });
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:9: note: 'h' is captured here by reference, and may be empty when the lambda runs
  // CHECK-NOTES: :[[@LINE-3]]:9: note: a value from 'get' is checked for emptiness in 'by_reference' ({{.*}}.cpp:[[@LINE-36]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:17: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:9: note: 'h' is captured here by reference, and may be empty when the lambda runs
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:9: note: a value from 'get' is checked for emptiness in 'by_reference' ({{.*}}.cpp:[[@LINE-39]])
}

// sobjectizer's trigger: a second handler is joined to the first, which
// the else branch proves set.
struct Trigger {
  void add(H fn) {
    if (!m_done)
      m_done = std::move(fn);
    else {
      H joined = [old = m_done, next = std::move(fn)](int x) {
        old(x);
        next(x);
        // CHECK-NOTES-STRICT: :[[@LINE-1]]:9: warning: call through possibly empty callable 'next' [wrapguard-unchecked-policy-call]
        // CHECK-NOTES-STRICT: :[[@LINE-4]]:33: note: 'next' is captured here, where it may be empty
      };
      m_done = std::move(joined);
    }
  }
  void add_untested(H fn) {
    H joined = [old = m_done](int x) { old(x); };
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:40: warning: call through possibly empty callable 'old' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:17: note: 'old' is captured here, where it may be empty
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:17: note: 'Trigger' is constructed with 'Trigger{}', which leaves 'Trigger::m_done' empty, in 'use' ({{.*}}.cpp:[[@LINE+7]])
    m_done = std::move(joined);
  }
  H m_done;
};

void use() {
  Trigger t;
  t.add([](int) {});
  t.add_untested([](int) {});
}

// A lambda kept in a local and handed whole to a thread (KataGo's
// `AsyncBot::internalSearchThreadLoop`: `const bool usingCallbackLoop = (..)
// && analyzeCallbackLocal;`, the loop lambda capturing
// `&analyzeCallbackLocal`, then `if (usingCallbackLoop) callbackLoopThread =
// std::thread(callbackLoop);`): a variable nothing writes after its
// initialisation holds, when the lambda runs, the value it had where the
// lambda was handed on. Handed on without a test, or with the variable
// emptied after the hand-off, the finding stays.
#include <thread>

struct Search {};
struct AsyncBot {
  std::function<void(const Search *)> analyzeCallback;
  Search *search = nullptr;
  void genMove() { analyzeCallback = nullptr; }
  void searchLoop(double period);
  void searchLoopUntested();
  void searchLoopEmptiedAfter();
};
void AsyncBot::searchLoop(double period) {
  std::function<void(const Search *)> analyzeCallbackLocal = analyzeCallback;
  const bool usingCallbackLoop = period >= 0 && analyzeCallbackLocal;
  auto callbackLoop = [this, &analyzeCallbackLocal]() {
    analyzeCallbackLocal(search); // no-warning
  };
  std::thread callbackLoopThread;
  if (usingCallbackLoop)
    callbackLoopThread = std::thread(callbackLoop);
  if (usingCallbackLoop)
    callbackLoopThread.join();
}
void AsyncBot::searchLoopUntested() {
  std::function<void(const Search *)> analyzeCallbackLocal = analyzeCallback;
  auto callbackLoop = [this, &analyzeCallbackLocal]() {
    analyzeCallbackLocal(search);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'analyzeCallbackLocal' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: 'analyzeCallbackLocal' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES: :[[@LINE-4]]:31: note: a value from 'AsyncBot::analyzeCallback' is checked for emptiness in 'AsyncBot::searchLoop' ({{.*}}.cpp:[[@LINE-16]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: warning: call through possibly empty callable 'analyzeCallbackLocal' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:31: note: 'analyzeCallbackLocal' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES-STRICT: :[[@LINE-7]]:31: note: 'AsyncBot::analyzeCallback' is made empty in 'AsyncBot::genMove' ({{.*}}.cpp:[[@LINE-26]])
  };
  std::thread callbackLoopThread(callbackLoop);
  callbackLoopThread.join();
}
void AsyncBot::searchLoopEmptiedAfter() {
  std::function<void(const Search *)> analyzeCallbackLocal = analyzeCallback;
  auto callbackLoop = [this, &analyzeCallbackLocal]() {
    analyzeCallbackLocal(search);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'analyzeCallbackLocal' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-3]]:31: note: 'analyzeCallbackLocal' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES: :[[@LINE-4]]:31: note: a value from 'AsyncBot::analyzeCallback' is checked for emptiness in 'AsyncBot::searchLoop' ({{.*}}.cpp:[[@LINE-30]])
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: warning: call through possibly empty callable 'analyzeCallbackLocal' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:31: note: 'analyzeCallbackLocal' is captured here by reference, and may be empty when the lambda runs
    // CHECK-NOTES-STRICT: :[[@LINE-7]]:31: note: 'AsyncBot::analyzeCallback' is made empty in 'AsyncBot::genMove' ({{.*}}.cpp:[[@LINE-40]])
  };
  std::thread callbackLoopThread;
  if (analyzeCallbackLocal)
    callbackLoopThread = std::thread(callbackLoop);
  analyzeCallbackLocal = nullptr;
  callbackLoopThread.join();
}
