// A header without an include guard is never shared.
#include <noguard/noguard.h>
int g() {
  NoGuard N{7};
  return N.X;
}
