// RUN: %check_wrapguard %s %t

// Branch hints keep the test they wrap. Many projects spell `unlikely(x)`
// as `__builtin_expect((x) ? 1 : 0, 0)`: `c ? 1 : 0` is c's truth value as
// an integer (and `c ? 0 : 1` its negation), so the test behind the macro
// guards what follows it. tensorpipe's debug check is that shape, with an
// exception thrown by a temporary's destructor:
//
//   #define TP_DCHECK(a) if (unlikely(!((a)))) TP_THROW_ASSERT() << ...
//   TP_DCHECK(ref.readCallback_ != nullptr);
//   ref.readCallback_(nread, buf);

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

#define unlikely(x) __builtin_expect((x) ? 1 : 0, 0)
#define likely_not(x) __builtin_expect((x) ? 0 : 1, 1)

// Throws when it dies, as tensorpipe's ExceptionThrower does.
class Thrower {
public:
  ~Thrower() noexcept(false) { throw std::runtime_error(oss_.str()); }
  std::ostream &stream() { return oss_; }

private:
  std::ostringstream oss_;
};
#define DCHECK_SET(a)                                                          \
  if (unlikely(!((a))))                                                        \
  Thrower().stream() << "Expected " #a

using Fn = std::function<void(int)>;
Fn pick(int k) {
  if (k > 0)
    return [](int) {};
  return nullptr;
}

// Hard negatives: the hinted test guards the call.
void checked(int k) {
  Fn f = pick(k);
  DCHECK_SET(f != nullptr);
  f(1); // no-warning
}
void hinted_return(int k) {
  Fn f = pick(k);
  if (unlikely(!f))
    return;
  f(2); // no-warning
}
void hinted_negation(int k) {
  Fn f = pick(k);
  if (likely_not(f))
    return;
  f(3); // no-warning
}

// True neighbours: a test of another callable, and an integer whose arms
// are both true, guard nothing.
void other_checked(int k) {
  Fn f = pick(k), g = pick(k + 1);
  DCHECK_SET(g != nullptr);
  f(4);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
void both_arms_true(int k) {
  Fn f = pick(k);
  if (__builtin_expect(f ? 2 : 1, 1) == 0)
    return;
  f(5);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'f' [wrapguard-unchecked-policy-call]
}
