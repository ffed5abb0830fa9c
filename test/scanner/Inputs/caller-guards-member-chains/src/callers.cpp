#include "search.h"
void search(Priv &p, int k) {
  p.task = get_task(k);
  if (p.task && p.task->step)
    from_cache(p);
  from_other(p);
}
