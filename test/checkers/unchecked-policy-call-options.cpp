// Options come from .clang-tidy CheckOptions as well as --config.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: printf 'CheckOptions:\n  wrapguard-unchecked-policy-call.PolicyNames: "^fetch_"\n  wrapguard-unchecked-policy-call.FixMode: none\n' > %t.dir/.clang-tidy
// RUN: %check_wrapguard %s %t.dir/test -check-suffix=FILE -config-from-file
//
// An invalid FixMode is reported as a configuration problem; the check falls
// back to guard.
// RUN: %check_wrapguard %s %t -check-suffix=BAD \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: bogus}}"
//
// Every option round-trips through --dump-config, with its default.
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --config='{}' --dump-config -- \
// RUN:   | FileCheck %s -check-prefix=DUMP
// DUMP-DAG: wrapguard-unchecked-policy-call.PolicyNames: policy
// DUMP-DAG: wrapguard-unchecked-policy-call.NullableCallableTypes: ''
// DUMP-DAG: wrapguard-unchecked-policy-call.StrictMode: 'false'
// DUMP-DAG: wrapguard-unchecked-policy-call.FixMode: guard
// DUMP-DAG: wrapguard-unchecked-policy-call.ShimHeader: 'wrapguard/call.h'
// DUMP-DAG: wrapguard-unchecked-policy-call.MaxSolverIterations: '20000000'
// DUMP-DAG: wrapguard-unchecked-policy-call.MaxBlockVisits: '50000'
// DUMP-DAG: wrapguard-unchecked-policy-call.IncludeStyle: llvm
//
// A set option shows up in --dump-config too.
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --dump-config \
// RUN:   --config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true, wrapguard-unchecked-policy-call.MaxBlockVisits: 7}}" -- \
// RUN:   | FileCheck %s -check-prefix=SET
// SET-DAG: wrapguard-unchecked-policy-call.StrictMode: 'true'
// SET-DAG: wrapguard-unchecked-policy-call.MaxBlockVisits: '7'

#include <functional>

using IntFn = std::function<int(int)>;

IntFn fetch_wrapper();
IntFn fetch_checked_wrapper();
IntFn get_policy();

// CHECK-MESSAGES-BAD: warning: invalid configuration value 'bogus' for option 'wrapguard-unchecked-policy-call.FixMode' [clang-tidy-config]

int fetched_by_file_policy_names(int x) {
  IntFn f = fetch_wrapper();
  return f(x);
  // CHECK-MESSAGES-FILE: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-FILE: {{^}}  return f(x);{{$}}
}

// Flagged under --config (BAD), not under the file's PolicyNames (FILE).
int default_policy_name(int x) {
  IntFn g = get_policy();
  return g(x);
  // CHECK-MESSAGES-BAD: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-FIXES-BAD: {{^}}  return (g ? g(x) : x);{{$}}
}

// Negative cases.

int checked_under_every_option(int x) {
  // A source of its own: a test of fetch_wrapper's result would make it a
  // source by belief under every option (see sources-belief.cpp).
  IntFn c = fetch_checked_wrapper();
  if (!c)
    return x;
  return c(x); // no-warning
}
