// OpenMP's data-sharing clauses (issue 14). The CFG lays a directive's region
// out in place, and references in it name the original variable; the engine
// gives each private copy of a callable an object of its own, so that a call
// through a copy is judged by the copy's state and the copy's assignments
// stay in its region. Deferred tasks that share a callable, and reductions
// over one, are skipped, and say so with ReportSkippedFunctions.
//
// RUN: %check_wrapguard %s %t -check-suffixes=,SKIPS \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.ReportSkippedFunctions: true}}" \
// RUN:   -- -fopenmp
// RUN: %check_wrapguard %s %t -- -fopenmp
// The reported crash (a copy through a cast from void *, a private vector)
// is analysed; in StrictMode its call, of unknown origin, is reported.
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" \
// RUN:   -- -fopenmp -DREPORTED_CRASH_ONLY

#include <functional>
#include <utility>
#include <vector>

using IntFn = std::function<int(int)>;
using IntFnPtr = int (*)(int);

int twice(int x) { return 2 * x; }
IntFn make_policy(int k) {
  if (k > 0)
    return twice;
  return nullptr;
}

#ifndef REPORTED_CRASH_ONLY
// `private` gives the region a default-constructed, empty std::function,
// whatever the original holds.
int private_copy_starts_empty(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp parallel for private(f) reduction(+ : r)
  for (int i = 0; i < n; ++i)
    r += f(i);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES: :[[@LINE-4]]:34: note: 'f' is a private copy in the region, which starts empty
  return r;
}

// A private pointer holds nothing yet.
int private_pointer_starts_uninitialised(int n) {
  IntFnPtr f = twice;
  int r = 0;
#pragma omp parallel private(f) reduction(+ : r)
  r += f(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'f' is a private copy in the region, which starts uninitialised
  return r;
}

// The copy's assignment stays in the region: the original is still empty.
int private_assignment_stays_in_region(int k, int n) {
  IntFn f;
  int r = 0;
#pragma omp parallel private(f) reduction(+ : r)
  {
    f = make_policy(k);
    if (f)
      r += f(n); // no-warning
  }
  return r + f(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

// `firstprivate` copies the original, guard included.
int firstprivate_copy_keeps_the_guard(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp parallel for firstprivate(f) reduction(+ : r)
  for (int i = 0; i < n; ++i)
    r += f(i); // no-warning
  return r;
}

int firstprivate_assignment_stays_in_region(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp parallel firstprivate(f) reduction(+ : r)
  {
    f = nullptr;
    r += f(n);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
  }
  return r + f(n); // no-warning
}

// A thread's copy lives across its iterations.
int copy_persists_across_iterations(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp parallel for firstprivate(f) reduction(+ : r)
  for (int i = 0; i < n; ++i) {
    r += f(i);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
    f = nullptr;
  }
  return r;
}

// `lastprivate` copies the last iteration's value back.
int lastprivate_copies_back(int k, int n) {
  IntFn f;
#pragma omp parallel for lastprivate(f)
  for (int i = 0; i < n; ++i)
    f = make_policy(k + i);
  return f(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// The inner region's copy is made from the outer region's.
int nested_private_in_firstprivate(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp parallel firstprivate(f) reduction(+ : r)
  {
#pragma omp for private(f)
    for (int i = 0; i < n; ++i)
      r += f(i);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
    // CHECK-MESSAGES: :[[@LINE-4]]:25: note: 'f' is a private copy in the region, which starts empty
    r += f(n); // no-warning
  }
  return r;
}

// `default(firstprivate)` makes the same copy, implicitly.
int default_firstprivate(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp parallel default(firstprivate) shared(r)
  { f = nullptr; }
  return r + f(n); // no-warning
}

// A task's f is an implicit firstprivate copy, made when the task is: what
// follows the task does not reach it.
int task_copies_at_creation(int k, int n) {
  IntFn f = make_policy(k);
  if (!f)
    return 0;
  int r = 0;
#pragma omp task shared(r)
  r = f(n); // no-warning
  f = nullptr;
#pragma omp taskwait
  return r + f(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call through callable 'f', which is always empty here [wrapguard-unchecked-policy-call]
}

// A task that shares f may run after `f = nullptr`.
int task_shares_callable(int k, int n) {
  // CHECK-MESSAGES-SKIPS: :[[@LINE-1]]:5: warning: function 'task_shares_callable' was not analysed: it contains an OpenMP task that shares a callable [wrapguard-unchecked-policy-call]
  IntFn f = make_policy(k);
  int r = 0;
#pragma omp task shared(r, f)
  r = f(n);
  f = nullptr;
#pragma omp taskwait
  return r;
}

// A target region with nowait is deferred too; f is mapped, not copied.
int target_nowait_maps_callable(int k, int n) {
  // CHECK-MESSAGES-SKIPS: :[[@LINE-1]]:5: warning: function 'target_nowait_maps_callable' was not analysed: it contains an OpenMP task that shares a callable [wrapguard-unchecked-policy-call]
  IntFnPtr f = k ? twice : nullptr;
  int r = 0;
#pragma omp target map(tofrom : r, f) nowait
  r = f(n);
#pragma omp taskwait
  return r;
}

// A reduction's private copies start from its initializer.
#pragma omp declare reduction(pick : IntFn : omp_out = omp_in ? omp_in : omp_out) initializer(omp_priv = omp_orig)
int reduction_over_callable(int k, int n) {
  // CHECK-MESSAGES-SKIPS: :[[@LINE-1]]:5: warning: function 'reduction_over_callable' was not analysed: it contains an OpenMP reduction over a callable [wrapguard-unchecked-policy-call]
  IntFn f = make_policy(k);
#pragma omp parallel for reduction(pick : f)
  for (int i = 0; i < n; ++i)
    f = make_policy(i);
  return f(n);
}
#endif

// Regression: the reduction crashed clang-tidy in
// clang::dataflow::copyRecord.
int reported_crash(void *p, int n) {
  auto fn = *static_cast<
      std::function<void(int, std::vector<std::pair<int, double>> &)> *>(p);
  std::vector<std::pair<int, double>> buf;
#pragma omp parallel for private(buf)
  for (int i = 0; i < n; ++i)
    fn(i, buf);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:5: warning: call through possibly empty callable 'fn' [wrapguard-unchecked-policy-call]
  return 0;
}
