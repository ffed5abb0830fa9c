// A #pragma pack before the include would change the heavy header's layout.
#pragma pack(push, 1)
#include <heavy/heavy.h>
#pragma pack(pop)
int i() {
  heavy::Policy P = nullptr;
  return P(8);
}
