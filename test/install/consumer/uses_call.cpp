// Built against the installed <wrapguard/call.h> only.
#include <wrapguard/call.h>

#include <cstdio>
#include <functional>

int main() {
  std::function<int(int)> Policy;
  int Kept = WRAPGUARD_CALL_OR_IDENTITY(Policy, 7);
  Policy = [](int X) { return X * 2; };
  int Doubled = WRAPGUARD_CALL_OR_IDENTITY(Policy, 7);
  std::printf("call: %d %d\n", Kept, Doubled);
  return Kept == 7 && Doubled == 14 ? 0 : 1;
}
