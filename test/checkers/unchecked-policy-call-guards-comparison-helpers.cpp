// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=RELEASE -- -DRELEASE_FORM
// Before C++17 the release form copies the wrapper (an elided copy).
// RUN: %check_wrapguard %s %t -check-suffix=RELEASE -- -DRELEASE_FORM -std=c++14

// Check macros that compare two values (glog's and absl's CHECK_EQ and
// CHECK_GE, and their copies in caffe, brpc and others) call a helper that
// returns null when the comparison holds, and loop on a fatal log message
// otherwise. Past the statement the comparison holds: caffe's
//
//   CHECK_EQ(registry.count(type), 1) << "Unknown layer type: " << type;
//   return registry[type](param);
//
// finds the key. The helpers are read from their bodies (ComparisonHelpers.h);
// these macros have the shape of glog's two forms: a pointer result (debug
// builds) and a class wrapping it, whose `operator bool` tests the pointer
// (release builds).

#include <map>
#include <string>

namespace logging {
struct Fatal {
  Fatal(const char *file, int line);
  [[noreturn]] ~Fatal();
  Fatal &stream() { return *this; }
};
template <class T> Fatal &operator<<(Fatal &F, const T &) { return F; }
struct Warning {
  Warning(const char *file, int line);
  ~Warning();
  Warning &stream() { return *this; }
};
template <class T> Warning &operator<<(Warning &W, const T &) { return W; }

template <class T> inline const T &Referenceable(const T &t) { return t; }
inline unsigned long Referenceable(unsigned long t) { return t; }
inline int Referenceable(int t) { return t; }

std::string *Describe(const char *text);

#define DEFINE_COMPARE(name, op)                                               \
  template <class T1, class T2>                                                \
  inline std::string *name##Impl(const T1 &v1, const T2 &v2,                   \
                                 const char *text) {                           \
    if (__builtin_expect(!!(v1 op v2), 1))                                     \
      return nullptr;                                                          \
    else                                                                       \
      return Describe(text);                                                   \
  }                                                                            \
  inline std::string *name##Impl(int v1, int v2, const char *text) {           \
    return name##Impl<int, int>(v1, v2, text);                                 \
  }
DEFINE_COMPARE(Check_EQ, ==)
DEFINE_COMPARE(Check_NE, !=)
DEFINE_COMPARE(Check_GE, >=)
#undef DEFINE_COMPARE

// Not a comparison helper: it never returns null.
template <class T1, class T2>
inline std::string *Always_Impl(const T1 &v1, const T2 &v2, const char *text) {
  if (v1 == v2)
    return Describe(text);
  return Describe(text);
}

// The release form's wrapper: true when the helper found a difference.
struct CheckResult {
  CheckResult(std::string *s) : str(s) {}
  operator bool() const { return __builtin_expect(str != nullptr, 0); }
  std::string *str;
};
// A wrapper whose truth says nothing about the pointer.
struct Opaque {
  Opaque(std::string *s) : str(s) {}
  operator bool() const;
  std::string *str;
};
} // namespace logging

