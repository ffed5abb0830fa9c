// RUN: %check_wrapguard %s %t

// A field of nullable-callable type is a source when some constructor
// (the implicit default one included) leaves it empty, or when some code
// empties it (nullptr, {}, a default-constructed value, a move out of it).
// A field that every constructor sets and nothing empties is not, even
// when some code tests it.

#include <functional>
#include <utility>

using HookFn = std::function<void(int)>;

// One constructor overload never sets the hook.
struct Layer {
  Layer(int in, int out) : in(in), out(out) {}
  explicit Layer(HookFn h) : grad_hook(std::move(h)) {}
  void backward(int g) {
    grad_hook(g);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'grad_hook' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-DAG: :[[@LINE-2]]:5: note: 'Layer::grad_hook' is not set by the constructor 'Layer(int, int)' ({{.*}}.cpp:16)
  }
  int in = 0, out = 0;
  HookFn grad_hook;
};

// Set by its only constructor, but emptied in reset().
struct Scheduler {
  explicit Scheduler(HookFn f) : on_step(std::move(f)) {}
  void reset() { on_step = nullptr; }
  void step(int i) {
    on_step(i);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'on_step' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-DAG: :[[@LINE-2]]:5: note: 'Scheduler::on_step' is made empty in 'Scheduler::reset' ({{.*}}.cpp:30)
  }
  HookFn on_step;
};

// Moved out of by a method that hands the callback on.
struct Owner {
  explicit Owner(HookFn f) : done(std::move(f)) {}
  HookFn release() { return std::move(done); }
  void finish(int i) {
    done(i);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'done' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-DAG: :[[@LINE-2]]:5: note: 'Owner::done' is made empty in 'Owner::release' ({{.*}}.cpp:42)
  }
  HookFn done;
};

// No constructor at all: an aggregate is judged where it is made. Here the
// only construction in the project leaves it empty.
struct Options {
  HookFn on_epoch;
};
Options default_options() {
  Options o;
  return o;
}
void run_epoch(const Options &o, int epoch) {
  o.on_epoch(epoch);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'o.on_epoch' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-DAG: :[[@LINE-2]]:3: note: 'Options::on_epoch' is not set by the only construction of 'Options' in the project
  // CHECK-NOTES-DAG: :[[@LINE-3]]:3: note: 'Options' is constructed with 'Options{}', which leaves 'Options::on_epoch' empty, in 'default_options' ({{.*}}.cpp:57)
}

// Negative cases.

// Set in every constructor: a mem-initializer, a default member
// initializer, a delegating constructor, an assignment in the body.
struct Model {
  Model() : Model([](int) {}) {}
  explicit Model(HookFn f) : forward_hook(std::move(f)) {}
  Model(int, HookFn f) { forward_hook = std::move(f); }
  Model(Model &&other) : forward_hook(std::move(other.forward_hook)) {}
  void forward(int x) { forward_hook(x); } // no-warning
  // Tested defensively here; that does not make it a source.
  void maybe_forward(int x) {
    if (forward_hook)
      forward_hook(x);
  }
  HookFn forward_hook;
};

struct WithDefault {
  HookFn on_log = [](int) {};
  void log(int x) { on_log(x); } // no-warning
};

// Set in every constructor, copied and moved whole; a move constructor's
// source object is dead by convention.
struct Pipeline {
  explicit Pipeline(HookFn f) : stage(std::move(f)) {}
  Pipeline(Pipeline &&o) : stage(std::move(o.stage)) {}
  void run(int x) { stage(x); } // no-warning
  HookFn stage;
};

void call_through_other_object(Pipeline &p, int x) {
  p.stage(x); // no-warning
}

// Set by a method the constructor calls (LibTorch modules' reset()).
struct Net {
  Net() { reset(); }
  void reset() { head = [](int) {}; }
  void forward(int x) { head(x); } // no-warning
  HookFn head;
};

// Two-phase setup: the constructor leaves it empty, every creator fills it
// in before use.
struct Sink {
  Sink() {}
  HookFn write;
};
void produce(Sink &s) { s.write(1); } // no-warning
void make_sink() {
  Sink s;
  s.write = [](int) {};
  produce(s);
}

// An aggregate always made with its callback.
struct Entry {
  int id;
  HookFn handler;
};
Entry make_entry(HookFn h) { return Entry{1, std::move(h)}; }
void dispatch(const Entry &e) { e.handler(e.id); } // no-warning

