// RUN: %check_wrapguard %s %t

// A write to an object whose life ends before anything can read it again is
// tidying, not a state that a call on a live object can meet: the facts take
// no emptying from it. (StrictMode reports a call through a field without
// evidence anyway, so these cases are about the default mode.) Such an object is `*this` in its own
// destructor (or a derived class's), and an object freed right after the
// writes to it (`c->cb = NULL; free(c);`). A method that only the destructor
// calls on its own object runs as the object dies too: its emptying counts
// only where another caller runs it. Each hard negative has a true
// neighbour.

#include <cstdlib>
#include <functional>
#include <utility>

using Handler = std::function<void(int)>;

// Hard negative: the destructor empties the callback of the object it ends.
class Connection {
public:
  explicit Connection(Handler h) : on_message_(std::move(h)) {}
  ~Connection() { on_message_ = nullptr; }
  void deliver(int x) { on_message_(x); } // no-warning

private:
  Handler on_message_;
};

// Hard negative: a derived class's destructor, through `this->`, and a move
// out of the dying object.
Handler last_done;
struct Base {
  explicit Base(Handler h) : cb(h), done(h) {}
  virtual ~Base() = default;
  Handler cb, done;
  void fire(int x) {
    cb(x);   // no-warning
    done(x); // no-warning
  }
};
struct Derived : Base {
  Derived() : Base([](int) {}) {}
  ~Derived() override {
    this->cb = nullptr;
    last_done = std::move(done);
  }
};

// Hard negative: a method that only the destructor calls on its own object.
class Session {
public:
  explicit Session(Handler h) : on_close_(std::move(h)) {}
  ~Session() { teardown(); }
  void closed(int code) {
    on_close_(code); // no-warning
  }

private:
  void teardown() { on_close_ = nullptr; }
  Handler on_close_;
};

// True neighbour: the same method, called by the destructor and by `stop`,
// which the project calls on a live object.
class Channel {
public:
  explicit Channel(Handler h) : on_close_(std::move(h)) {}
  ~Channel() { teardown(); }
  void stop() { teardown(); }
  void closed(int code) {
    on_close_(code);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'on_close_' [wrapguard-unchecked-policy-call]
  }

private:
  void teardown() { on_close_ = nullptr; }
  Handler on_close_;
};

void run_channel() {
  Channel c([](int) {});
  c.stop();
  c.closed(0);
}

// True neighbour: a destructor that empties another, live object's callback
// (the next node of a chain).
class Node {
public:
  explicit Node(Handler h, Node *next) : cb_(std::move(h)), next_(next) {}
  ~Node() {
    if (next_)
      next_->cb_ = nullptr;
  }
  void notify(int x) {
    cb_(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'cb_' [wrapguard-unchecked-policy-call]
  }

private:
  Handler cb_;
  Node *next_;
};

// True neighbour: in the destructor, a call after its own emptying is found
// by the flow analysis of the destructor.
class Logger {
public:
  explicit Logger(Handler h) : sink_(std::move(h)) {}
  ~Logger() {
    sink_ = nullptr;
    sink_(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through callable 'sink_', which is always empty here [wrapguard-unchecked-policy-call]
  }

private:
  Handler sink_;
};

// Hard negative: a C-style object whose callbacks are cleared right before
// it is freed (its buffer freed between).
struct Client {
  void (*on_read)(int);
  void (*on_close)(int);
  char *buf;
};
void client_read(Client *c, int n) {
  c->on_read(n); // no-warning
}
void client_destroy(Client *c) {
  c->on_read = NULL;
  c->on_close = NULL;
  free(c->buf);
  free(c);
}

// True neighbour: the callback is cleared and the object lives on (only its
// buffer is freed).
struct Peer {
  void (*on_read)(int);
  char *buf;
};
void peer_read(Peer *p, int n) {
  p->on_read(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'p->on_read' [wrapguard-unchecked-policy-call]
}
void peer_reset(Peer *p) {
  p->on_read = NULL;
  free(p->buf);
}

// Hard negative: `delete` ends the object whose callback was cleared.
struct Job {
  std::function<void()> done;
};
void finish(Job *j) {
  j->done(); // no-warning
}
void retire(Job *j) {
  j->done = nullptr;
  delete j;
}

// True neighbour: deleting the callable's pointee is no end of the object
// that holds the pointer; the emptying in drop_slot is evidence for a call
// in another function. run_slot's own emptying, after its one call, is not
// (-evidence-own-emptyings.cpp): it reaches the call only in a second run
// on the same slot, which nothing here shows.
struct Task {
  void operator()() {}
};
struct Slot {
  Task *task;
};
struct Pool {
  Task *task;
};
void drop_slot(Pool *s) {
  delete s->task;
  s->task = nullptr;
}
void fire_slot(Pool *s) {
  (*s->task)();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 's->task' [wrapguard-unchecked-policy-call]
}
void run_slot(Slot *s) {
  (*s->task)(); // no-warning
  delete s->task;
  s->task = nullptr;
}

void use_all() {
  Connection conn([](int) {});
  conn.deliver(1);
  Derived d;
  d.fire(2);
  Session s([](int) {});
  s.closed(3);
}
