#include "derive.h"

DeriveRec::DeriveRec(DeriveFunc f) : func(f) {}
DeriveRec::DeriveRec(DeriveFuncFab f) : func_fab(std::move(f)) {}
DeriveFuncFab DeriveRec::derFuncFab() const { return func_fab; }
DeriveFunc DeriveRec::derFunc() const { return func; }
BoxMap DeriveRec::boxMap() const { return box_map; }
Reducer DeriveRec::reducer() const { return reduce; }
Printer DeriveRec::printer() const { return print; }
DeriveFuncFab DeriveRec::takeFuncFab() { return std::move(func_fab); }
void DeriveRec::clear() { func_fab = nullptr; }

static void square(int) {}
DeriveRec byPointer(&square);
DeriveRec byFab(DeriveFuncFab([](int n) { note(n); }));
void note(int) {}