// Calls in a lambda made under a guard are not followed into the lambda.
struct Request {
  explicit Request(int) {}
  HookFn progress;
};
HookFn progress_of(Request &r) {
  return r.progress ? HookFn([&r](int i) { r.progress(i); }) : HookFn();
}

// A member of a union is no source: which member holds the value is decided
// by a tag the facts do not see (abseil's FlagHelpMsg: a help text or a
// function that makes one, read by FlagHelpKind). The constructions that
// set the text say nothing of the function.
typedef const char *(*HelpGen)();
union HelpMsg {
  explicit HelpMsg(const char *text) : literal(text) {}
  explicit HelpMsg(HelpGen gen) : gen_func(gen) {}
  const char *literal;
  HelpGen gen_func;
};
enum class HelpKind { Literal, GenFunc };
struct FlagHelp {
  HelpMsg msg;
  HelpKind kind;
  const char *text() const {
    return kind == HelpKind::Literal ? msg.literal : msg.gen_func(); // no-warning
  }
};
FlagHelp literal_help(const char *t) { return {HelpMsg(t), HelpKind::Literal}; }

// Its neighbour: the same members in a struct, whose constructions do say.
struct HelpPair {
  explicit HelpPair(const char *text) : literal(text) {}
  const char *literal = nullptr;
  HelpGen gen_func = nullptr;
  const char *make() const { return gen_func(); }
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: call through possibly empty callable 'gen_func' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:37: note: check that 'gen_func' is not empty before this call, e.g. 'if (gen_func)'
  // CHECK-NOTES: :[[@LINE-3]]:37: note: 'HelpPair::gen_func' is not set by the only construction of 'HelpPair' in the project
  // CHECK-NOTES: :[[@LINE-4]]:37: note: 'HelpPair' is constructed with 'HelpPair(const char *)', which leaves 'HelpPair::gen_func' empty, in 'pair_help' ({{.*}}.cpp:[[@LINE+2]])
};
HelpPair pair_help(const char *t) { return HelpPair(t); }

// A field the function has just assigned holds the assigned value, not what
// the class's constructions left there (AMQP-CPP's `onError`: store the
// callback, and call it at once when the operation already failed).
using ErrorCb = std::function<void(const char *)>;
struct Deferred {
  explicit Deferred(bool failed = false) : failed_(failed) {}
  void report(const char *e) {
    if (on_error_)
      on_error_(e);
  }
  Deferred &onError(ErrorCb &&cb) {
    on_error_ = std::move(cb);
    if (failed_)
      on_error_("failed"); // no-warning
    return *this;
  }
  // Its neighbours: assigned only on some path, the constructions decide;
  // assigned a value some caller passes empty, that caller is the evidence.
  Deferred &onErrorIf(ErrorCb &&cb, bool keep) {
    if (keep)
      on_error_ = std::move(cb);
    if (failed_)
      on_error_("failed");
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'on_error_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'on_error_' is not empty before this call, e.g. 'if (on_error_)'
    // CHECK-NOTES: :[[@LINE-3]]:7: note: 'Deferred' is constructed with 'Deferred(bool)', which leaves 'Deferred::on_error_' empty, in 'failed_deferred' ({{.*}}.cpp:[[@LINE+17]])
    // CHECK-NOTES: :[[@LINE-4]]:7: note: a value from 'Deferred::on_error_' is checked for emptiness in 'Deferred::report' ({{.*}}.cpp:[[@LINE-19]])
    return *this;
  }
  Deferred &onFinal(ErrorCb cb) {
    on_final_ = cb;
    if (failed_)
      on_final_("final");
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'on_final_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'on_final_' is not empty before this call, e.g. 'if (on_final_)'
    // CHECK-NOTES: :[[@LINE-3]]:7: note: 'cb' of 'Deferred::onFinal' is passed an empty callable in 'failed_deferred' ({{.*}}.cpp:[[@LINE+8]])
    return *this;
  }
  bool failed_;
  ErrorCb on_error_, on_final_;
};
Deferred *failed_deferred() {
  Deferred *d = new Deferred(true);
  d->onFinal(nullptr);
  return d;
}

// The project runs the emptyings of Scheduler and Owner (one that nothing runs is no evidence:
// unchecked-policy-call-evidence-uncalled-emptyings.cpp).
void restart(Scheduler &s) { s.reset(); }
HookFn hand_over(Owner &o) { return o.release(); }
