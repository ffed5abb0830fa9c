#include "events.h"

void run() {
  Watcher w([] {});
  w.Fire();
  Timer t([] {});
  t.Cancel();
  t.Fire();
}
