// Shares: the heavy header through a project header.
#include "proj.h"
int b() {
  heavy::Policy P = nullptr;
  return P(2);
}
