#include <functional>

using Handler = std::function<void()>;

// Made with a handler; ClearHandler() empties it, and nothing in the
// project calls ClearHandler (evpp's event watchers).
class Watcher {
public:
  explicit Watcher(Handler h);
  void ClearHandler();
  void Fire();

private:
  Handler handler_;
};

// The same shape, but app.cpp calls Cancel() before Fire().
class Timer {
public:
  explicit Timer(Handler h);
  void Cancel();
  void Fire();

private:
  Handler handler_;
};
