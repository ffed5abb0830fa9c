// RUN: %check_wrapguard %s %t

// Member lifecycle: when a member is set decides where it can be empty.

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

using Fn = std::function<void()>;

// Set only after construction, by a factory's two-phase set-up, on every
// path right after the object is made: no object reaches its destructor
// with the member empty.
class Resource {
public:
  Resource() {}
  ~Resource() { release(); } // no-warning
  static std::unique_ptr<Resource> create();
  static Resource *create_raw(bool named);
  Fn release;
};
std::unique_ptr<Resource> Resource::create() {
  auto r = std::make_unique<Resource>();
  r->release = [] {};
  return r;
}
Resource *Resource::create_raw(bool named) {
  Resource *r = new Resource;
  if (named)
    r->release = [] {};
  else
    r->release = [] {};
  return r;
}

// The same set-up, where one construction is not followed by the set on
// every path (an early return between the two): the destructor runs for
// objects that never got it.
bool ready();
class Handle {
public:
  Handle() {}
  ~Handle() { close(); }
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: call through possibly empty callable 'close' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 'Handle::close' is set only after construction, in 'Handle::open' ({{.*}}.cpp:[[@LINE+9]]); the destructor also runs for objects where that never happened
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'Handle' is constructed with 'Handle()', which leaves 'Handle::close' empty, in 'Handle::open' ({{.*}}.cpp:[[@LINE+5]])
  static std::unique_ptr<Handle> open();
  Fn close;
};
std::unique_ptr<Handle> Handle::open() {
  auto h = std::make_unique<Handle>();
  if (!ready())
    return h;
  h->close = [] {};
  return h;
}

// A use of the object before the set (handed to code that may destroy it
// or call through the member) leaves the construction as it was.
void adopt(class Socket *s);
class Socket {
public:
  Socket() {}
  ~Socket() { on_close(); }
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: call through possibly empty callable 'on_close' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: 'Socket::on_close' is set only after construction, in 'make_socket' ({{.*}}.cpp:[[@LINE+7]]); the destructor also runs for objects where that never happened
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'Socket' is constructed with 'Socket()', which leaves 'Socket::on_close' empty, in 'make_socket' ({{.*}}.cpp:[[@LINE+4]])
  Fn on_close;
};
Socket *make_socket() {
  Socket *s = new Socket();
  adopt(s);
  s->on_close = [] {};
  return s;
}

// Emptied anywhere in the project, by any spelling.
struct Channel {
  Channel() : on_close([] {}), on_open([] {}), on_data([] {}) {}
  void close() { on_close(); }
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: call through possibly empty callable 'on_close' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:18: note: 'Channel::on_close' is made empty in 'shutdown' ({{.*}}.cpp:[[@LINE+9]])
  void open() { on_open(); }
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: call through possibly empty callable 'on_open' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:17: note: 'Channel::on_open' is made empty in 'rewire' ({{.*}}.cpp:[[@LINE+7]])
  void data() { on_data(); }
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: call through possibly empty callable 'on_data' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:17: note: 'Channel::on_data' is made empty in 'steal' ({{.*}}.cpp:[[@LINE+5]])
  Fn on_close, on_open, on_data;
};
void shutdown(Channel &c) { c.on_close = {}; }
void rewire(Channel *c) { c->on_open = Fn(); }
Fn steal(Channel &c) { return std::move(c.on_data); }

// Reached through a handle: the same member.
struct Node {
  Node() : visit([] {}) {}
  Fn visit;
};
struct NodeRef {
  Node *operator->() const { return n; }
  Node *get() const { return n; }
  Node *n;
};
void reset_node(NodeRef r) { r->visit = nullptr; }
void walk(NodeRef r) {
  r->visit();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'r->visit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'r->visit' is not empty before this call, e.g. 'if (r->visit)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'Node::visit' is made empty in 'reset_node' ({{.*}}.cpp:[[@LINE-5]])
  r.get()->visit();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'r.get()->visit' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'r.get()->visit' is not empty before this call, e.g. 'if (r.get()->visit)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'Node::visit' is made empty in 'reset_node' ({{.*}}.cpp:[[@LINE-9]])
}

// Set in the constructor body, by any means: never a source.
struct Holder {
  Holder() {
    owned.reset(new Fn([] {}));
    made = std::make_unique<Fn>([] {});
    maybe.emplace([] {});
    Fn local = [] {};
    swapped.swap(local);
  }
  void run() {
    (*owned)();   // no-warning
    (*made)();    // no-warning
    (*maybe)();   // no-warning
    swapped();    // no-warning
  }
  std::unique_ptr<Fn> owned, made;
  std::optional<Fn> maybe;
  Fn swapped;
};
Holder make_holder() { return Holder(); }

// Class invariants: set under a condition kept in a member nothing changes
// afterwards, and called under the same condition.
class Sampler {
public:
  Sampler(bool use, Fn cb) : use_cb_(use) {
    if (use_cb_)
      cb_ = std::move(cb);
  }
  void step() {
    if (use_cb_)
      cb_(); // no-warning
  }
  void step_unguarded() { cb_(); }
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:27: note: 'Sampler::cb_' is set by the constructor 'Sampler(bool, Fn)' only when 'use_cb_' holds ({{.*}}.cpp:[[@LINE-10]])
private:
  const bool use_cb_;
  Fn cb_;
};

