#include <hol/util.h>
#include <hol/core.h>

int test_b() { return hol::twice(1) + hol::Runner<long>().run(2) + hol::only_for_long(5L); }
