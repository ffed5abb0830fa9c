#include "derive.h"

// The same getter's result tested, then called, on the same object, with
// other calls between.
void derive(const DeriveRec *rec, int n) {
  if (rec->derFuncFab() != nullptr) {
    for (int i = 0; i < n; ++i) {
      note(i);
      rec->derFuncFab()(i);
    }
  } else if (rec->derFunc() != nullptr) {
    note(n);
    rec->derFunc()(n);
  }
}

// Tested on another object.
void deriveOther(const DeriveRec &a, const DeriveRec &b) {
  if (a.derFuncFab())
    b.derFuncFab()(1);
}

// Emptied in between, by a method defined in the other TU.
void deriveCleared(DeriveRec &rec) {
  if (rec.derFuncFab()) {
    rec.clear();
    rec.derFuncFab()(2);
  }
}

// A method that hands the function over is no getter.
void deriveTaken(DeriveRec &rec) {
  if (rec.takeFuncFab())
    rec.takeFuncFab()(3);
}

// Five methods that could be getters, the one tested and called last.
void deriveAfterOthers(const DeriveRec *rec, int n) {
  bool any = rec->boxMap() || rec->reducer() || rec->printer() || rec->derFunc();
  if (any && rec->derFuncFab())
    rec->derFuncFab()(n);
}
