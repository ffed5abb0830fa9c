// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// A call under a test of the very expression it calls through is guarded
// by it, even where the flow analysis does not follow the callable's
// storage (a member of a member reached through a pointer member of
// `this`), when nothing between the test and the call may change it (no
// call, assignment or increment). Without this, the guarding test itself
// read as the project's belief that the value may be empty, and the note
// suggested the test the code already has (marl's worker initializer).

#include <functional>

struct Config {
  std::function<void(int)> initializer;
};
struct Scheduler {
  Config cfg;
};
void reconfigure(Scheduler *s);

struct Worker {
  Scheduler *scheduler = nullptr;
  Scheduler *other = nullptr;
  int id = 0;

  void start() {
    if (auto const &init = scheduler->cfg.initializer) { // (marl)
      init(id); // no-warning
    }
  }
  void start_plain() {
    if (scheduler->cfg.initializer)
      scheduler->cfg.initializer(id); // no-warning
  }
  void start_early_exit() {
    if (!scheduler->cfg.initializer)
      return;
    scheduler->cfg.initializer(id); // no-warning
  }

  // True neighbours: a call between the test and the call may change it,
  // and a test of another object does not guard this one.
  void start_after_reconfigure() {
    if (scheduler->cfg.initializer) {
      reconfigure(scheduler);
      scheduler->cfg.initializer(id);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:[[@LINE-21]])
      // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:[[@LINE-23]])
    }
  }
  void start_other() {
    if (other->cfg.initializer)
      scheduler->cfg.initializer(id);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'scheduler->cfg.initializer' is not empty before this call, e.g. 'if (scheduler->cfg.initializer)'
      // CHECK-NOTES: :[[@LINE-3]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:[[@LINE-31]])
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: warning: call through possibly empty callable 'scheduler->cfg.initializer' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: check that 'scheduler->cfg.initializer' is not empty before this call, e.g. 'if (scheduler->cfg.initializer)'
      // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: a value from 'Config::initializer' is checked for emptiness in 'Worker::start' ({{.*}}.cpp:[[@LINE-34]])
  }
};

// Through a standard library's iterator (or smart pointer, or optional):
// its `->` and `*` only observe the object, so `if (ite->cb)
// (*ite->cb)(..);` tests and calls the same element (Livox-SDK's command
// handler, over a std::list of commands whose default construction leaves
// the callback empty). Moving the iterator in between, or not testing,
// keeps the finding.
#include <list>
#include <memory>

using CommandCallback = std::function<void(int)>;
struct Command {
  int handle = 0;
  std::shared_ptr<CommandCallback> cb;
};
struct CommandHandler {
  std::list<Command> commands;
  void add_blank() { commands.push_back(Command()); }
  void dispatch(int status) {
    for (std::list<Command>::iterator ite = commands.begin();
         ite != commands.end(); ++ite) {
      if (ite->cb) {
        (*ite->cb)(status); // no-warning
      }
    }
  }
  void dispatch_star(int status) {
    for (auto ite = commands.begin(); ite != commands.end(); ++ite)
      if ((*ite).cb)
        (*(*ite).cb)(status); // no-warning
  }
  void dispatch_advanced(int status) {
    for (auto ite = commands.begin(); ite != commands.end(); ++ite)
      if (ite->cb && ite != commands.end()) {
        ++ite;
        (*ite->cb)(status);
        // CHECK-NOTES: :[[@LINE-1]]:11: warning: call through possibly empty callable 'ite->cb' [wrapguard-unchecked-policy-call]
        // CHECK-NOTES: :[[@LINE-2]]:11: note: check that 'ite->cb' is not empty before this call, e.g. 'if (ite->cb)'
        // CHECK-NOTES: :[[@LINE-3]]:11: note: 'Command::cb' is not set by the only construction of 'Command' in the project
        // CHECK-NOTES: :[[@LINE-4]]:11: note: 'Command' is constructed with 'Command{}', which leaves 'Command::cb' empty, in 'CommandHandler::add_blank' ({{.*}}.cpp:[[@LINE-22]])
        // CHECK-NOTES-STRICT: :[[@LINE-5]]:11: warning: call through possibly empty callable 'ite->cb' [wrapguard-unchecked-policy-call]
        // CHECK-NOTES-STRICT: :[[@LINE-6]]:11: note: check that 'ite->cb' is not empty before this call, e.g. 'if (ite->cb)'
        // CHECK-NOTES-STRICT: :[[@LINE-7]]:11: note: 'Command::cb' is not set by the only construction of 'Command' in the project
        // CHECK-NOTES-STRICT: :[[@LINE-8]]:11: note: 'Command' is constructed with 'Command{}', which leaves 'Command::cb' empty, in 'CommandHandler::add_blank' ({{.*}}.cpp:[[@LINE-26]])
      }
  }
  void dispatch_unchecked(int status) {
    for (auto ite = commands.begin(); ite != commands.end(); ++ite)
      (*ite->cb)(status);
      // CHECK-NOTES: :[[@LINE-1]]:9: warning: call through possibly empty callable 'ite->cb' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:9: note: check that 'ite->cb' is not empty before this call, e.g. 'if (ite->cb)'
      // CHECK-NOTES: :[[@LINE-3]]:9: note: 'Command::cb' is not set by the only construction of 'Command' in the project
      // CHECK-NOTES: :[[@LINE-4]]:9: note: 'Command' is constructed with 'Command{}', which leaves 'Command::cb' empty, in 'CommandHandler::add_blank' ({{.*}}.cpp:[[@LINE-35]])
      // CHECK-NOTES-STRICT: :[[@LINE-5]]:9: warning: call through possibly empty callable 'ite->cb' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-6]]:9: note: check that 'ite->cb' is not empty before this call, e.g. 'if (ite->cb)'
      // CHECK-NOTES-STRICT: :[[@LINE-7]]:9: note: 'Command::cb' is not set by the only construction of 'Command' in the project
      // CHECK-NOTES-STRICT: :[[@LINE-8]]:9: note: 'Command' is constructed with 'Command{}', which leaves 'Command::cb' empty, in 'CommandHandler::add_blank' ({{.*}}.cpp:[[@LINE-39]])
  }
};

