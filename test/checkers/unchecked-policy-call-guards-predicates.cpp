// RUN: %check_wrapguard %s %t -- -std=c++17

// A predicate that checks its callable member among other state: early
// exits `if (..) return false;`, one of which is taken when the member is
// empty, then `return true;`. Where it returns true the member is set, so
// the call under it is guarded; where it returns false nothing is known of
// the member. HiGHS's `HighsCallback::callbackActive` (`if
// (!this->user_callback) return false;`, then the callback type's range and
// whether it is active) guards `callbackAction`'s call. A one-statement
// accessor is guards-accessors.cpp's.

#include <cassert>
#include <vector>

typedef void (*user_cb)(int, const char *);
struct Callback {
  user_cb user_callback = nullptr;
  std::vector<bool> active;
  bool ready = false;
  bool callbackActive(int type);
  bool readyOnly(int type);
  bool resetsFirst(int type);
  bool callbackAction(int type, const char *m);
  void stop();
  void clear();
};

// Emptied in a method the project calls: evidence for the unguarded calls.
void Callback::clear() { user_callback = nullptr; }
void shutdown(Callback &c) { c.clear(); }

bool Callback::callbackActive(int type) {
  // Check that the callback function has been defined.
  if (!this->user_callback)
    return false;
  const bool type_ok = type >= 0 && type <= 8;
  assert(type_ok);
  if (!type_ok)
    return false;
  if (!this->active[type])
    return false;
  return true;
}

bool Callback::callbackAction(int type, const char *m) {
  if (!callbackActive(type))
    return false;
  this->user_callback(type, m); // no-warning
  return true;
}

bool action_of_object(Callback &cb, int type) {
  if (cb.callbackActive(type))
    cb.user_callback(type, "x"); // no-warning
  return true;
}

// True neighbours. A predicate whose exits do not test the member...
bool Callback::readyOnly(int type) {
  if (!ready)
    return false;
  if (type < 0)
    return false;
  return true;
}
void ready_action(Callback &cb) {
  if (cb.readyOnly(1))
    cb.user_callback(1, "x");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb.user_callback' [wrapguard-unchecked-policy-call]
}

// ...one that runs a method after its test, which may empty the member...
bool Callback::resetsFirst(int type) {
  if (!user_callback)
    return false;
  stop();
  return type > 0;
}
void reset_action(Callback &cb) {
  if (cb.resetsFirst(1))
    cb.user_callback(1, "x");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb.user_callback' [wrapguard-unchecked-policy-call]
}

// ...and a call where the predicate returned false, for a reason that may
// be the empty member.
void inactive_action(Callback &cb) {
  if (!cb.callbackActive(1))
    cb.user_callback(1, "x");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb.user_callback' [wrapguard-unchecked-policy-call]
}

// A predicate of one `return` whose conjunction tests the member among other
// state (iceoryx's `Event_t::isInitialized`, `m_origin != nullptr &&
// m_eventId != INVALID_ID && .. && m_translationCallback != nullptr`): true
// only where the member is set. Where it returned false, and where a
// conjunct runs a method (which may empty the member), nothing is known.
#include <cstdint>
constexpr uint64_t INVALID_ID = ~0ULL;
typedef void (*translation_cb)(void *);
struct Event {
  void *m_origin = nullptr;
  uint64_t m_eventId = INVALID_ID;
  translation_cb m_translationCallback = nullptr;
  bool isInitialized() const;
  bool isArmed();
  bool armed();
  void execute();
  void executeArmed();
  void executeUninitialized();
  void reset() { m_translationCallback = nullptr; }
};
void reset_event(Event &e) { e.reset(); }
bool Event::isInitialized() const {
  return m_origin != nullptr && m_eventId != INVALID_ID &&
         m_translationCallback != nullptr;
}
void Event::execute() {
  if (!isInitialized())
    return;
  m_translationCallback(m_origin); // no-warning
}
bool Event::isArmed() { return m_translationCallback != nullptr && armed(); }
void Event::executeArmed() {
  if (isArmed())
    m_translationCallback(m_origin);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'm_translationCallback' [wrapguard-unchecked-policy-call]
}
void Event::executeUninitialized() {
  if (isInitialized())
    return;
  m_translationCallback(m_origin);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'm_translationCallback' [wrapguard-unchecked-policy-call]
}
