#include <hol/core.h>
#include "generated.h"
#include "ext.h"

int test_a() { return hol::apply(1) + hol::Runner<int>().run(2) + generated(3) + external(4) +
               hol::only_for_long(5); }
