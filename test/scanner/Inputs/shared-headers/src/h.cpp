// A header without an include guard is never shared.
#include <noguard/noguard.h>
int h() {
  NoGuard N{7};
  return N.X;
}
