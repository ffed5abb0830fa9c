// RUN: %check_wrapguard %s %t

// A value-initialised functor object (`Acc()`, `Acc{}`) is a target: a
// std::function made from it, or a function returning it, is never empty.
// Only the standard's nullable types (and callable classes whose constructor
// leaves them empty) are empty when built with no arguments.

#include <functional>
#include <stdexcept>

using Fn = std::function<int(int)>;

struct Acc {
  int operator()(int i) const { return i; }
};
template <typename S> struct Cast {
  int operator()(int i) const { return static_cast<int>(static_cast<S>(i)); }
};

Fn accessor(char kind) {
  switch (kind) {
  case 'c':
    return Cast<char>();
  case 'i':
    return Acc{};
  default:
    throw std::invalid_argument("unsupported kind");
  }
}

int local_from_functor(int x) {
  Fn h = Acc();
  return h(x); // no-warning
}

int from_factory(int x) { return accessor('c')(x); } // no-warning

struct Iterator {
  explicit Iterator(Fn get) : get_(std::move(get)) {}
  int operator*() const { return get_(0); } // no-warning
  Fn get_;
};
Iterator begin() { return Iterator(accessor('i')); }

// True neighbours: the standard's own types, default-constructed.
int local_default(int x) {
  Fn h = Fn();
  return h(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'h', which is always empty here [wrapguard-unchecked-policy-call]
}

Fn none() { return Fn{}; }
int from_empty_factory(int x) {
  return none()(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'none()', which is always empty here [wrapguard-unchecked-policy-call]
}
