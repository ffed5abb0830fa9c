// A registry of derived quantities whose getters are defined in its own
// .cpp: amrex's DeriveRec, reduced. One constructor per kind of function,
// so each leaves the other kinds empty.
#include <functional>

using DeriveFuncFab = std::function<void(int)>;
using DeriveFunc = void (*)(int);
using BoxMap = int (*)(int);
using Reducer = std::function<int(int, int)>;
using Printer = std::function<void(const char *)>;

class DeriveRec {
public:
  explicit DeriveRec(DeriveFunc f);
  explicit DeriveRec(DeriveFuncFab f);
  DeriveFuncFab derFuncFab() const;
  DeriveFunc derFunc() const;
  BoxMap boxMap() const;
  Reducer reducer() const;
  Printer printer() const;
  // Hands the function over: its facts record no returned field.
  DeriveFuncFab takeFuncFab();
  void clear();

private:
  DeriveFunc func = nullptr;
  DeriveFuncFab func_fab;
  BoxMap box_map = nullptr;
  Reducer reduce;
  Printer print;
};

void note(int);
