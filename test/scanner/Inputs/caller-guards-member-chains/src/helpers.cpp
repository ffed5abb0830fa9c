#include "search.h"
void from_cache(Priv &p) { p.task->step(p.t); }
void from_other(Priv &p) { p.task->step(p.t); }
