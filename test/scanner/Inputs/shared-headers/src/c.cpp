// A macro before the include changes what the heavy header means: the PCH
// (built without it) would make HEAVY_POLICY the identity and lose the
// finding.
#define HEAVY_SMALL 1
#include <heavy/heavy.h>
int c() {
  heavy::Policy P = HEAVY_POLICY;
  return P(3);
}
