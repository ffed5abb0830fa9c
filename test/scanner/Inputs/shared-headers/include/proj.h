#pragma once
// The project's header reaches the heavy one: b.cpp reaches it only here.
#include <heavy/heavy.h>
namespace proj {
int twice(int X);
} // namespace proj