enum class Mode { Train, Eval };
class Loop {
public:
  explicit Loop(Mode m) : mode_(m) {
    if (mode_ == Mode::Train)
      on_batch_ = [] {};
  }
  void batch() {
    if (mode_ != Mode::Train)
      return;
    on_batch_(); // no-warning
  }
private:
  Mode mode_;
  Fn on_batch_;
};

// A flag set on exactly the branches that set the callable.
class Reporter {
public:
  explicit Reporter(int level) {
    if (level > 0) {
      sink_ = [] {};
      has_sink_ = true;
    }
  }
  void report() {
    if (!has_sink_)
      return;
    sink_(); // no-warning
  }
private:
  bool has_sink_ = false;
  Fn sink_;
};

// The same condition, in a member that a method changes later: no
// invariant, so the guarded call is not cleared.
class Phase {
public:
  explicit Phase(Mode m) : mode_(m) {
    if (mode_ == Mode::Train)
      on_batch_ = [] {};
  }
  void set_mode(Mode m) { mode_ = m; }
  void batch() {
    if (mode_ == Mode::Train)
      on_batch_();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'on_batch_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'on_batch_' is not empty before this call, e.g. 'if (on_batch_)'
      // CHECK-NOTES: :[[@LINE-3]]:7: note: 'Phase::on_batch_' is set by the constructor 'Phase(Mode)' only when 'mode_ == Mode::Train' holds ({{.*}}.cpp:[[@LINE-10]])
  }
private:
  Mode mode_;
  Fn on_batch_;
};

// Set only after construction, called while constructing.
class Plugin {
public:
  Plugin() { log_(); }
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through callable 'log_', which is always empty here [wrapguard-unchecked-policy-call]
  static Plugin *load() {
    Plugin *p = new Plugin();
    p->log_ = [] {};
    return p;
  }
  Fn log_;
};


// An empty value its own constructor assigns is what that constructor
// leaves, not an emptying of an object already built (bullet's parallel
// dispatcher: `Updater() { mCallback = NULL; }`, then `u.mCallback =
// getNearCallback();` before the loop that calls it).
typedef void (*NearCb)(int);
NearCb near_callback();
struct Updater {
  Updater() { cb = nullptr; }
  void run() const { cb(1); } // no-warning
  NearCb cb;
};
void dispatch() {
  Updater u;
  u.cb = near_callback();
  u.run();
}

// Its neighbour: a method that empties the member of a built object, which
// the project also tests.
struct Relay {
  Relay() { cb = nullptr; }
  void run() const { cb(1); }
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: call through possibly empty callable 'cb' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: 'Relay::cb' is made empty in 'Relay::stop' ({{.*}}.cpp:[[@LINE+2]])
  // CHECK-NOTES: :[[@LINE-3]]:22: note: a value from 'Relay::cb' is checked for emptiness in 'relay_if_set' ({{.*}}.cpp:[[@LINE+10]])
  void stop() { cb = nullptr; }
  NearCb cb;
};
void relay() {
  Relay r;
  r.cb = near_callback();
  r.run();
}
void relay_if_set(const Relay &r) {
  if (r.cb)
    r.cb(2);
}
void halt(Relay &r) { r.stop(); }

// A reset for reuse that empties the member, which is set again from outside
// before each use and tested nowhere (brpc's Controller::ResetPods, and the
// channel that sets `_pack_request` before every IssueRPC): one phase of a
// lifecycle, no evidence in the default mode. A member that nothing sets
// again after it is emptied stays empty (Scheduler in
// unchecked-policy-call-sources-fields.cpp).
struct Call {
  Call() { reset(); }
  void reset() { pack = nullptr; }
  void issue() const { pack(1); } // no-warning
  NearCb pack;
};
void send(Call &c) {
  c.pack = near_callback();
  c.issue();
  c.reset();
}

// A function-local static filled on the lines after it is made: only its
// function names it, and the first call sets it before returning it
// (imgui's font loaders). A member it never sets is still left empty.
typedef bool (*GlyphFn)(int);
bool has_glyph(int);
struct FontLoader {
  FontLoader() { contains = nullptr; load = nullptr; }
  GlyphFn contains;
  GlyphFn load;
};
const FontLoader *stb_loader() {
  static FontLoader loader;
  loader.contains = has_glyph;
  return &loader;
}
bool glyph(const FontLoader *l, int c) {
  if (!l->contains(c)) // no-warning
    return false;
  return l->load(c);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'l->load' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'l->load' is not empty before this call, e.g. 'if (l->load)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'FontLoader::load' is not set by the only construction of 'FontLoader' in the project
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'FontLoader' is constructed with 'FontLoader()', which leaves 'FontLoader::load' empty, in 'stb_loader' ({{.*}}.cpp:[[@LINE-11]])
}

