// Option values that cannot be used are configuration problems, reported
// once as [clang-tidy-config]; the option's default then applies.
//
// An invalid PolicyNames: the default ('policy') applies, so get_policy's
// result is still a policy's, and fetch_wrapper's is not.
// RUN: %check_wrapguard %s %t -check-suffix=BADPOLICY \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.PolicyNames: '(fetch'}}"
// The same pattern, fixed, is used as given.
// RUN: %check_wrapguard %s %t -check-suffix=FETCH \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.PolicyNames: '(fetch)'}}"
//
// NullableCallableTypes is a list (clang-tidy's parseStringList: items
// separated by ';', trimmed, empty ones dropped). One invalid item: the
// default (no extra types) applies to the whole option.
// RUN: %check_wrapguard %s %t -check-suffix=BADTYPES \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.NullableCallableTypes: '::mylib::OtherFunction;::other::Handler[List'}}"
// RUN: %check_wrapguard %s %t -check-suffix=TYPES \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.NullableCallableTypes: ' ::mylib::OtherFunction ; ;::other::HandlerList$; ', wrapguard-unchecked-policy-call.FixMode: none}}"
//
// FixMode is an enumeration read by clang-tidy, which reports a value it
// does not know (suggesting a close one); `guard` then applies.
// RUN: %check_wrapguard %s %t -check-suffix=BADFIX \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: bogus}}"
// RUN: %check_wrapguard %s %t -check-suffix=CLOSEFIX \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: Shim}}"
// RUN: %check_wrapguard %s %t -check-suffix=NOFIX \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FixMode: none}}"
//
// --dump-config shows the values in force: a list normalised, an invalid
// option's default.
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --dump-config \
// RUN:   --config="{CheckOptions: {wrapguard-unchecked-policy-call.NullableCallableTypes: ' ::a::B ; ;::c::D$', wrapguard-unchecked-policy-call.FixMode: none}}" -- \
// RUN:   | FileCheck %s -check-prefix=DUMP
// DUMP-DAG: wrapguard-unchecked-policy-call.NullableCallableTypes: '::a::B;::c::D$'
// DUMP-DAG: wrapguard-unchecked-policy-call.FixMode: none
// DUMP-DAG: wrapguard-unchecked-policy-call.ReportSkippedFunctions: 'false'
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --dump-config \
// RUN:   --config="{CheckOptions: {wrapguard-unchecked-policy-call.PolicyNames: 'a(', wrapguard-unchecked-policy-call.NullableCallableTypes: '::a::B;*', wrapguard-unchecked-policy-call.FixMode: bogus}}" -- \
// RUN:   2>&1 | FileCheck %s -check-prefix=DUMPBAD
// DUMPBAD-DAG: wrapguard-unchecked-policy-call.PolicyNames: policy
// DUMPBAD-DAG: wrapguard-unchecked-policy-call.NullableCallableTypes: ''
// DUMPBAD-DAG: wrapguard-unchecked-policy-call.FixMode: guard
//
// LookupFunctions and InvokeMethods are lists like NullableCallableTypes: an
// invalid item is reported, and the option's default (none) applies.
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' %s \
// RUN:   --config="{CheckOptions: {wrapguard-unchecked-policy-call.LookupFunctions: '::reg::Get;::reg::(Find', wrapguard-unchecked-policy-call.InvokeMethods: '::rt::[Call'}}" -- -std=c++17 \
// RUN:   2>&1 | FileCheck %s -check-prefix=BADLISTS
// BADLISTS-DAG: invalid regular expression '::reg::(Find' in option 'wrapguard-unchecked-policy-call.LookupFunctions': parentheses not balanced; using the default (no lookup functions) [clang-tidy-config]
// BADLISTS-DAG: invalid regular expression '::rt::[Call' in option 'wrapguard-unchecked-policy-call.InvokeMethods': brackets ([ ]) not balanced; using the default (only the methods recognised by their body) [clang-tidy-config]
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --dump-config \
// RUN:   --config="{CheckOptions: {wrapguard-unchecked-policy-call.LookupFunctions: '::reg::Get;::reg::(Find', wrapguard-unchecked-policy-call.InvokeMethods: '::rt::[Call'}}" -- \
// RUN:   2>&1 | FileCheck %s -check-prefix=DUMPLISTS
// DUMPLISTS-DAG: wrapguard-unchecked-policy-call.LookupFunctions: ''
// DUMPLISTS-DAG: wrapguard-unchecked-policy-call.InvokeMethods: ''
//
// And every option round-trips: a dumped configuration, read back, dumps
// the same options (clang-tidy itself appends to `Checks` on the way).
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --dump-config \
// RUN:   --config="{CheckOptions: {wrapguard-unchecked-policy-call.PolicyNames: '^get_|policy', wrapguard-unchecked-policy-call.NullableCallableTypes: '::a::B;::c::D$', wrapguard-unchecked-policy-call.StrictMode: true, wrapguard-unchecked-policy-call.FixMode: shim, wrapguard-unchecked-policy-call.ShimHeader: 'my/call.h', wrapguard-unchecked-policy-call.MaxSolverIterations: 123, wrapguard-unchecked-policy-call.MaxBlockVisits: 45, wrapguard-unchecked-policy-call.FactsFile: 'facts.json', wrapguard-unchecked-policy-call.ReportSkippedFunctions: true, wrapguard-unchecked-policy-call.IncludeStyle: google, wrapguard-unchecked-policy-call.LookupFunctions: ' ::reg::Get ;::plugin::load$', wrapguard-unchecked-policy-call.InvokeMethods: '::rt::Packed::Call'}}" -- \
// RUN:   > %t.dump1
// RUN: %clang_tidy --load=%plugin --checks='-*,wrapguard-*' --dump-config \
// RUN:   --config-file=%t.dump1 -- > %t.dump2
// RUN: grep 'wrapguard-unchecked-policy-call\.' %t.dump1 > %t.opts1
// RUN: grep 'wrapguard-unchecked-policy-call\.' %t.dump2 > %t.opts2
// RUN: diff %t.opts1 %t.opts2
// RUN: FileCheck %s -check-prefix=ROUND < %t.dump2
// ROUND-DAG: wrapguard-unchecked-policy-call.PolicyNames: '^get_|policy'
// ROUND-DAG: wrapguard-unchecked-policy-call.NullableCallableTypes: '::a::B;::c::D$'
// ROUND-DAG: wrapguard-unchecked-policy-call.StrictMode: 'true'
// ROUND-DAG: wrapguard-unchecked-policy-call.FixMode: shim
// ROUND-DAG: wrapguard-unchecked-policy-call.ShimHeader: 'my/call.h'
// ROUND-DAG: wrapguard-unchecked-policy-call.MaxSolverIterations: '123'
// ROUND-DAG: wrapguard-unchecked-policy-call.MaxBlockVisits: '45'
// ROUND-DAG: wrapguard-unchecked-policy-call.FactsFile: facts.json
// ROUND-DAG: wrapguard-unchecked-policy-call.ReportSkippedFunctions: 'true'
// ROUND-DAG: wrapguard-unchecked-policy-call.IncludeStyle: google
// ROUND-DAG: wrapguard-unchecked-policy-call.LookupFunctions: '::reg::Get;::plugin::load$'
// ROUND-DAG: wrapguard-unchecked-policy-call.InvokeMethods: '::rt::Packed::Call'

#include <functional>

// CHECK-MESSAGES-BADPOLICY: warning: invalid regular expression '(fetch' in option 'wrapguard-unchecked-policy-call.PolicyNames': parentheses not balanced; using the default 'policy' [clang-tidy-config]
// CHECK-MESSAGES-BADTYPES: warning: invalid regular expression '::other::Handler[List' in option 'wrapguard-unchecked-policy-call.NullableCallableTypes': brackets ([ ]) not balanced; using the default (no extra types) [clang-tidy-config]
// CHECK-MESSAGES-BADFIX: warning: invalid configuration value 'bogus' for option 'wrapguard-unchecked-policy-call.FixMode' [clang-tidy-config]
// CHECK-MESSAGES-CLOSEFIX: warning: invalid configuration value 'Shim' for option 'wrapguard-unchecked-policy-call.FixMode'; did you mean 'shim'? [clang-tidy-config]

using IntFn = std::function<int(int)>;

IntFn fetch_wrapper();
IntFn get_policy();

namespace mylib {
class OtherFunction {
public:
  int operator()(int X) const { return X; }
};
} // namespace mylib
namespace other {
struct HandlerList {
  void operator()() const {}
};
} // namespace other

mylib::OtherFunction other_policy();
other::HandlerList handler_list_policy();

int by_policy_name(int x) {
  IntFn g = get_policy();
  return g(x);
  // CHECK-MESSAGES-BADPOLICY: :[[@LINE-1]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-BADTYPES: :[[@LINE-2]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-TYPES: :[[@LINE-3]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-BADFIX: :[[@LINE-4]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-CLOSEFIX: :[[@LINE-5]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-NOFIX: :[[@LINE-6]]:10: warning: call through possibly empty callable 'g' [wrapguard-unchecked-policy-call]
  // The guard fix: FixMode's default, also for a value clang-tidy rejected.
  // CHECK-FIXES-BADFIX: {{^}}  return (g ? g(x) : x);{{$}}
  // CHECK-FIXES-CLOSEFIX: {{^}}  return (g ? g(x) : x);{{$}}
  // CHECK-FIXES-NOFIX: {{^}}  return g(x);{{$}}
}

int by_fetch_name(int x) {
  IntFn f = fetch_wrapper();
  return f(x);
  // CHECK-MESSAGES-FETCH: :[[@LINE-1]]:10: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}

// Callables that cannot be tested for emptiness are nullable only when
// NullableCallableTypes names them (the TYPES run also sets FixMode none:
// there is no test to guard with).
int named_type(int x) {
  mylib::OtherFunction o = other_policy();
  return o(x);
  // CHECK-MESSAGES-TYPES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'o' [wrapguard-unchecked-policy-call]
}

void second_named_type() {
  other::HandlerList h = handler_list_policy();
  h();
  // CHECK-MESSAGES-TYPES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
}
