// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %python %S/Inputs/facts-file/compile_db.py %t.dir %S/Inputs/facts-file/policies.cpp -I%S/Inputs/facts-file %stdlib_flags
// RUN: %wrapguard index -p %t.dir -o %t.dir/facts.json
// RUN: %check_wrapguard %s %t -check-suffix=FACTS \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FactsFile: '%t.dir/facts.json'}}" -- -I%S/Inputs/facts-file
// RUN: %check_wrapguard %s %t -- -I%S/Inputs/facts-file
// RUN: %check_wrapguard %s %t -check-suffix=MISSING \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.FactsFile: '%t.dir/none.json'}}" -- -I%S/Inputs/facts-file

// clang-tidy alone sees one TU. With FactsFile (written by `wrapguard index`
// for the other TU, policies.cpp), what the rest of the project says decides:
// a definition elsewhere that may return empty, belief from a test
// elsewhere, constructors defined elsewhere. Without it (plain run), only
// this TU's facts and the name heuristic apply. A facts file that cannot be
// read is a configuration error, and the check goes on without it.

#include "trainer.h"

// CHECK-MESSAGES-MISSING: warning: cannot use FactsFile of wrapguard-unchecked-policy-call: cannot read facts file '{{.*}}none.json': No such file or directory [clang-tidy-config]

int apply_checkpointing(const Config &cfg, int x) {
  WrapFn w = select_wrapper(cfg);
  return w(x);
  // CHECK-MESSAGES-FACTS: :[[@LINE-1]]:10: warning: call through possibly empty callable 'w' [wrapguard-unchecked-policy-call]
}

int default_wrap(int x) {
  WrapFn p = default_policy();
  return p(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
  // CHECK-MESSAGES-MISSING: :[[@LINE-2]]:10: warning: call through possibly empty callable 'p' [wrapguard-unchecked-policy-call]
}

int lookup(int x) {
  WrapFn w = lookup_wrapper(2);
  return w(x);
  // CHECK-MESSAGES-FACTS: :[[@LINE-1]]:10: warning: call through possibly empty callable 'w' [wrapguard-unchecked-policy-call]
}

void Layer::backward(int g) {
  grad_hook(g);
  // CHECK-MESSAGES-FACTS: :[[@LINE-1]]:3: warning: call through possibly empty callable 'grad_hook' [wrapguard-unchecked-policy-call]
}


// Negative cases.

int unknown(int x) {
  WrapFn w = unknown_wrapper(1);
  return w(x); // no-warning
}

int checked(int x) {
  WrapFn p = default_policy();
  if (p)
    return p(x); // no-warning
  return x;
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
