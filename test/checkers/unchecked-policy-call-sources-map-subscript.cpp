// RUN: %check_wrapguard %s %t -- -std=c++20

// operator[] of a std::map or std::unordered_map of callables inserts an
// empty callable when the key is missing, so the value it returns is a source
// unless the key is known to be present on that path: find(k) != end(),
// count(k), contains(k), at(k), an insertion, or an early exit on absence.

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <stdexcept>
#include <vector>
using IntFn = std::function<int(int)>;
std::map<std::string, IntFn> registry;
int unchecked(const std::string &name, int x) {
  return registry[name](x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[name]' [wrapguard-unchecked-policy-call]
}
int via_local(const std::string &name, int x) {
  IntFn f = registry[name];
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int count_guard(const std::string &name, int x) {
  if (registry.count(name))
    return registry[name](x); // no-warning
  return x;
}
int contains_exit(std::unordered_map<std::string, IntFn> &m, const std::string &name, int x) {
  if (!m.contains(name))
    throw std::runtime_error("no");
  return m[name](x); // no-warning
}
int find_guard(const std::string &name, int x) {
  auto it = registry.find(name);
  if (it == registry.end())
    return x;
  return registry[name](x); // no-warning
}
int find_inline(const std::string &name, int x) {
  if (registry.find(name) != registry.end())
    return registry[name](x); // no-warning
  return x;
}
int at_first(const std::string &name, int x) {
  registry.at(name);
  return registry[name](x); // no-warning
}
int inserted(const std::string &name, int x) {
  registry.emplace(name, [](int v) { return v; });
  return registry[name](x); // no-warning
}
int inserted_pair(const std::string &name, int x) {
  registry.insert({name, [](int v) { return v; }});
  return registry[name](x); // no-warning
}

int count_gt(const std::string &name, int x) {
  if (registry.count(name) > 0)
    return registry[name](x); // no-warning
  return x;
}
int other_key(const std::string &a, const std::string &b, int x) {
  if (registry.count(a))
    return registry[b](x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'registry[b]' [wrapguard-unchecked-policy-call]
  return x;
}

int erased_again(const std::string &name, int x) {
  if (!registry.count(name))
    return x;
  registry.erase(name);
  return registry[name](x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'registry[name]', which is always empty here [wrapguard-unchecked-policy-call]
}

// Checked on one path only: when !fast the key may be missing here.
int checked_on_one_path(bool fast, const std::string &name, int x) {
  if (fast && registry.count(name))
    x = registry[name](x); // no-warning
  return registry[name](x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[name]' [wrapguard-unchecked-policy-call]
}

// A lookup inserts the key, so a second one finds it.
int looked_up_twice(const std::string &name, int x) {
  if (registry.count(name) == 0)
    return x;
  int y = registry[name](x); // no-warning
  return registry[name](y); // no-warning
}

int vector_of_callables_is_not_a_map(std::vector<IntFn> &v, int x) {
  return v[0](x); // no-warning
}

// Negative cases.
