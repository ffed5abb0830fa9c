// RUN: %check_wrapguard %s %t

// A member written only under `if constexpr` is set in some specializations
// of a class template and not in others. Each specialization is a class of
// its own: its constructions decide its fields, and the notes name it with
// its arguments. `Op<true>()` sets `bwd`; it says nothing of `Op<false>`,
// and `Op<false>()` says nothing of `Op<true>` (CHECK-NOTES pins every
// note: none may count one specialization's construction for another).

#include <functional>

template <bool HasBackward> struct Op {
  std::function<void()> fwd, bwd;
  Op() {
    fwd = [] {};
    if constexpr (HasBackward)
      bwd = [] {};
  }
  void forward() { fwd(); } // no-warning
  void backward() { bwd(); }
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: call through possibly empty callable 'bwd' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: 'Op<false>::bwd' is not set by the only construction of 'Op<false>' in the project
  // CHECK-NOTES: :[[@LINE-3]]:21: note: 'Op<false>' is constructed with 'Op()', which leaves 'Op<false>::bwd' empty, in 'train_frozen' ({{.*}}.cpp:[[@LINE+9]])
};

void train_full() {
  Op<true> op;
  op.forward();
  op.backward();
}
void train_frozen() {
  Op<false> op;
  op.forward();
  op.backward();
}

// Hard negative: only the specialization that sets it is constructed and
// called.
template <bool HasBackward> struct Layer {
  std::function<void()> bwd;
  Layer() {
    if constexpr (HasBackward)
      bwd = [] {};
  }
  void backward() { bwd(); } // no-warning
};
void train_layer() {
  Layer<true> l;
  l.backward();
}
