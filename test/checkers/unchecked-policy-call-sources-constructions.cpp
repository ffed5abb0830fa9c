// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// Constructions: what the project constructs decides a field. A field that
// no construction in the project sets (and nothing sets afterwards) is
// reported, naming the constructions. A field set by some constructions and
// left empty by others is per mode: reported only with more evidence (a
// test elsewhere, or a construction in the calling function), or under
// StrictMode.

#include <functional>
#include <memory>
#include <vector>

using Fn = std::function<void(int)>;
struct ConvP {};
struct DeconvP {};

// tiny-dnn's shape: one constructor per mode, each setting the callables
// its mode's methods use; backward_activation is set by a constructor the
// project never calls.
struct Backend {
  Backend(ConvP *, Fn pad, Fn unpad) : pad_in(pad), unpad_delta(unpad) {}
  Backend(DeconvP *, Fn out, Fn delta) : unpad_out(out), pad_delta(delta) {}
  Backend(DeconvP *, Fn out, Fn delta, Fn act)
      : unpad_out(out), pad_delta(delta), backward_activation(act) {}
  void conv(int x) {
    pad_in(x);      // per mode: StrictMode only
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'pad_in' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: note: 'Backend' is constructed with 'Backend(DeconvP *, Fn, Fn)', which leaves 'Backend::pad_in' empty, in 'DeconvLayer::init' ({{.*}}.cpp:68)
    unpad_delta(x); // per mode: StrictMode only
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'unpad_delta' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: note: 'Backend' is constructed with 'Backend(DeconvP *, Fn, Fn)', which leaves 'Backend::unpad_delta' empty, in 'DeconvLayer::init' ({{.*}}.cpp:68)
  }
  void deconv(int x) {
    unpad_out(x); // per mode: StrictMode only
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'unpad_out' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: note: 'Backend' is constructed with 'Backend(ConvP *, Fn, Fn)', which leaves 'Backend::unpad_out' empty, in 'ConvLayer::init' ({{.*}}.cpp:62)
    pad_delta(x); // per mode: StrictMode only
    // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'pad_delta' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-2]]:5: note: 'Backend' is constructed with 'Backend(ConvP *, Fn, Fn)', which leaves 'Backend::pad_delta' empty, in 'ConvLayer::init' ({{.*}}.cpp:62)
  }
  void deconv_back(int x) {
    backward_activation(x);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'backward_activation' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Backend::backward_activation' is set by none of the 2 constructions of 'Backend' in the project
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'Backend' is constructed with 'Backend(ConvP *, Fn, Fn)', which leaves 'Backend::backward_activation' empty, in 'ConvLayer::init' ({{.*}}.cpp:62)
    // CHECK-NOTES: :[[@LINE-4]]:5: note: 'Backend' is constructed with 'Backend(DeconvP *, Fn, Fn)', which leaves 'Backend::backward_activation' empty, in 'DeconvLayer::init' ({{.*}}.cpp:68)
    // CHECK-NOTES-STRICT: :[[@LINE-5]]:5: warning: call through possibly empty callable 'backward_activation' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-6]]:5: note: 'Backend::backward_activation' is set by none of the 2 constructions of 'Backend' in the project
    // CHECK-NOTES-STRICT: :[[@LINE-7]]:5: note: 'Backend' is constructed with 'Backend(ConvP *, Fn, Fn)', which leaves 'Backend::backward_activation' empty, in 'ConvLayer::init' ({{.*}}.cpp:62)
    // CHECK-NOTES-STRICT: :[[@LINE-8]]:5: note: 'Backend' is constructed with 'Backend(DeconvP *, Fn, Fn)', which leaves 'Backend::backward_activation' empty, in 'DeconvLayer::init' ({{.*}}.cpp:68)
  }
  Fn pad_in, unpad_delta, unpad_out, pad_delta, backward_activation;
};

struct ConvLayer {
  ConvP p;
  std::shared_ptr<Backend> b;
  void init() {
    b = std::make_shared<Backend>(&p, [](int) {}, [](int) {});
  }
};
struct DeconvLayer {
  DeconvP p;
  std::unique_ptr<Backend> b;
  void init() { b.reset(new Backend(&p, [](int) {}, [](int) {})); }
};

