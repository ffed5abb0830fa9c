// Reaches the heavy header as text, but not when parsed.
#ifdef USE_HEAVY
#include <heavy/heavy.h>
#endif
#include <light/light.h>
int f() {
  light::Policy P = nullptr;
  return P(6);
}
