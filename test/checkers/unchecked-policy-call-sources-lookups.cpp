// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=OPTS \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.LookupFunctions: '::Registry::Get', wrapguard-unchecked-policy-call.InvokeMethods: '::Packed::Invoke'}}"

// Lookups and handles: a function that returns a pointer to a callable (or
// a nullable handle) and returns null on some path is a source, also
// through a function-local static. Testing the pointee does not prove the
// pointer. Declarations without a body are named by LookupFunctions;
// handles invoked by a named method, by InvokeMethods or by what the
// method's body does.

#include <functional>
#include <map>
#include <string>

using Fn = std::function<int(int)>;

const Fn *find_op(const std::string &name) {
  static const std::map<std::string, Fn> ops = {
      {"relu", [](int x) { return x > 0 ? x : 0; }}};
  auto it = ops.find(name);
  if (it == ops.end())
    return nullptr;
  return &it->second;
}

int gelu(int x) {
  static const Fn *op = find_op("gelu");
  // Tests the function the pointer points at, not the pointer.
  if (*op != nullptr)
    return (*op)(x);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'op' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-5]]:25: note: 'op' comes from 'find_op', which may return an empty callable
    // CHECK-NOTES-OPTS: :[[@LINE-3]]:14: warning: call through possibly empty callable 'op' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-OPTS: :[[@LINE-7]]:25: note: 'op' comes from 'find_op', which may return an empty callable
  return x;
}

int relu(int x) {
  const Fn *op = find_op("relu");
  if (op)
    return (*op)(x); // no-warning
  return x;
}

// A registry whose lookup is declared here and defined elsewhere.
struct Registry {
  static const Fn *Get(const std::string &name);
};
int from_registry(int x) {
  static const Fn *f = Registry::Get("train.step");
  return (*f)(x);
  // CHECK-NOTES-OPTS: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-OPTS: :[[@LINE-3]]:24: note: 'f' comes from 'Get', which may return an empty callable
}

// A handle invoked through a named method.
class Packed {
public:
  Packed() = default;
  explicit Packed(Fn b) : body_(std::move(b)) {}
  explicit operator bool() const { return static_cast<bool>(body_); }
  int operator()(int x) const { return body_(x); }
  int Invoke(int x) const { return body_ ? body_(x) : x; }
  int CallPacked(int x) const { return body_(x); }

private:
  Fn body_;
};
Packed get_packed(bool have) {
  if (!have)
    return Packed();
  return Packed([](int x) { return x; });
}
int call_named(bool have, int x) {
  Packed p = get_packed(have);
  int a = p.CallPacked(x);
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: 'p' comes from 'get_packed', which may return an empty callable
  // CHECK-NOTES-OPTS: :[[@LINE-3]]:11: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-OPTS: :[[@LINE-5]]:14: note: 'p' comes from 'get_packed', which may return an empty callable
  return a + p.Invoke(x);
  // CHECK-NOTES-OPTS: :[[@LINE-1]]:14: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-OPTS: :[[@LINE-8]]:14: note: 'p' comes from 'get_packed', which may return an empty callable
}
int call_checked(bool have, int x) {
  Packed p = get_packed(have);
  if (!p)
    return x;
  return p.CallPacked(x); // no-warning
}
