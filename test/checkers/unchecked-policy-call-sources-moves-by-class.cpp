// RUN: %check_wrapguard %s %t

// A move leaves the source empty where the move that runs does, read from
// the class's definition: std::function and the smart pointers are empty
// once moved from, and so is a class whose defaulted move moves such a
// field. A class of raw pointers with an implicit move copies them, and a
// class with only a copy constructor copies: the source still holds what
// it held, and the move is no evidence that it is empty.

#include <functional>
#include <memory>
#include <utility>

struct Impl {
  int run(int x) { return x; }
};

// Hard negative: the implicit move copies the raw pointer.
struct RawHandle {
  Impl *impl_ = nullptr;
  RawHandle() = default;
  explicit RawHandle(Impl *p) : impl_(p) {}
  explicit operator bool() const { return impl_ != nullptr; }
  int operator()(int x) const { return impl_->run(x); }
};
int raw_moved(Impl *p) {
  RawHandle h(p);
  RawHandle other(std::move(h));
  return h(1) + other(2); // no-warning
}
int raw_move_assigned(Impl *p) {
  RawHandle h(p), other;
  other = std::move(h);
  return h(1) + other(2); // no-warning
}
int raw_moved_into_function(Impl *p) {
  RawHandle h(p);
  std::function<int(int)> f(std::move(h));
  return h(1) + f(2); // no-warning
}

// Hard negative: only a copy constructor, so the move copies.
struct Shared {
  std::shared_ptr<Impl> impl_;
  explicit Shared(std::shared_ptr<Impl> p) : impl_(std::move(p)) {}
  Shared(const Shared &o) : impl_(o.impl_) {}
  explicit operator bool() const { return impl_ != nullptr; }
  int operator()(int x) const { return impl_->run(x); }
};
int copy_moved(std::shared_ptr<Impl> p) {
  Shared h(p);
  Shared other(std::move(h));
  return h(1) + other(2); // no-warning
}

// True neighbour: the defaulted move moves the shared_ptr, which leaves it
// null.
struct Owning {
  std::shared_ptr<Impl> impl_;
  explicit Owning(std::shared_ptr<Impl> p) : impl_(std::move(p)) {}
  Owning(Owning &&) = default;
  Owning &operator=(Owning &&) = default;
  explicit operator bool() const { return impl_ != nullptr; }
  int operator()(int x) const { return impl_->run(x); }
};
int owning_moved(std::shared_ptr<Impl> p) {
  Owning h(p);
  Owning other(std::move(h));
  return h(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'h' is moved from here
}

// True neighbour: a move constructor of its own, which empties the source.
struct Stealing {
  Impl *impl_ = nullptr;
  explicit Stealing(Impl *p) : impl_(p) {}
  Stealing(Stealing &&o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
  explicit operator bool() const { return impl_ != nullptr; }
  int operator()(int x) const { return impl_->run(x); }
};
int stealing_moved(Impl *p) {
  Stealing h(p);
  Stealing other(std::move(h));
  return h(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:18: note: 'h' is moved from here
}

// True neighbour: std::function itself.
int function_moved(std::function<int(int)> f) {
  std::function<int(int)> g = f;
  std::function<int(int)> other(std::move(g));
  return g(1) + other(2);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:33: note: 'g' is moved from here
}
