// RUN: %check_wrapguard %s %t -- -std=c++17
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}" -- -std=c++17

// A base subobject is constructed by its derived class's constructor, whose
// body runs right after, before anyone has the object: a callable field of
// the base that the body sets on every path (by its flow analysis) is set
// by that construction, as a factory's set right after `make_shared` is.
// ZLToolKit's `CMD`: every command (`CMD_help`, `CMD_exit`, ..) sets
// `_parser` in its constructor, and `CMD::operator()` calls `(*_parser)(..)`.

#include <map>
#include <memory>
#include <string>

struct Parser {
  void operator()(int) {}
};

class CMD {
public:
  virtual ~CMD() = default;
  void run(int a) { (*_parser)(a); } // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:23: warning: call through possibly empty callable '_parser' [wrapguard-unchecked-policy-call]
protected:
  std::shared_ptr<Parser> _parser;
};
class CMD_help : public CMD {
public:
  CMD_help() { _parser = std::make_shared<Parser>(); }
};
class CMD_exit : public CMD {
public:
  explicit CMD_exit(int code) {
    if (code < 0)
      code = 0;
    _parser = std::make_shared<Parser>();
  }
};
void register_commands(std::map<std::string, std::shared_ptr<CMD>> &m) {
  m["help"] = std::make_shared<CMD_help>();
  m["exit"] = std::make_shared<CMD_exit>(0);
}

// True neighbours: bodies that leave it empty, on every path or on one.
class Tool {
public:
  virtual ~Tool() = default;
  void run(int a) { (*_parser)(a); }
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: call through possibly empty callable '_parser' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:23: note: 'Tool::_parser' is set by none of the 2 constructions of 'Tool' in the project
  // CHECK-NOTES: :[[@LINE-3]]:23: note: 'Tool' is constructed with 'Tool{}', which leaves 'Tool::_parser' empty, in 'Tool_a::Tool_a' ({{.*}}.cpp:[[@LINE+9]])
  // CHECK-NOTES-STRICT: :[[@LINE-4]]:23: warning: call through possibly empty callable '_parser' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:23: note: 'Tool::_parser' is set by none of the 2 constructions of 'Tool' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:23: note: 'Tool' is constructed with 'Tool{}', which leaves 'Tool::_parser' empty, in 'Tool_a::Tool_a' ({{.*}}.cpp:[[@LINE+6]])
protected:
  std::shared_ptr<Parser> _parser;
};
class Tool_a : public Tool {
public:
  Tool_a() {}
};
class Tool_b : public Tool {
public:
  explicit Tool_b(bool with) {
    if (with)
      _parser = std::make_shared<Parser>();
  }
};
void register_tools(std::map<std::string, std::shared_ptr<Tool>> &m) {
  m["a"] = std::make_shared<Tool_a>();
  m["b"] = std::make_shared<Tool_b>(false);
}
