// RUN: %check_wrapguard %s %t

// A lambda that captures a callable by reference reads it when it runs, not
// when it is made: the recursive-lambda idiom (`f = [&f] { ... f(); };`)
// assigns f before anything calls it. A copy is judged at the capture. And
// a lambda that writes a reference capture changes it where it may run:
// handed to a call, or called (below).

#include <functional>
#include <memory>
#include <string>
#include <vector>

void walk(const std::vector<int> &children, std::vector<int> &out) {
  std::function<void(int)> visit;
  visit = [&visit, &children, &out](int node) {
    out.push_back(node);
    if (node * 2 < static_cast<int>(children.size()))
      visit(children[node * 2]); // no-warning
  };
  visit(0);
}

// True neighbour: a copy of the still-empty callable.
void walk_copy(std::vector<int> &out) {
  std::function<void(int)> visit;
  auto step = [visit, &out](int node) {
    out.push_back(node);
    visit(node + 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'visit' [wrapguard-unchecked-policy-call]
  };
  visit = step;
  step(0);
}

// A lambda handed to a call may run there, or later from where the callee
// keeps it; a lambda called here runs here. What it writes through its
// reference captures is unknown afterwards (pistache's test: the promise's
// constructor runs the lambda, which stores the rejection callback).
struct Rejection {
  void operator()(int) {}
};
template <class T> struct Promise {
  template <class F> explicit Promise(F f) {
    Rejection r;
    f(r);
  }
};
void chain_rejects() {
  std::unique_ptr<Rejection> rejecter;
  Promise<int> promise([&](Rejection &reject) {
    rejecter = std::make_unique<Rejection>(std::move(reject));
  });
  (*rejecter)(1); // no-warning
}
void set_then_call() {
  std::function<void()> f;
  auto set = [&] { f = [] {}; };
  set();
  f(); // no-warning
}
void handed_on(void (*run)(const std::function<void()> &)) {
  std::function<void()> f;
  std::function<void()> set = [&] { f = [] {}; };
  run(set);
  f(); // no-warning
}

// True neighbours: a lambda that only reads the capture, and one that is
// never run or handed on.
void reads_only(void (*run)(const std::function<void()> &)) {
  std::function<void()> f;
  run([&] {
    if (f)
      f();
  });
  f();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}
void never_runs() {
  std::function<void()> f;
  auto set = [&] { f = [] {}; };
  f();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}
