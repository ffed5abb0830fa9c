// RUN: %check_wrapguard %s %t

// What a constructor leaves in a callable field is the state at its exit,
// by the flow analysis of its init list and body, over every path. A
// constructor that normalises a null argument sets the field whatever it is
// passed; a construction leaves the field empty only if some path to the
// constructor's exit does.

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

// True neighbour: normalised on one path only (a mode flag); the only
// construction takes the other path with a null argument.
class Sieve {
public:
  Sieve(bool strict, Pred p = nullptr) : p_(p) {
    if (strict && !p_)
      p_ = [](float x) { return x != 0; };
  }
  bool pass(float x) const { return p_(x); }
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: call through possibly empty callable 'p_' [wrapguard-unchecked-policy-call]

private:
  Pred p_;
};
Sieve lax_sieve() { return Sieve(false); }
