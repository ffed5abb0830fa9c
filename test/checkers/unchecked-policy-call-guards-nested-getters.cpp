// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// Accessors the flow follows. A getter whose one statement returns a member
// of a member subobject by reference (`return m_data.m_stop;`) denotes that
// member, as one returning its own member does, so a test of `p.stop_on()`
// guards `p.stop_on()()` (sobjectizer's receive parameters). The non-const
// half of an accessor pair (`Config &config();` beside `const Config
// &config() const;`), defined in another TU, hands out a member and changes
// no other: the callable it does not return stays as tested (BehaviorTree's
// ScriptNode). A member reached through a pointer, and a non-const method
// that is no such half, still make the call a finding.

#include <functional>

using Pred = std::function<bool()>;
using Exec = std::function<void(int)>;

struct Data {
  Pred m_stop;
};
struct Params {
  const Pred &stop_on() const noexcept { return m_data.m_stop; }
  const Pred &via_pointer() const noexcept { return m_ptr->m_stop; }
  void reset();
  Data m_data;
  Data *m_ptr = nullptr;
};

bool can_continue(const Params &p) { return !(p.stop_on() && p.stop_on()()); }

struct Performer {
  const Params &m_params;
  bool stopped() const { return m_params.stop_on() && m_params.stop_on()(); }
};

bool through_pointer(const Params &p) {
  return p.via_pointer() && p.via_pointer()();
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: call through possibly empty callable 'p.via_pointer()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:29: note: check that 'p.via_pointer()' is not empty before this call, e.g. 'if (p.via_pointer())'
  // CHECK-NOTES: :[[@LINE-3]]:29: note: a value from 'Params::via_pointer' is checked for emptiness in 'through_pointer' ({{.*}}.cpp:[[@LINE-3]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:29: warning: call through possibly empty callable 'p.via_pointer()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:29: note: check that 'p.via_pointer()' is not empty before this call, e.g. 'if (p.via_pointer())'
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:29: note: a value from 'Params::via_pointer' is checked for emptiness in 'through_pointer' ({{.*}}.cpp:[[@LINE-6]])
}

bool after_reset(Params &p) {
  if (!p.stop_on())
    return false;
  p.reset();
  return p.stop_on()();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'p.stop_on()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'p.stop_on()' is not empty before this call, e.g. 'if (p.stop_on())'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: a value from 'Params::stop_on' is checked for emptiness in 'can_continue' ({{.*}}.cpp:[[@LINE-24]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:10: warning: call through possibly empty callable 'p.stop_on()' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:10: note: check that 'p.stop_on()' is not empty before this call, e.g. 'if (p.stop_on())'
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:10: note: a value from 'Params::stop_on' is checked for emptiness in 'can_continue' ({{.*}}.cpp:[[@LINE-27]])
}

struct Config {
  int blackboard = 0;
};
struct Node {
  Config &config();
  const Config &config() const;
  Config &other();
  void tick() {
    if (m_exec) {
      int env = config().blackboard;
      m_exec(env);
    }
  }
  void tick_other() {
    if (m_exec) {
      int env = other().blackboard;
      m_exec(env);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'm_exec' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: 'Node::m_exec' is not set by the only construction of 'Node' in the project
      // CHECK-NOTES: :[[@LINE-3]]:7: note: 'Node' is constructed with 'Node{}', which leaves 'Node::m_exec' empty, in 'use' ({{.*}}.cpp:[[@LINE+14]])
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: warning: call through possibly empty callable 'm_exec' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: 'Node::m_exec' is not set by the only construction of 'Node' in the project
      // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: 'Node' is constructed with 'Node{}', which leaves 'Node::m_exec' empty, in 'use' ({{.*}}.cpp:[[@LINE+11]])
    }
  }
  Exec m_exec;
};

void use(Node &n, Params &p) {
  p.m_ptr = nullptr;
  p.reset();
  n.tick();
  n.tick_other();
  Node made;
  made.tick_other();
}