// A construction in the calling function decides: this object's hook was
// left empty right here, as the constructor's exit says (ExitEffects.h).
struct Worker {
  Worker() {}
  explicit Worker(Fn f) : on_done(std::move(f)) {}
  Fn on_done;
};
void make_workers() {
  Worker a([](int) {});
  a.on_done(1); // no-warning: this construction sets it, in both modes
  // (the flow analysis applies the constructor's effect here).
  Worker b;
  b.on_done(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through callable 'b.on_done', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'b' is constructed here with 'Worker()', which leaves 'on_done' empty
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:3: warning: call through callable 'b.on_done', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:10: note: 'b' is constructed here with 'Worker()', which leaves 'on_done' empty
  auto c = std::make_unique<Worker>();
  c->on_done(3);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'c->on_done' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'c->on_done' is not empty before this call, e.g. 'if (c->on_done)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'Worker' is constructed with 'Worker()', which leaves 'Worker::on_done' empty, in 'make_workers' ({{.*}}.cpp:88)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:3: warning: call through possibly empty callable 'c->on_done' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:3: note: check that 'c->on_done' is not empty before this call, e.g. 'if (c->on_done)'
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:3: note: 'Worker' is constructed with 'Worker()', which leaves 'Worker::on_done' empty, in 'make_workers' ({{.*}}.cpp:88)
}

// Per mode, with belief: another function tests the field, so the calls
// that do not are findings.
struct Sampler {
  Sampler() = default;
  explicit Sampler(Fn f) : cb(std::move(f)) {}
  void step(int i) { cb(i); }
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: 'Sampler' is constructed with 'Sampler()', which leaves 'Sampler::cb' empty, in 'without_cb' ({{.*}}.cpp:117)
  // CHECK-NOTES: :[[@LINE-3]]:22: note: a value from 'Sampler::cb' is checked for emptiness in 'Sampler::maybe' ({{.*}}.cpp:111)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:22: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:22: note: 'Sampler' is constructed with 'Sampler()', which leaves 'Sampler::cb' empty, in 'without_cb' ({{.*}}.cpp:117)
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:22: note: a value from 'Sampler::cb' is checked for emptiness in 'Sampler::maybe' ({{.*}}.cpp:111)
  void maybe(int i) {
    if (cb)
      cb(i);
  }
  Fn cb;
};
Sampler with_cb() { return Sampler([](int) {}); }
Sampler without_cb() { return Sampler(); }

// A field set from a constructor parameter is as set as the argument.
struct Hooked {
  explicit Hooked(Fn h) : hook(std::move(h)) {}
  void fire(int x) { hook(x); }
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: call through possibly empty callable 'hook' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: 'Hooked::hook' is not set by the only construction of 'Hooked' in the project
  // CHECK-NOTES: :[[@LINE-3]]:22: note: 'Hooked' is constructed with 'Hooked(Fn)', which leaves 'Hooked::hook' empty, in 'hooked_empty' ({{.*}}.cpp:131)
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:22: warning: call through possibly empty callable 'hook' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:22: note: 'Hooked::hook' is not set by the only construction of 'Hooked' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:22: note: 'Hooked' is constructed with 'Hooked(Fn)', which leaves 'Hooked::hook' empty, in 'hooked_empty' ({{.*}}.cpp:131)
  Fn hook;
};
Hooked hooked_empty() { return Hooked(nullptr); }

// Negative: every construction sets it, by any means.
struct Always {
  explicit Always(Fn f) : f(std::move(f)) {}
  void run(int x) { f(x); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:21: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  Fn f;
};
std::vector<Always> all_set() {
  std::vector<Always> v;
  v.emplace_back([](int) {});
  v.push_back(Always([](int) {}));
  return v;
}

// Aggregates are constructions too.
struct Options {
  Fn on_epoch;
  int epochs = 1;
};
void epoch_loop(const Options &o) { o.on_epoch(0); }
// CHECK-NOTES-STRICT: :[[@LINE-1]]:37: warning: call through possibly empty callable 'o.on_epoch' [wrapguard-unchecked-policy-call]
// CHECK-NOTES-STRICT: :[[@LINE-2]]:37: note: 'Options' is constructed with 'Options{}', which leaves 'Options::on_epoch' empty, in 'opts_default' ({{.*}}.cpp:156)
Options opts_with() { return Options{[](int) {}, 2}; }
Options opts_default() { return Options{}; }

// A conditional argument is judged arm by arm, where each arm is read: the
// test in the condition proves `std::move(r)` set, so this construction
// sets the field (workflow's upstream policies). StrictMode reports every
// call through a field that no guard proves set.
unsigned default_route(int);
struct Route {
  explicit Route(std::function<unsigned(int)> r) : route(std::move(r)) {}
  unsigned pick(int k) { return route(k); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:33: warning: call through possibly empty callable 'route' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:33: note: check that 'route' is not empty before this call, e.g. 'if (route)'
  std::function<unsigned(int)> route;
};
Route *make_route(std::function<unsigned(int)> r) {
  return new Route(r ? std::move(r) : default_route);
}

// Its neighbour: one arm is empty, so the construction may leave it empty.
struct Backup {
  explicit Backup(std::function<unsigned(int)> r) : route(std::move(r)) {}
  unsigned pick(int k) { return route(k); }
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: call through possibly empty callable 'route' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:33: note: check that 'route' is not empty before this call, e.g. 'if (route)'
  // CHECK-NOTES: :[[@LINE-3]]:33: note: 'Backup::route' is not set by the only construction of 'Backup' in the project
  // CHECK-NOTES: :[[@LINE-4]]:33: note: 'Backup' is constructed with 'Backup(std::function<unsigned int (int)>)', which leaves 'Backup::route' empty, in 'make_backup' ({{.*}}.cpp:[[@LINE+8]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:33: warning: call through possibly empty callable 'route' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:33: note: check that 'route' is not empty before this call, e.g. 'if (route)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:33: note: 'Backup::route' is not set by the only construction of 'Backup' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:33: note: 'Backup' is constructed with 'Backup(std::function<unsigned int (int)>)', which leaves 'Backup::route' empty, in 'make_backup' ({{.*}}.cpp:[[@LINE+4]])
  std::function<unsigned(int)> route;
};
Backup *make_backup(bool enabled, std::function<unsigned(int)> r) {
  return new Backup(enabled ? std::move(r) : nullptr);
}
