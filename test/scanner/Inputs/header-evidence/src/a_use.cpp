#include "steps.h"

int use_a(int x) { return run_step(1, x) + run_fixed(x); }
