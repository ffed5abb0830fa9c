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

// Hard negative: each specialization of a class template has parameters of
// its own. The null specialization's `clone` passes 0 to its own
// `mp_impl_T(void *, fp)`, which says nothing of the real one's (dlib's
// member_function_pointer). True neighbour: the real specialization, given
// nullptr itself.
template <int N> struct Kernel {
  template <typename T> struct Null {
    typedef void (T::*fp)();
    Null(void *, fp) : callback(0) {}
    const fp callback;
  };
  template <typename Impl> struct ImplT : Impl {
    typedef typename Impl::fp fp;
    ImplT(void *p, fp cb) : Impl(p, cb) {}
    ImplT<Impl> copy() const { return ImplT(nullptr, this->callback); }
  };
};
struct Dummy {
  void go() {}
};
template <typename T> struct Impl {
  typedef void (T::*fp)();
  Impl(void *o, fp cb) : o(o), callback(cb) {}
  void call() const { (static_cast<T *>(o)->*callback)(); } // no-warning
  void *o;
  const fp callback;
};
struct Gadget {
  void run() {}
};
void use_kernel(Gadget *g) {
  Kernel<0>::ImplT<Impl<Gadget>> m(g, &Gadget::run);
  m.call();
  Kernel<0>::ImplT<Kernel<0>::Null<Dummy>> n(nullptr, nullptr);
  n.copy();
}
template <typename T> struct Slot {
  typedef void (T::*fp)();
  Slot(void *o, fp cb) : o(o), callback(cb) {}
  void call() const { (static_cast<T *>(o)->*callback)(); }
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: call through possibly empty callable 'callback' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:46: note: 'Slot<Gadget>::callback' is not surely set by the only construction of 'Slot<Gadget>' in the project
  // CHECK-NOTES: :[[@LINE-3]]:46: note: 'Slot<Gadget>' is constructed with 'Slot(void *, fp)', which sets 'Slot<Gadget>::callback' from a value that may be empty, in 'Kernel<0>::ImplT<Slot<Gadget>>::ImplT' ({{.*}}.cpp:[[@LINE-29]])
  // CHECK-NOTES: :[[@LINE-4]]:46: note: 'cb' of 'Kernel<0>::ImplT<Slot<Gadget>>::ImplT' is passed an empty callable in 'use_slot' ({{.*}}.cpp:[[@LINE+5]])
  void *o;
  const fp callback;
};
void use_slot(Gadget *g) {
  Kernel<0>::ImplT<Slot<Gadget>> s(g, nullptr);
  s.call();
}

// A lambda converted to a function pointer is set: a registry whose every
// construction passes one (Jolt's RTTI, made by its macros in static
// locals) sets the member, and a defensive test of it elsewhere is no
// evidence that a call meets it empty.
struct TypeRecord {
  using Destroy = void (*)(void *);
  TypeRecord(const char *n, Destroy d) : name(n), destroy(d) {}
  bool broken() const { return destroy == nullptr; }
  void destroyObject(void *p) const { destroy(p); } // no-warning
  const char *name;
  Destroy destroy;
};
TypeRecord &intRecord() {
  static TypeRecord r("int", [](void *p) { delete static_cast<int *>(p); });
  return r;
}
TypeRecord &floatRecord() {
  static TypeRecord r("float", +[](void *p) { delete static_cast<float *>(p); });
  return r;
}

// True neighbour: a record one of whose constructions passes nullptr.
struct LooseRecord {
  using Destroy = void (*)(void *);
  LooseRecord(const char *n, Destroy d) : name(n), destroy(d) {}
  bool broken() const { return destroy == nullptr; }
  void destroyObject(void *p) const { destroy(p); }
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: call through possibly empty callable 'destroy' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:39: note: 'LooseRecord' is constructed with 'LooseRecord(const char *, Destroy)', which leaves 'LooseRecord::destroy' empty, in 'looseRecord' ({{.*}}.cpp:[[@LINE+10]])
  // CHECK-NOTES: :[[@LINE-3]]:39: note: a value from 'LooseRecord::destroy' is checked for emptiness in 'LooseRecord::broken' ({{.*}}.cpp:[[@LINE-4]])
  const char *name;
  Destroy destroy;
};
LooseRecord &intLoose() {
  static LooseRecord r("int", [](void *p) { delete static_cast<int *>(p); });
  return r;
}
LooseRecord &looseRecord() {
  static LooseRecord r("none", nullptr);
  return r;
}
