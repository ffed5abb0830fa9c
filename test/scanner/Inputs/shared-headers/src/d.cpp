// Never reaches the heavy header.
#include <light/light.h>
int d() {
  light::Policy P = nullptr;
  return P(4);
}
