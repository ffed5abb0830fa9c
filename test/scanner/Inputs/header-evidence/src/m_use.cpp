#include "steps.h"

int use_m(int x) { return run_step(2, x); }