// A global of internal linkage that every function naming it fills through a
// pointer before handing it out (imgui's FreeType loader): that construction
// leaves nothing empty. A member no function sets is still left empty.
struct Codec {
  Codec() { encode = nullptr; flush = nullptr; }
  GlyphFn encode;
  GlyphFn flush;
};
static Codec g_codec;
const Codec *get_codec() {
  Codec *c = &g_codec;
  c->encode = has_glyph;
  return c;
}
bool encode_checked(const Codec *c, int x) { return c->encode && c->encode(x); }
bool encode_flush(const Codec *c, int x) {
  if (!c->encode(x)) // no-warning
    return false;
  return c->flush(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'c->flush' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'c->flush' is not empty before this call, e.g. 'if (c->flush)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'Codec::flush' is not set by the only construction of 'Codec' in the project
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'Codec' is constructed with 'Codec()', which leaves 'Codec::flush' empty, in 'g_codec' ({{.*}}.cpp:[[@LINE-14]])
}

// True neighbour: another function calls through the global's member
// directly, maybe before any pointer to it was filled.
struct RawCodec {
  RawCodec() { encode = nullptr; }
  GlyphFn encode;
};
static RawCodec g_raw;
const RawCodec *get_raw() {
  RawCodec *c = &g_raw;
  c->encode = has_glyph;
  return c;
}
bool raw_direct(int x) { return g_raw.encode && g_raw.encode(x); }
bool raw_encode(const RawCodec *c, int x) {
  return c->encode(x);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'c->encode' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'c->encode' is not empty before this call, e.g. 'if (c->encode)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'RawCodec' is constructed with 'RawCodec()', which leaves 'RawCodec::encode' empty, in 'g_raw' ({{.*}}.cpp:[[@LINE-11]])
  // CHECK-NOTES: :[[@LINE-4]]:10: note: a value from 'RawCodec::encode' is checked for emptiness in 'raw_direct' ({{.*}}.cpp:[[@LINE-6]])
}

// A construction that sets the field from a value of another source, whose
// only evidence is a test of it, may leave the field empty: the notes say
// so, and name that test (brpc's AtExitManager: `stack_.push({func, param})`
// after `DCHECK(func)`), never that it "leaves it empty".
typedef void (*ExitFn)(void *);
struct ExitTask {
  ExitFn func;
  void *param;
};
std::vector<ExitTask> exit_tasks;
void log_null(const char *what);
void register_exit(ExitFn func, void *param) {
  if (!func)
    log_null("func");
  exit_tasks.push_back({func, param});
}
void run_exit_tasks() {
  for (ExitTask &t : exit_tasks)
    t.func(t.param);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 't.func' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 't.func' is not empty before this call, e.g. 'if (t.func)'
  // CHECK-NOTES: :[[@LINE-3]]:5: note: 'ExitTask::func' is not surely set by the only construction of 'ExitTask' in the project
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'ExitTask' is constructed with 'ExitTask{}', which sets 'ExitTask::func' from a value that may be empty, in 'register_exit' ({{.*}}.cpp:[[@LINE-8]])
  // CHECK-NOTES: :[[@LINE-5]]:5: note: a value from 'func' is checked for emptiness in 'register_exit' ({{.*}}.cpp:[[@LINE-11]])
}

// A constructor that is a template is a constructor: each specialization the
// TU instantiates leaves the field as its body says. dlib's `storage_heap`
// sets `ptr` and `del` together in `template <class T> storage_heap(T &&)`;
// without it, `del` would read "set only after construction, in
// `operator=`", and the destructor's call a finding.
struct Erased {
  template <class T>
  Erased(T &&t)
      : ptr(new T(t)), del([](void *p) { delete static_cast<T *>(p); }) {}
  Erased &operator=(const Erased &o) {
    ptr = o.ptr;
    del = o.del;
    return *this;
  }
  ~Erased() { del(ptr); } // no-warning
  void *ptr = nullptr;
  void (*del)(void *) = nullptr;
};
void keep_erased() {
  Erased e(42);
  Erased f(1.5);
  f = e;
}

// True neighbour: the template constructor leaves the deleter to a later
// assignment, so the destructor may run with it empty.
struct Boxed {
  template <class T> Boxed(T &&t) : ptr(new T(t)) {}
  void set_deleter(void (*d)(void *)) { del = d; }
  ~Boxed() {
    del(ptr);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'del' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: 'Boxed::del' is set only after construction, in 'Boxed::set_deleter' ({{.*}}.cpp:[[@LINE-4]]); the destructor also runs for objects where that never happened
    // CHECK-NOTES: :[[@LINE-3]]:5: note: 'Boxed' is constructed with 'Boxed(int &&)', which leaves 'Boxed::del' empty, in 'keep_boxed' ({{.*}}.cpp:[[@LINE+7]])
  }
  void *ptr = nullptr;
  void (*del)(void *) = nullptr;
};
static void free_int(void *p) { delete static_cast<int *>(p); }
void keep_boxed(bool own) {
  Boxed h(7);
  if (own)
    h.set_deleter(&free_int);
}
