// A header without an include guard is never shared (h.cpp opens unlike
// g.cpp, so that the two do not share a preamble instead).
#include <light/light.h>
#include <noguard/noguard.h>
int h() {
  NoGuard N{7};
  return N.X;
}
