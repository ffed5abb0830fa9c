// RUN: %check_wrapguard %s %t

// Function-template instantiations are analysed; a finding is reported once,
// at its spelling in the template, however many times it is instantiated.

#include <functional>

template <class T> using Fn = std::function<T(T)>;

template <class T> Fn<T> typed_policy();
std::function<int(int)> int_policy();

template <class T> T instantiated_twice(T x) {
  Fn<T> f = typed_policy<T>();
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int use_instantiated_twice() {
  return instantiated_twice(1) + static_cast<int>(instantiated_twice(2.0));
}

template <class T> struct Holder {
  T apply(T x) {
    Fn<T> f = typed_policy<T>();
    return f(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  }
};
int use_holder() { return Holder<int>().apply(1) + Holder<long>().apply(2L); }

template <class T> T empty_in_template(T x) {
  Fn<T> f;
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}
int use_empty_in_template() { return empty_in_template(1) + empty_in_template(2); }

template <int N> int non_type_parameter(int x) {
  std::function<int(int)> f = int_policy();
  return f(x + N);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int use_non_type_parameter() {
  return non_type_parameter<1>(0) + non_type_parameter<2>(0);
}

// Negative cases.

template <class T> T guarded_in_template(T x) {
  Fn<T> f = typed_policy<T>();
  if (!f)
    return x;
  return f(x); // no-warning
}
int use_guarded_in_template() {
  return guarded_in_template(1) + static_cast<int>(guarded_in_template(1.0f));
}

// A template's callable parameter is as set as what its callers pass
// (issue 14): one passes a policy's result, unchecked.
template <class F> int callable_parameter(F f, int x) {
  return f(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
int use_callable_parameter() {
  return callable_parameter(int_policy(), 1) +
         callable_parameter([](int v) { return v; }, 2);
}

template <class T> T never_instantiated(T x) {
  Fn<T> f = typed_policy<T>();
  return f(x); // no-warning
}

template <class T> T specialised(T x) { return x; }
template <> int specialised<int>(int x) {
  std::function<int(int)> f = int_policy();
  if (f)
    return f(x); // no-warning
  return x;
}
int use_specialised() { return specialised(1) + specialised(2L); }
