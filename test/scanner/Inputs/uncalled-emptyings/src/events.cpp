#include "events.h"

#include <utility>

Watcher::Watcher(Handler h) : handler_(std::move(h)) {}
void Watcher::ClearHandler() { handler_ = nullptr; }
void Watcher::Fire() { handler_(); }

Timer::Timer(Handler h) : handler_(std::move(h)) {}
void Timer::Cancel() { handler_ = nullptr; }
void Timer::Fire() { handler_(); }
