// Shares: the heavy header first.
#include <heavy/heavy.h>
int a() {
  heavy::Policy P = HEAVY_POLICY;
  return P(1);
}
