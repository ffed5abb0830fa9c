// RUN: %check_wrapguard %s %t

// A function that returns a reference to a static object (a singleton's
// `instance()`) hands out one object for every call, so a test of one of
// its callable fields through one call guards the call through another
// (PcapPlusPlus's signal handler: `if (getInstance().m_Handler != nullptr)
// getInstance().m_Handler(getInstance().m_Cookie);`). Untested, or tested
// before a method that may set the field, the call is still a finding.

using Handler = void (*)(void *);
class Events {
public:
  static Events &instance() {
    static Events e;
    return e;
  }
  void onInterrupted(Handler h, void *c) { handler_ = h; cookie_ = c; }
  static void routine(int);
  static void routine_unguarded(int);
  static void routine_after_set(int, Handler);
private:
  Events() : handler_(nullptr), cookie_(nullptr) {}
  Handler handler_;
  void *cookie_;
};
void Events::routine(int) {
  if (Events::instance().handler_ != nullptr)
    Events::instance().handler_(Events::instance().cookie_); // no-warning
  Events::instance().handler_ = nullptr;
}
void Events::routine_unguarded(int) {
  Events::instance().handler_(Events::instance().cookie_);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'Events::instance().handler_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'Events::instance().handler_' is not empty before this call, e.g. 'if (Events::instance().handler_)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'Events' is constructed with 'Events()', which leaves 'Events::handler_' empty, in 'Events::instance' ({{.*}}.cpp:[[@LINE-21]])
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a value from 'Events::handler_' is checked for emptiness in 'Events::routine' ({{.*}}.cpp:[[@LINE-9]])
}
void Events::routine_after_set(int, Handler h) {
  if (Events::instance().handler_ == nullptr)
    return;
  Events::instance().onInterrupted(h, nullptr);
  Events::instance().handler_(nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'Events::instance().handler_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: check that 'Events::instance().handler_' is not empty before this call, e.g. 'if (Events::instance().handler_)'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'Events' is constructed with 'Events()', which leaves 'Events::handler_' empty, in 'Events::instance' ({{.*}}.cpp:[[@LINE-31]])
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a value from 'Events::handler_' is checked for emptiness in 'Events::routine' ({{.*}}.cpp:[[@LINE-19]])
}
