// RUN: %check_wrapguard %s %t

// A constructor that stores a pointer parameter (a function pointer, a
// member-function pointer) leaves the member exactly as set as the argument,
// as it does for a std::function parameter. The engine gives a pointer
// parameter its state where it is first read, so the constructor's summary
// reads it at the exit, where a parameter that the body never writes still
// has that state. `Binder<W>(w, nullptr)` then leaves `m` empty (the issue's
// "`nullptr` stored into a member-function pointer of a class template").
// A constructor that tests or replaces the argument is no copy of it. Each
// hard negative has a true neighbour.

struct Widget {
  void go() {}
};
void noop(Widget *) {}

// True: a class template's member-function pointer, given nullptr.
template <class T> struct Binder {
  using Method = void (T::*)();
  Binder(T *o, Method m) : obj(o), m(m) {}
  void run() { (obj->*m)(); }
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: call through possibly empty callable 'm' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:23: note: 'Binder<Widget>::m' is not set by the only construction of 'Binder<Widget>' in the project
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'Binder<Widget>' is constructed with 'Binder(Widget *, Method)', which leaves 'Binder<Widget>::m' empty, in 'bind_nothing' ({{.*}}.cpp:[[@LINE+4]])
  T *obj;
  Method m;
};
void bind_nothing(Widget *w) { Binder<Widget>(w, nullptr).run(); }

// True: a function pointer, given nullptr by the only construction.
struct Callback {
  using Fn = void (*)(Widget *);
  Callback(Widget *o, Fn f) : obj(o), f(f) {}
  void fire() { f(obj); }
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:17: note: 'Callback::f' is not set by the only construction of 'Callback' in the project
  // CHECK-NOTES: :[[@LINE-3]]:17: note: 'Callback' is constructed with 'Callback(Widget *, Fn)', which leaves 'Callback::f' empty, in 'fire_nothing' ({{.*}}.cpp:[[@LINE+4]])
  Widget *obj;
  Fn f;
};
void fire_nothing(Widget *w) { Callback(w, nullptr).fire(); }

// Hard negative: every construction passes a function.
struct Always {
  using Fn = void (*)(Widget *);
  Always(Widget *o, Fn f) : obj(o), f(f) {}
  void fire() { f(obj); } // no-warning
  Widget *obj;
  Fn f;
};
void always(Widget *w) { Always(w, &noop).fire(); }

// Hard negative: the constructor replaces a null argument before it stores
// it; the member is no copy of the parameter.
struct Defaulted {
  using Fn = void (*)(Widget *);
  Defaulted(Widget *o, Fn f) : obj(o) {
    if (!f)
      f = &noop;
    this->f = f;
  }
  void fire() { this->f(obj); } // no-warning
  Widget *obj;
  Fn f;
};
void defaulted(Widget *w) { Defaulted(w, nullptr).fire(); }

// Hard negative: the constructor normalises the member after storing it.
template <class T> struct Normalised {
  using Method = void (T::*)();
  Normalised(T *o, Method m) : obj(o), m(m) {
    if (!this->m)
      this->m = &T::go;
  }
  void run() { (obj->*m)(); } // no-warning
  T *obj;
  Method m;
};
void normalised(Widget *w) { Normalised<Widget>(w, nullptr).run(); }
