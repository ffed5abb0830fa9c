// RUN: %check_wrapguard %s %t

// A class says whether its callable member is set through an accessor whose
// one statement tests it (`bool userPool() const { return rawAlloc; }`,
// `IsEmpty()`, `hasCallback()`). A call of the accessor is that test, on the
// object it is called on, so the call through the member under it is
// guarded (oneTBB's tbbmalloc: `if (extMemPool->userPool())
// extMemPool->rawAlloc(..)`). Each hard negative has a true neighbour.

#include <functional>

typedef void *(*RawAlloc)(long);
struct Pool {
  RawAlloc rawAlloc = nullptr;
  std::function<void(void *)> onFree;
  bool userPool() const { return rawAlloc; }
  bool hasFree() const { return static_cast<bool>(onFree); }
  bool noFree() const { return onFree == nullptr; }
  bool freeMissing() const { return !onFree; }
};
void *sys_alloc(long);
void sys_free(void *);

void *get_raw(Pool *pool, long n) {
  if (pool->userPool())
    return pool->rawAlloc(n); // no-warning
  return sys_alloc(n);
}

void put_raw(Pool &pool, void *p) {
  if (pool.hasFree())
    pool.onFree(p); // no-warning
  if (pool.noFree())
    return;
  pool.onFree(p); // no-warning
}

void put_raw_negated(Pool &pool, void *p) {
  if (!pool.freeMissing())
    pool.onFree(p); // no-warning
}

// True neighbours: the accessor of another object, and the call outside
// the test.
void *get_other(Pool *pool, Pool *other, long n) {
  if (other->userPool())
    return pool->rawAlloc(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'pool->rawAlloc' [wrapguard-unchecked-policy-call]
  return sys_alloc(n);
}

void put_after(Pool &pool, void *p) {
  if (pool.hasFree())
    sys_free(p);
  pool.onFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'pool.onFree' [wrapguard-unchecked-policy-call]
}

// A virtual accessor may be overridden by one that says something else.
struct Source {
  std::function<int()> next;
  virtual bool ok() const { return static_cast<bool>(next); }
  virtual ~Source() = default;
};
int pull(Source &s) {
  if (s.ok())
    return s.next();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 's.next' [wrapguard-unchecked-policy-call]
  return 0;
}

// An accessor that does more than test is not one: its result is unknown.
struct Hooks {
  std::function<void()> cb;
  int calls = 0;
  bool ready() {
    ++calls;
    return static_cast<bool>(cb);
  }
};
void fire(Hooks &h) {
  if (h.ready())
    h.cb();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'h.cb' [wrapguard-unchecked-policy-call]
}

// A conjunction of such tests is true only where each member is set (brpc's
// `Protocol::support_client`: `return serialize_request && pack_request &&
// process_response;`). A disjunction proves none of them.
typedef int (*StepFn)(int);
struct Protocol {
  StepFn serialize = nullptr;
  StepFn pack = nullptr;
  StepFn parse = nullptr;
  bool support_client() const { return serialize && pack; }
  bool support_any() const { return serialize || parse; }
};
int send_with(const Protocol *p, int x) {
  if (!p->support_client())
    return -1;
  return p->pack(p->serialize(x)); // no-warning
}
int send_any(const Protocol *p, int x) {
  if (!p->support_any())
    return -1;
  return p->serialize(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p->serialize' [wrapguard-unchecked-policy-call]
}

// The negation of a conjunction, a disjunction of tests that the members
// are empty (Jolt's `RTTI::IsAbstract`: `return mCreate == nullptr ||
// mDestruct == nullptr;`), is false only where each of them is set. With
// a disjunct of other state it is false only where they are set and that
// state holds too. A disjunction of mixed tests is not read.
typedef void *(*CreateFn)();
typedef void (*DestructFn)(void *);
struct TypeInfo {
  CreateFn create = nullptr;
  DestructFn destruct = nullptr;
  bool disabled = false;
  bool isAbstract() const { return create == nullptr || destruct == nullptr; }
  bool unusable() const { return !create || disabled; }
  bool oddOne() const { return create == nullptr || destruct != nullptr; }
};
void *make(const TypeInfo &t) {
  return t.isAbstract() ? nullptr : t.create(); // no-warning
}
void *make_or_throw(const TypeInfo &t) {
  if (t.unusable())
    return nullptr;
  return t.create(); // no-warning
}
void destroy(const TypeInfo &t, void *p) {
  if (!t.isAbstract())
    t.destruct(p); // no-warning
}
// True neighbours: the abstract side, the unusable side, and a member that
// a mixed disjunction's false result proves empty.
void *make_abstract(const TypeInfo &t) {
  return t.isAbstract() ? t.create() : nullptr;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: call through possibly empty callable 't.create' [wrapguard-unchecked-policy-call]
}
void *make_unusable(const TypeInfo &t) {
  if (t.unusable())
    return t.create();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 't.create' [wrapguard-unchecked-policy-call]
  return nullptr;
}
void destroy_odd(const TypeInfo &t, void *p) {
  if (t.oddOne())
    return;
  t.destruct(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 't.destruct' [wrapguard-unchecked-policy-call]
}
