#pragma once
#include <functional>
#include <map>
#include <string>

using Fn = std::function<int(int)>;

// Defined in log.cpp, where it throws on every path: it never returns.
void fatal(const char *why);
// Defined in log.cpp, where every path calls fatal: it never returns.
void die_with(const char *why, int code);
// Defined in log.cpp: it logs and returns.
void warn(const char *why);
// Defined in chain.cpp, which calls die_with without seeing its definition:
// it never returns through two TUs.
void give_up(const char *why);
// Defined in chain.cpp: empty for an empty name.
Fn pick(const std::string &name);