#ifdef RELEASE_FORM
#define CHECK_OP_LOG(name, op, a, b, log)                                      \
  while (logging::CheckResult _result = logging::Check##name##Impl(            \
             logging::Referenceable(a), logging::Referenceable(b), #a #op #b)) \
  log(__FILE__, __LINE__).stream()
#else
#define CHECK_OP_LOG(name, op, a, b, log)                                      \
  while (std::string *_result = logging::Check##name##Impl(                    \
             logging::Referenceable(a), logging::Referenceable(b), #a #op #b)) \
  log(__FILE__, __LINE__).stream()
#endif
#define CHECK_EQ(a, b) CHECK_OP_LOG(_EQ, ==, a, b, logging::Fatal)
#define CHECK_NE(a, b) CHECK_OP_LOG(_NE, !=, a, b, logging::Fatal)
#define CHECK_GE(a, b) CHECK_OP_LOG(_GE, >=, a, b, logging::Fatal)
// Logs and goes on: no guard.
#define WARN_EQ(a, b)                                                          \
  if (std::string *_result = logging::Check_EQImpl(a, b, ""))                  \
  logging::Warning(__FILE__, __LINE__).stream()
#define ALWAYS_EQ(a, b)                                                        \
  while (std::string *_result = logging::Always_Impl(a, b, ""))                \
  logging::Fatal(__FILE__, __LINE__).stream()
#define OPAQUE_EQ(a, b)                                                        \
  while (logging::Opaque _result = logging::Check_EQImpl(a, b, ""))            \
  logging::Fatal(__FILE__, __LINE__).stream()

struct Param {};
using Creator = int (*)(const Param &);
std::map<std::string, Creator> &Registry();

// caffe's LayerRegistry::CreateLayer.
int create_layer(const std::string &type, const Param &p) {
  std::map<std::string, Creator> &registry = Registry();
  CHECK_EQ(registry.count(type), 1) << "Unknown layer type: " << type;
  return registry[type](p); // no-warning
}

int create_at_least_one(const std::string &type, const Param &p) {
  auto &registry = Registry();
  CHECK_GE(registry.count(type), 1);
  return registry[type](p); // no-warning
}

int create_not_absent(const std::string &type, const Param &p) {
  auto &registry = Registry();
  CHECK_NE(registry.count(type), 0);
  return registry[type](p); // no-warning
}

// The (int, int) overload delegates to the template.
int create_int(const std::string &type, const Param &p) {
  auto &registry = Registry();
  CHECK_EQ(static_cast<int>(registry.count(type)), 1);
  return registry[type](p); // no-warning
}

int create_reversed(const std::string &type, const Param &p) {
  auto &registry = Registry();
  CHECK_EQ(1, registry.count(type));
  return registry[type](p); // no-warning
}

// The plain form, a comparison written in the condition.
int create_plain(const std::string &type, const Param &p) {
  auto &registry = Registry();
  while (registry.count(type) != 1)
    logging::Fatal(__FILE__, __LINE__).stream();
  if (registry.count(type) == 1)
    return registry[type](p); // no-warning
  return 0;
}

// A loaded function pointer, compared with null.
Creator find_creator(const char *name) {
  if (!name)
    return nullptr;
  return Registry()[name];
}
int create_found(const char *name, const Param &p) {
  Creator c = find_creator(name);
  CHECK_NE(c, nullptr) << "no creator " << name;
  return c(p); // no-warning
}

// True neighbours.

// The key is absent past this check.
int create_absent(const std::string &type, const Param &p) {
  auto &registry = Registry();
  CHECK_EQ(registry.count(type), 0);
  return registry[type](p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'registry[type]', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through callable 'registry[type]', which is always empty here [wrapguard-unchecked-policy-call]
}

// Another key was checked.
int create_other_key(const std::string &type, const std::string &base,
                     const Param &p) {
  auto &registry = Registry();
  CHECK_EQ(registry.count(base), 1);
  return registry[type](p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
}

// A comparison that is no test of the key.
int create_two(const std::string &type, const Param &p) {
  auto &registry = Registry();
  CHECK_EQ(registry.count(type), 2);
  return registry[type](p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
}

// A warning that goes on: not a check.
int create_warned(const std::string &type, const Param &p) {
  auto &registry = Registry();
  WARN_EQ(registry.count(type), 1);
  return registry[type](p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
}

// A helper whose result is never null says nothing about the comparison.
int create_always(const std::string &type, const Param &p) {
  auto &registry = Registry();
  ALWAYS_EQ(registry.count(type), 1);
  return registry[type](p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
}

// A wrapper whose conversion is not visible says nothing either.
int create_opaque(const std::string &type, const Param &p) {
  auto &registry = Registry();
  OPAQUE_EQ(registry.count(type), 1);
  return registry[type](p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through possibly empty callable 'registry[type]' [wrapguard-unchecked-policy-call]
}

// The loaded pointer compared with something else.
int create_compared_elsewhere(const char *name, Creator fallback,
                              const Param &p) {
  Creator c = find_creator(name);
  CHECK_NE(c, fallback);
  return c(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'c' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-RELEASE: :[[@LINE-2]]:10: warning: call through possibly empty callable 'c' [wrapguard-unchecked-policy-call]
}
