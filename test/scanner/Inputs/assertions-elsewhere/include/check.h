#pragma once
#include <functional>
#include <map>
#include <string>

using Fn = std::function<int(int)>;

// Defined in check.cpp, where a false condition aborts: past a call, the
// condition holds.
void Assert(bool ok, const char *what);
// Defined in check.cpp, C style: an integer condition, zero aborts.
void check(int ok, const char *what);
// Defined in check.cpp, where a false condition throws.
void Require(const char *what, bool ok);
// Defined in check.cpp: logs a false condition and returns.
void LogUnless(bool ok, const char *what);
// Defined in check.cpp: aborts when the condition is true.
void Refute(bool bad, const char *what);
// Defined in pick.cpp: empty for an empty name.
Fn pick(const std::string &name);
