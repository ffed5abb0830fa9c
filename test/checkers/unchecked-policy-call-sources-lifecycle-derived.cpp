// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A destructor that calls a callable field set only after construction,
// where the objects are made through classes whose constructors the
// compiler wrote: a derived class's implicit constructor builds the base
// (its construction is the base's, named by the derived class), and a class
// without constructors leaves the field to its aggregate initializer. The
// issue's "member set after construction by a factory and called in a base
// destructor".

#include <functional>
#include <memory>

using Fn = std::function<void()>;

// One kind of buffer is made without its release: its destructor calls an
// empty function.
struct Buffer {
  virtual ~Buffer() { release(); }
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: call through possibly empty callable 'release' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:23: note: 'Buffer::release' is set only after construction, in 'make_buffer' ({{.*}}.cpp:[[@LINE+12]]); the destructor also runs for objects where that never happened
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'Buffer' is constructed with 'HostBuffer()', which leaves 'Buffer::release' empty, in 'make_buffer' ({{.*}}.cpp:[[@LINE+14]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:23: warning: call through possibly empty callable 'release' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:23: note: 'Buffer::release' is set only after construction, in 'make_buffer' ({{.*}}.cpp:[[@LINE+9]]); the destructor also runs for objects where that never happened
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:23: note: 'Buffer' is constructed with 'HostBuffer()', which leaves 'Buffer::release' empty, in 'make_buffer' ({{.*}}.cpp:[[@LINE+11]])
  Fn release;
};
struct DeviceBuffer : Buffer {};
struct HostBuffer : Buffer {};
std::unique_ptr<Buffer> make_buffer(bool device) {
  if (device) {
    auto b = std::make_unique<DeviceBuffer>();
    b->release = [] {};
    return b;
  }
  return std::make_unique<HostBuffer>();
}

// Every kind, two levels down too, gets its release right after it is
// made: no object reaches the destructor empty.
struct Tensor {
  virtual ~Tensor() { release(); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:23: warning: call through possibly empty callable 'release' [wrapguard-unchecked-policy-call]
  Fn release;
};
struct DeviceTensor : Tensor {};
struct PinnedTensor : DeviceTensor {};
std::unique_ptr<Tensor> make_tensor(bool pinned) {
  if (pinned) {
    auto t = std::make_unique<PinnedTensor>();
    t->release = [] {};
    return t;
  }
  auto t = std::make_unique<DeviceTensor>();
  t->release = [] {};
  return t;
}

// A class without constructors, made once with its field and once without.
struct Guard {
  ~Guard() { on_exit(); }
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'on_exit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: 'Guard::on_exit' is set only after construction, in 'make_guard' ({{.*}}.cpp:[[@LINE+10]]); the destructor also runs for objects where that never happened
  // CHECK-NOTES: :[[@LINE-3]]:14: note: 'Guard' is constructed with 'Guard{}', which leaves 'Guard::on_exit' empty, in 'make_guard' ({{.*}}.cpp:[[@LINE+12]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:14: warning: call through possibly empty callable 'on_exit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:14: note: 'Guard::on_exit' is set only after construction, in 'make_guard' ({{.*}}.cpp:[[@LINE+7]]); the destructor also runs for objects where that never happened
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:14: note: 'Guard' is constructed with 'Guard{}', which leaves 'Guard::on_exit' empty, in 'make_guard' ({{.*}}.cpp:[[@LINE+9]])
  Fn on_exit;
};
std::unique_ptr<Guard> make_guard(bool armed) {
  if (armed) {
    auto g = std::make_unique<Guard>();
    g->on_exit = [] {};
    return g;
  }
  return std::make_unique<Guard>();
}

// A class without constructors, made once with its field and once without
// it (the second left so on one path): "set only after construction" would
// be false of the first. The default mode takes that as two modes and
// stays quiet; StrictMode names the construction that leaves it empty, and
// no more.
struct Scope {
  ~Scope() { on_exit(); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: call through possibly empty callable 'on_exit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:14: note: 'Scope' is constructed with 'Scope{}', which leaves 'Scope::on_exit' empty, in 'make_scope' ({{.*}}.cpp:[[@LINE+5]])
  Fn on_exit;
};
void run_scope() { Scope s{[] {}}; }
std::unique_ptr<Scope> make_scope(bool now) {
  auto s = std::make_unique<Scope>();
  if (now)
    s->on_exit = [] {};
  return s;
}

// A class without constructors that the project never makes (a library's
// table of hooks, filled by its clients): its implicit constructor is no
// evidence.
struct Hooks {
  Fn on_step;
};
void fire(Hooks &h) { h.on_step(); } // no-warning
// CHECK-NOTES-STRICT: :[[@LINE-1]]:23: warning: call through possibly empty callable 'h.on_step' [wrapguard-unchecked-policy-call]

// A class without constructors that the project never makes, armed by a
// helper: its clients may give the field its value in the initializer.
struct Deferred {
  ~Deferred() { run(); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:17: warning: call through possibly empty callable 'run' [wrapguard-unchecked-policy-call]
  Fn run;
};
void arm(Deferred &d) { d.run = [] {}; }
