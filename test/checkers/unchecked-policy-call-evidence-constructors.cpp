// RUN: %check_wrapguard %s %t

// What a constructor leaves in a callable field is the state at its exit,
// by the flow analysis of its init list and body, over every path. A
// constructor that normalises a null argument sets the field whatever it is
// passed; a construction leaves the field empty only if some path to the
// constructor's exit does. CHECK-NOTES holds every note: none may claim a
// construction leaves a field empty when the constructor sets it.

#include <functional>
#include <utility>

using Pred = std::function<bool(float)>;

struct Config {
  int n = 0;
};

// Normalised in the body.
class Filter {
public:
  Filter(Config c, Pred p = nullptr) : c_(c) {
    p_ = p;
    if (p_ == nullptr)
      p_ = [](float x) { return x > 0; };
  }
  bool keep(float x) const { return p_(x); } // no-warning

private:
  Config c_;
  Pred p_;
};
Filter default_filter() { return Filter(Config{}); }
Filter explicit_filter() { return Filter(Config{}, [](float) { return true; }); }

// Set from the init list, normalised in the body; the test written the
// other way round, with the default in a helper the body calls.
class Gate {
public:
  explicit Gate(Pred p = nullptr) : p_(std::move(p)) {
    if (!p_)
      reset_to_default();
  }
  bool open(float x) const { return p_(x); } // no-warning

private:
  void reset_to_default() { p_ = [](float x) { return x < 1; }; }
  Pred p_;
};
Gate default_gate() { return Gate(); }

// Delegation to a normalising constructor.
class Window {
public:
  Window() : Window(nullptr) {}
  explicit Window(Pred p) {
    if (p)
      p_ = std::move(p);
    else
      p_ = [](float) { return true; };
  }
  bool in(float x) const { return p_(x); } // no-warning

private:
  Pred p_;
};
Window default_window() { return Window(); }

// Normalised on one path only (a mode flag): "set from the argument" would
// claim more than the body does, since Sieve(true) sets it whatever it is
// passed. The constructor's own test of p_ is not evidence either.
class Sieve {
public:
  Sieve(bool strict, Pred p = nullptr) : p_(p) {
    if (strict && !p_)
      p_ = [](float x) { return x != 0; };
  }
  bool pass(float x) const { return p_(x); } // no-warning

private:
  Pred p_;
};
Sieve strict_sieve() { return Sieve(true); }

// True neighbour: the argument is stored as it is, and the only
// construction passes nothing.
class Plain {
public:
  explicit Plain(Pred p = nullptr) : p_(std::move(p)) {}
  bool take(float x) const { return p_(x); }
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: call through possibly empty callable 'p_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:37: note: check that 'p_' is not empty before this call, e.g. 'if (p_)'
  // CHECK-NOTES: :[[@LINE-3]]:37: note: 'Plain::p_' is not set by the only construction of 'Plain' in the project
  // CHECK-NOTES: :[[@LINE-4]]:37: note: 'Plain' is constructed with 'Plain(Pred)', which leaves 'Plain::p_' empty, in 'plain' ({{.*}}.cpp:[[@LINE+5]])

private:
  Pred p_;
};
Plain plain() { return Plain(); }

// A flag the constructor sets, and a chain of branches that each set the
// field or abort (marian's DistModifier: `sampling_ = true;`, then one
// lambda per method and `else ABORT(..)`). At the exit the field is set
// wherever the flag is true, so a call under `if (sampling_)` is guarded,
// though no branch alone sets the field.
[[noreturn]] void fatal_method(int method);
class Sampler {
public:
  explicit Sampler(int method) {
    if (method > 0) {
      sampling_ = true;
      if (method == 1)
        fn_ = [](float x) { return x > 0; };
      else if (method == 2)
        fn_ = [](float x) { return x > 1; };
      else
        fatal_method(method);
    }
  }
  bool sample(float x) const {
    if (sampling_)
      return fn_(x); // no-warning
    return false;
  }

private:
  bool sampling_ = false;
  Pred fn_;
};
Sampler sampler(int m) { return Sampler(m); }

// The same with marian's ABORT, which throws or aborts: a throw that
// nothing in the constructor catches leaves it, and no object is made on
// that path.
bool throw_on_abort();
void stop_program();
#define ABORT_SAMPLING()                                                      \
  do {                                                                         \
    if (throw_on_abort())                                                      \
      throw 1;                                                                 \
    stop_program();                                                            \
    throw 2;                                                                   \
  } while (0)
class ThrowingSampler {
public:
  explicit ThrowingSampler(int method) {
    if (method > 0) {
      sampling_ = true;
      if (method == 1)
        fn_ = [](float x) { return x > 0; };
      else
        ABORT_SAMPLING();
    }
  }
  bool sample(float x) const { return sampling_ ? fn_(x) : false; } // no-warning

private:
  bool sampling_ = false;
  Pred fn_;
};
ThrowingSampler throwing_sampler(int m) { return ThrowingSampler(m); }

// True neighbour: one method sets the flag and leaves the field empty.
class LooseSampler {
public:
  explicit LooseSampler(int method) {
    if (method > 0) {
      sampling_ = true;
      if (method == 1)
        fn_ = [](float x) { return x > 0; };
    }
  }
  bool sample(float x) const {
    if (sampling_)
      return fn_(x);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'fn_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:14: note: check that 'fn_' is not empty before this call, e.g. 'if (fn_)'
    // CHECK-NOTES: :[[@LINE-3]]:14: note: 'LooseSampler::fn_' is not set by the only construction of 'LooseSampler' in the project
    // CHECK-NOTES: :[[@LINE-4]]:14: note: 'LooseSampler' is constructed with 'LooseSampler(int)', which leaves 'LooseSampler::fn_' empty, in 'loose_sampler' ({{.*}}.cpp:[[@LINE+8]])
    return false;
  }

private:
  bool sampling_ = false;
  Pred fn_;
};
LooseSampler loose_sampler(int m) { return LooseSampler(m); }

// A constructor of a derived class that empties a field its base declares
// makes the object so: it is no emptying of a built object (dlib's
// `bound_function_helper_T() { this->fp = 0; }`, whose every maker then
// sets `temp.fp = &function_object;`). And the object a base's method is
// called on may be of the derived class.
static void derived_target() {}
struct HelperBase {
  void (*fp)();
  void call() const {
    (*fp)(); // no-warning
  }
};
struct Helper : HelperBase {
  Helper() { this->fp = 0; }
  bool is_set() const { return this->fp != 0; }
};
void set_and_call() {
  Helper h;
  h.fp = &derived_target;
  h.call();
}

// True neighbour: a derived class's other method empties the field.
struct ResetBase {
  void (*fp)();
  void call() const {
    (*fp)();
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'fp' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:7: note: 'ResetBase::fp' is made empty in 'Resetting::reset' ({{.*}}.cpp:[[@LINE+6]])
    // CHECK-NOTES: :[[@LINE-3]]:7: note: a value from 'ResetBase::fp' is checked for emptiness in 'Resetting::is_set' ({{.*}}.cpp:[[@LINE+6]])
  }
};
struct Resetting : ResetBase {
  Resetting() { this->fp = 0; }
  void reset() { this->fp = 0; }
  bool is_set() const { return this->fp != 0; }
};
void reset_and_call(bool again) {
  Resetting r;
  r.fp = &derived_target;
  if (again)
    r.reset();
  r.call();
}