// Through a project's own handle whose `->` is const: it only observes the
// handle, so the same handle, unchanged, points to the same node (casadi's
// `FunctionBuffer`, `if (f_->checkout_) mem_ = f_->checkout_();`, with
// `FunctionInternal *Function::operator->() const` defined in another TU).
// A non-const `->` of the project's may do anything; a handle reassigned
// in between, or no test, keeps the finding.
using checkout_t = int (*)();
struct FunctionInternal {
  checkout_t checkout_ = nullptr;
  void unload() { checkout_ = nullptr; }
};
struct Function {
  FunctionInternal *operator->() const;
};
struct MutableHandle {
  FunctionInternal *operator->();
};
void unload_all(FunctionInternal &f) { f.unload(); }
struct FunctionBuffer {
  Function f_;
  MutableHandle m_;
  int mem_ = 0;
  void checkout() {
    if (f_->checkout_)
      mem_ = f_->checkout_(); // no-warning
  }
  void checkout_through_a_mutable_handle() {
    if (m_->checkout_)
      mem_ = m_->checkout_();
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'm_->checkout_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:14: note: check that 'm_->checkout_' is not empty before this call, e.g. 'if (m_->checkout_)'
      // CHECK-NOTES: :[[@LINE-3]]:14: note: 'FunctionInternal::checkout_' is made empty in 'FunctionInternal::unload' ({{.*}}.cpp:[[@LINE-22]])
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:14: warning: call through possibly empty callable 'm_->checkout_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-5]]:14: note: check that 'm_->checkout_' is not empty before this call, e.g. 'if (m_->checkout_)'
      // CHECK-NOTES-STRICT: :[[@LINE-6]]:14: note: 'FunctionInternal::checkout_' is made empty in 'FunctionInternal::unload' ({{.*}}.cpp:[[@LINE-25]])
  }
  void checkout_another(const Function &g) {
    if (f_->checkout_) {
      f_ = g;
      mem_ = f_->checkout_();
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: call through possibly empty callable 'f_->checkout_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:14: note: check that 'f_->checkout_' is not empty before this call, e.g. 'if (f_->checkout_)'
      // CHECK-NOTES: :[[@LINE-3]]:14: note: 'FunctionInternal::checkout_' is made empty in 'FunctionInternal::unload' ({{.*}}.cpp:[[@LINE-33]])
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:14: warning: call through possibly empty callable 'f_->checkout_' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-5]]:14: note: check that 'f_->checkout_' is not empty before this call, e.g. 'if (f_->checkout_)'
      // CHECK-NOTES-STRICT: :[[@LINE-6]]:14: note: 'FunctionInternal::checkout_' is made empty in 'FunctionInternal::unload' ({{.*}}.cpp:[[@LINE-36]])
    }
  }
  void checkout_unchecked() { mem_ = f_->checkout_(); }
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: call through possibly empty callable 'f_->checkout_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:38: note: check that 'f_->checkout_' is not empty before this call, e.g. 'if (f_->checkout_)'
  // CHECK-NOTES: :[[@LINE-3]]:38: note: 'FunctionInternal::checkout_' is made empty in 'FunctionInternal::unload' ({{.*}}.cpp:[[@LINE-42]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:38: warning: call through possibly empty callable 'f_->checkout_' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:38: note: check that 'f_->checkout_' is not empty before this call, e.g. 'if (f_->checkout_)'
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:38: note: 'FunctionInternal::checkout_' is made empty in 'FunctionInternal::unload' ({{.*}}.cpp:[[@LINE-45]])
};

// The same element of a standard sequence, by the same index as written,
// arithmetic included (simgrid's `Extendable` destructor: `if
// (extensions_[i - 1] != nullptr && deleters_[i - 1]) deleters_[i -
// 1](extensions_[i - 1]);`). Another index is another element.
#include <cstddef>
#include <vector>
struct Extensions {
  std::vector<void *> data_;
  std::vector<void (*)(void *)> deleters_;
  ~Extensions() {
    for (std::size_t i = data_.size(); i > 1; --i)
      if (data_[i - 1] != nullptr && deleters_[i - 1])
        deleters_[i - 1](data_[i - 1]); // no-warning
  }
  void drop(std::size_t i, std::size_t j) {
    if (deleters_[i + 1])
      deleters_[j + 1](data_[j]);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'deleters_[j + 1]' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'deleters_[j + 1]' is not empty before this call, e.g. 'if (deleters_[j + 1])'
      // CHECK-NOTES: :[[@LINE-3]]:7: note: a value from 'Extensions::deleters_[]' is checked for emptiness in 'Extensions::~Extensions' ({{.*}}.cpp:[[@LINE-8]])
      // CHECK-NOTES-STRICT: :[[@LINE-4]]:7: warning: call through possibly empty callable 'deleters_[j + 1]' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES-STRICT: :[[@LINE-5]]:7: note: check that 'deleters_[j + 1]' is not empty before this call, e.g. 'if (deleters_[j + 1])'
      // CHECK-NOTES-STRICT: :[[@LINE-6]]:7: note: a value from 'Extensions::deleters_[]' is checked for emptiness in 'Extensions::~Extensions' ({{.*}}.cpp:[[@LINE-11]])
  }
};
