// A table of entry points that callers fill in before they hand it to the
// executors: exec calls `run` on every path, exec_kind only for kind 0.
struct Ops {
  void (*run)(int);
  void (*stop)(int);
};

void exec(const Ops *o);
void exec_kind(const Ops &o, int kind);
