// RUN: %check_wrapguard %s %t

// A construction in the caller's flow leaves the object's callable fields
// as the constructor's body does at its exit (ExitEffects.h), with this
// construction's arguments: `Timer t(nullptr); t.start();` hands start an
// object whose `cb_` is empty, and start calls it on every path. Each class
// below is also constructed with a function, so the constructions alone are
// per mode and decide nothing by default.

#include <functional>
using Cb = void (*)(int);
static void beep(int) {}

class Timer {
public:
  explicit Timer(Cb cb) : cb_(cb) {}
  void start() {
    cb_(1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Timer' is constructed with 'Timer(Cb)', which leaves 'Timer::cb_' empty, in 'run_timer' ({{.*}}.cpp:[[@LINE+11]])
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'Timer::start' is called on an object whose 'Timer::cb_' is empty, in 'run_timer' ({{.*}}.cpp:[[@LINE+11]])
  }
private:
  Cb cb_;
};
void run_timer_set() {
  Timer a(beep);
  a.start();
}
void run_timer() {
  Timer t(nullptr);
  t.start();
}

// Hard negatives: a setter called before, a constructor that normalises its
// argument, outright or by a condition, and a call the method may skip.
class Resettable {
public:
  explicit Resettable(Cb cb) : cb_(cb) {}
  void set(Cb cb) { cb_ = cb; }
  void start() { cb_(1); }
private:
  Cb cb_;
};
void run_resettable_set() { Resettable(beep).start(); }
void run_resettable() {
  Resettable r(nullptr);
  r.set(beep);
  r.start();
}

class Defaulting {
public:
  explicit Defaulting(Cb cb) : cb_(cb) {
    if (!cb_)
      cb_ = beep;
  }
  void start() { cb_(1); }
private:
  Cb cb_;
};
void run_defaulting_set() { Defaulting(beep).start(); }
void run_defaulting() {
  Defaulting d(nullptr);
  d.start();
}

class Ticker {
public:
  explicit Ticker(Cb cb) : cb_(cb) {}
  void tick(int n) {
    if (n > 0)
      cb_(n);
  }
private:
  Cb cb_;
};
void run_ticker_set() { Ticker(beep).tick(1); }
void run_ticker() {
  Ticker t(nullptr);
  t.tick(0);
}

// A call in the constructing function itself: the note names the
// construction.
struct Job {
  explicit Job(std::function<void()> d) : done(std::move(d)) {}
  std::function<void()> done;
};
void run_job() {
  Job j(nullptr);
  j.done();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through callable 'j.done', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'j' is constructed here with 'Job(std::function<void ()>)', which leaves 'done' empty
}
void run_other_job() {
  Job k([] {});
  k.done();
}
struct Guarded {
  explicit Guarded(std::function<void()> d) : done(d ? std::move(d) : [] {}) {}
  std::function<void()> done;
};
void run_guarded() {
  Guarded g(nullptr);
  g.done();
}

// What may set the fields after the construction makes them unknown to the
// flow again: a method it cannot see into, a non-const reference or pointer
// to the object, a lambda that writes it. The call is then no "always
// empty here" (that would be false if `setup` sets the hook); the
// construction stays evidence. A const method changes nothing.
struct Hooks {
  std::function<void(int)> on_step;
  void setup();
  void show() const;
};
void configure(Hooks &h);
void configure_ptr(Hooks *h);
void after_method(int i) {
  Hooks h;
  h.setup();
  h.on_step(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h.on_step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Hooks' is constructed with 'Hooks{}', which leaves 'Hooks::on_step' empty, in 'after_method' ({{.*}}.cpp:[[@LINE-4]])
}
void after_reference(int i) {
  Hooks h;
  configure(h);
  h.on_step(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h.on_step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Hooks' is constructed with 'Hooks{}', which leaves 'Hooks::on_step' empty, in 'after_reference' ({{.*}}.cpp:[[@LINE-4]])
}
void after_pointer(int i) {
  Hooks h;
  configure_ptr(&h);
  h.on_step(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h.on_step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Hooks' is constructed with 'Hooks{}', which leaves 'Hooks::on_step' empty, in 'after_pointer' ({{.*}}.cpp:[[@LINE-4]])
}
void after_lambda(int i) {
  Hooks h;
  auto set_up = [&] { configure(h); };
  set_up();
  h.on_step(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h.on_step' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Hooks' is constructed with 'Hooks{}', which leaves 'Hooks::on_step' empty, in 'after_lambda' ({{.*}}.cpp:[[@LINE-5]])
}
void after_const(int i) {
  Hooks h;
  h.show();
  h.on_step(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through callable 'h.on_step', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-4]]:9: note: 'h' is constructed here with 'Hooks()', which leaves 'on_step' empty
}
