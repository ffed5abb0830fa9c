// Tests a macro of the heavy header before including it: without the PCH
// it is not defined yet, so E_POLICY is nullptr.
#ifndef HEAVY_API
#define E_POLICY nullptr
#else
#define E_POLICY &heavy::identity
#endif
#include <heavy/heavy.h>
int e() {
  heavy::Policy P = E_POLICY;
  return P(5);
}
