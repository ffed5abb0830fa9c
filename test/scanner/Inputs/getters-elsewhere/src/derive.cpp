#include "derive.h"

DeriveRec::DeriveRec(DeriveFunc f) : func(f) {}
DeriveRec::DeriveRec(DeriveFuncFab f) : func_fab(std::move(f)) {}
DeriveFuncFab DeriveRec::derFuncFab() const { return func_fab; }
DeriveFunc DeriveRec::derFunc() const { return func; }
DeriveFuncFab DeriveRec::takeFuncFab() { return std::move(func_fab); }
void DeriveRec::clear() { func_fab = nullptr; }

static void square(int) {}
DeriveRec byPointer(&square);
DeriveRec byFab(DeriveFuncFab([](int n) { note(n); }));
void note(int) {}
