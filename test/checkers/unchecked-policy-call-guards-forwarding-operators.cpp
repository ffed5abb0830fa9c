// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A hand-written callable class whose call operator is one call through the
// object's own implementation, and which gives its users a test of that
// implementation (ns-3's `Callback`: `return (*(DoPeekImpl()))(uargs...);`
// beside `bool IsNull() const { return DoPeekImpl() == nullptr; }`).
// Calling an empty one is its callers' mistake, as for std::function: the
// operator's call is no finding in the default mode, and the class's own
// test is no belief against it. StrictMode still reports it.

template <class R, class... A> struct CallbackImpl {
  virtual ~CallbackImpl() = default;
  virtual R operator()(A... a) = 0;
};

template <class R, class... A> class Callback {
public:
  bool IsNull() const { return DoPeekImpl() == nullptr; }
  void Nullify() { m_impl = nullptr; }
  R operator()(A... a) const { return (*(DoPeekImpl()))(a...); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:42: warning: call through possibly empty callable 'DoPeekImpl()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:42: note: check that 'DoPeekImpl()' is not empty before this call, e.g. 'if (DoPeekImpl())'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:42: note: a value from 'Callback<int, int>::DoPeekImpl' is checked for emptiness in 'Callback<int, int>::IsNull' ({{.*}}.cpp:[[@LINE-5]])

private:
  CallbackImpl<R, A...> *DoPeekImpl() const { return m_impl; }
  CallbackImpl<R, A...> *m_impl = nullptr;
};

int notify(const Callback<int, int> &cb, int v) {
  if (cb.IsNull())
    return 0;
  return cb(v);
}
// A specialization whose `IsNull` this TU never instantiates: its test is
// read from the template.
void fire(const Callback<void> &cb) { cb(); }

// A member called through directly, with `empty()` as the test.
class Delegate {
public:
  bool empty() const { return !fn_; }
  int operator()(int x) const { return fn_(ctx_, x); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:40: warning: call through possibly empty callable 'fn_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:40: note: check that 'fn_' is not empty before this call, e.g. 'if (fn_)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:40: note: a value from 'Delegate::fn_' is checked for emptiness in 'Delegate::empty' ({{.*}}.cpp:[[@LINE-4]])
  void bind(int (*fn)(void *, int), void *ctx) {
    fn_ = fn;
    ctx_ = ctx;
  }

private:
  int (*fn_)(void *, int) = nullptr;
  void *ctx_ = nullptr;
};
int run(Delegate &d) { return d.empty() ? 0 : d(1); }

// A test that casts the member to bool (simgrid's actor context:
// `void operator()() const { code_(); }` beside `bool has_code() const {
// return static_cast<bool>(code_); }`), with a construction that passes
// no code.
class Task {
public:
  explicit Task(void (*code)()) : code_(code) {}
  void operator()() const { code_(); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:29: warning: call through possibly empty callable 'code_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:29: note: 'Task::code_' is not set by the only construction of 'Task' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:29: note: 'Task' is constructed with 'Task(void (*)())', which leaves 'Task::code_' empty, in 'idle' ({{.*}}.cpp:[[@LINE+10]])
  bool has_code() const { return static_cast<bool>(code_); }

private:
  void (*code_)();
};
void start(Task &t) {
  if (t.has_code())
    t();
}
Task idle() { return Task(nullptr); }

// True neighbours: an operator that calls an optional hook and then does
// more is no forwarder; a class whose test is private gives its users none.
class Hooked {
public:
  bool has_before() const { return before_ != nullptr; }
  int operator()(int x) const {
    before_(x);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'before_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: a value from 'Hooked::before_' is checked for emptiness in 'Hooked::has_before' ({{.*}}.cpp:[[@LINE-4]])
    // CHECK-NOTES-STRICT: :[[@LINE-3]]:5: warning: call through possibly empty callable 'before_' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES-STRICT: :[[@LINE-4]]:5: note: a value from 'Hooked::before_' is checked for emptiness in 'Hooked::has_before' ({{.*}}.cpp:[[@LINE-6]])
    return x + 1;
  }
  void set_before(void (*f)(int)) { before_ = f; }

private:
  void (*before_)(int) = nullptr;
};
int hook(Hooked &h) { return h.has_before() ? h(1) : 0; }

class Closed {
public:
  int operator()(int x) const { return fn_(x); }
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: call through possibly empty callable 'fn_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:40: note: a value from 'Closed::fn_' is checked for emptiness in 'Closed::ok' ({{.*}}.cpp:[[@LINE+8]])
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:40: warning: call through possibly empty callable 'fn_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:40: note: a value from 'Closed::fn_' is checked for emptiness in 'Closed::ok' ({{.*}}.cpp:[[@LINE+6]])
  // The class's own accessor guards its own calls, call operator or not.
  int safe(int x) const { return ok() ? fn_(x) : 0; } // no-warning
  void set(int (*f)(int)) { fn_ = f; }

private:
  bool ok() const { return fn_ != nullptr; }
  int (*fn_)(int) = nullptr;
};
int close_over(Closed &c) { return c(1) + c.safe(2); }
