// RUN: %check_wrapguard %s %t

// A lambda that captures a callable by reference reads it when it runs, not
// when it is made: the recursive-lambda idiom (`f = [&f] { ... f(); };`)
// assigns f before anything calls it. A copy is judged at the capture.

#include <functional>
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
