#include "check.h"
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

void Assert(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "assertion failed: %s\n", what);
    std::abort();
  }
}

void check(int ok, const char *what) {
  if (ok == 0) {
    std::fprintf(stderr, "check failed: %s\n", what);
    std::exit(1);
  }
}

void Require(const char *what, bool ok) {
  if (!ok)
    throw std::runtime_error(what);
}

void LogUnless(bool ok, const char *what) {
  if (!ok)
    std::fprintf(stderr, "warning: %s\n", what);
}

void Refute(bool bad, const char *what) {
  if (bad) {
    std::fprintf(stderr, "refuted: %s\n", what);
    std::abort();
  }
}
