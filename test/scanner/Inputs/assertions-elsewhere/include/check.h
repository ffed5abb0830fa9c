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

// Hooks that hooks.cpp tests only in the calls of the functions above, and
// tick.cpp calls untested: a test that the process ends without states
// that the hook is set, one that returns or throws is belief.
struct Hooks {
  Fn on_start; // Assert(h.on_start != nullptr, ..)
  Fn on_step;  // check(h.on_step != nullptr, ..)
  Fn on_log;   // LogUnless(h.on_log != nullptr, ..)
  Fn on_end;   // Require(.., bool(h.on_end))
  Fn on_fail;  // Refute(h.on_fail != nullptr, ..)
};

// A job whose default constructor leaves it empty; hooks.cpp asserts it
// set where the jobs come in.
struct Job {
  Fn done;
  Job() = default;
  explicit Job(Fn f) : done(std::move(f)) {}
};
// And one whose test is only logged.
struct LoggedJob {
  Fn done;
  LoggedJob() = default;
  explicit LoggedJob(Fn f) : done(std::move(f)) {}
};
