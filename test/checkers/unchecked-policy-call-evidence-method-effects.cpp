// RUN: %check_wrapguard %s %t

// What a method does to the callable fields of the object it is called on
// comes from the flow analysis of its body, at its exit (ExitEffects): a
// setter that copies its argument into the field (`std::lock_guard` first
// or not) leaves the field exactly as non-empty as the argument; one that
// sets it only on some paths proves nothing. The caller's analysis applies
// it to whatever object the call is made on (`*this`, a variable, a
// pointer, what a smart pointer points to), and models the callable fields
// of the classes whose methods it calls, though it never names them. An
// accessor whose body declares locals (a lock) before `return cb_ !=
// nullptr;` is that test.
//
// IXWebSocket's server: `handleUpgrade` either tests the callback after the
// connection hook ran and returns without one, or sets it through
// `setOnMessageCallback(lambda)`, then calls `connectToSocket`, which calls
// the callback; it empties it with `setOnMessageCallback(nullptr)` when the
// connection ends. Each hard negative has a true neighbour.

#include <functional>
#include <memory>
#include <mutex>

using OnMessage = std::function<void(int)>;

class Socket {
public:
  void setOnMessage(const OnMessage &cb) {
    std::lock_guard<std::mutex> lock(mu);
    onMessage = cb;
  }
  // A default argument is the argument of a call that leaves it out.
  void setOnMessageOrLog(const OnMessage &cb = logMessage) {
    onMessage = cb;
  }
  static void logMessage(int) {}
  int connectLogged(int fd);
  // Sets it only when asked to: no effect proved.
  void setOnMessageIf(const OnMessage &cb, bool on) {
    if (on)
      onMessage = cb;
  }
  bool isOnMessageRegistered() const {
    std::lock_guard<std::mutex> lock(mu);
    return onMessage != nullptr;
  }
  // The guard's constructor is handed `*this`: it may change the callback
  // before the test reads it, so this is no accessor.
  bool checkedAfterSync();
  int connectToSocket(int fd);
  int connectClient(int fd);
  int connectConditionally(int fd);
  int connectAfterSync(int fd);
  int connectOther(int fd);
  int connectReassigned(int fd);

private:
  OnMessage onMessage;
  mutable std::mutex mu;
};

struct Sync {
  explicit Sync(Socket &s) : s(s) {}
  Socket &s;
};
bool Socket::checkedAfterSync() {
  Sync sync(*this);
  return onMessage != nullptr;
}

// Every caller has set or tested the callback.
int Socket::connectToSocket(int fd) {
  onMessage(fd); // no-warning
  return fd;
}

class Server {
public:
  void handleUpgrade(int fd) {
    auto ws = std::make_shared<Socket>();
    if (onConnection) {
      onConnection(ws);
      if (!ws->isOnMessageRegistered())
        return;
    } else if (onClientMessage) {
      ws->setOnMessage([this](int m) { onClientMessage(m); });
    } else {
      return;
    }
    ws->connectToSocket(fd);
    ws->setOnMessage(nullptr);
  }
  std::function<void(std::shared_ptr<Socket>)> onConnection;
  std::function<void(int)> onClientMessage;
};

// The same through a reference and a pointer.
void serveReference(Socket &s, int fd) {
  s.setOnMessage([](int) {});
  s.connectToSocket(fd);
}
void servePointer(Socket *s, int fd) {
  if (!s->isOnMessageRegistered())
    return;
  s->connectToSocket(fd);
}

int Socket::connectLogged(int fd) {
  onMessage(fd); // no-warning
  return fd;
}
void serveLogged(Socket &s, int fd) {
  s.setOnMessageOrLog();
  s.connectLogged(fd);
}

// True neighbours. A client that connects without registering a callback.
int Socket::connectClient(int fd) {
  onMessage(fd);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'onMessage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Socket::onMessage' is assigned a value from 'cb' in 'Socket::setOnMessage' ({{.*}}.cpp:30)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'cb' of 'Socket::setOnMessage' is passed an empty callable in 'Server::handleUpgrade' ({{.*}}.cpp:91)
  return fd;
}
void runClient(int fd) {
  auto ws = std::make_shared<Socket>();
  ws->connectClient(fd);
}

// A setter that sets the field only on some paths.
int Socket::connectConditionally(int fd) {
  onMessage(fd);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'onMessage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Socket::onMessage' is assigned a value from 'cb' in 'Socket::setOnMessage' ({{.*}}.cpp:30)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'cb' of 'Socket::setOnMessage' is passed an empty callable in 'Server::handleUpgrade' ({{.*}}.cpp:91)
  return fd;
}
void runConditionally(Socket &s, bool on, int fd) {
  s.setOnMessageIf([](int) {}, on);
  s.connectConditionally(fd);
}

// A lock whose constructor is handed the object.
int Socket::connectAfterSync(int fd) {
  onMessage(fd);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'onMessage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Socket::onMessage' is assigned a value from 'cb' in 'Socket::setOnMessage' ({{.*}}.cpp:30)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'cb' of 'Socket::setOnMessage' is passed an empty callable in 'Server::handleUpgrade' ({{.*}}.cpp:91)
  return fd;
}
void runAfterSync(Socket &s, int fd) {
  if (s.checkedAfterSync())
    s.connectAfterSync(fd);
}

// Another object's callback was set.
int Socket::connectOther(int fd) {
  onMessage(fd);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'onMessage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Socket::onMessage' is assigned a value from 'cb' in 'Socket::setOnMessage' ({{.*}}.cpp:30)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'cb' of 'Socket::setOnMessage' is passed an empty callable in 'Server::handleUpgrade' ({{.*}}.cpp:91)
  return fd;
}
void runOther(std::shared_ptr<Socket> a, std::shared_ptr<Socket> b, int fd) {
  a->setOnMessage([](int) {});
  b->connectOther(fd);
}

// The smart pointer is pointed at a new object between the test and the
// call.
int Socket::connectReassigned(int fd) {
  onMessage(fd);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'onMessage' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: 'Socket::onMessage' is assigned a value from 'cb' in 'Socket::setOnMessage' ({{.*}}.cpp:30)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'cb' of 'Socket::setOnMessage' is passed an empty callable in 'Server::handleUpgrade' ({{.*}}.cpp:91)
  return fd;
}
void runReassigned(int fd) {
  auto ws = std::make_shared<Socket>();
  ws->setOnMessage([](int) {});
  ws = std::make_shared<Socket>();
  ws->connectReassigned(fd);
}
