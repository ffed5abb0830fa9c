// A project whose evidence is belief (a library function tested in a.cpp,
// called untested in b.cpp), virtual overrides defined in other files, and
// an aggregate's callback member. See project-evidence-belief.test.
#pragma once
#include <functional>
#include <string>

using Fn = std::function<int(int)>;

// Defined in no TU of this project (a library): only belief can judge it.
class Registry {
public:
  Fn Get(const std::string &name) const;
  Fn Lookup(const std::string &name) const;
  Fn Require(const std::string &name) const;
};

// Virtual: the overrides seen decide.
struct Policy {
  virtual ~Policy() = default;
  virtual Fn make() const = 0;
  virtual Fn make_always() const = 0;
};
struct Strict : Policy {
  Fn make() const override;
  Fn make_always() const override;
};
struct Lenient : Policy {
  Fn make() const override;
  Fn make_always() const override;
};

struct Hooks {
  Fn after_step;
  Fn before_step = [](int x) { return x; };
};
void set_hooks(Hooks &h);
