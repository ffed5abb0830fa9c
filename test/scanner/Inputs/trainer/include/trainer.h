// A small trainer whose bugs are split across files (see
// test/scanner/project-evidence-trainer.test). No TU alone can tell which
// callables may be empty; the project's facts can.
#pragma once
#include <functional>
#include <map>
#include <string>

struct Module {
  int depth = 0;
};
using WrapFn = std::function<Module(Module)>;
using Hook = std::function<void(int)>;
using Act = std::function<float(float)>;

enum class WrapMode { NO_WRAP, TRANSFORMER_BASED, SIZE_BASED };
struct Config {
  WrapMode mode = WrapMode::NO_WRAP;
  std::string activation = "gelu";
};

// policies.cpp: empty for NO_WRAP.
WrapFn resolve_wrap_policy(const Config &cfg);
// policies.cpp: never empty, whatever its name suggests.
WrapFn default_policy();

// fsdp.cpp
Module fsdp2_prepare_model(const Config &cfg, Module m);
Module fsdp2_apply_ac(const Config &cfg, Module m);
Module apply_default(Module m);

// engine.cpp: Engine(int) leaves after_step_ empty. loop.cpp runs it.
class Engine {
public:
  explicit Engine(Hook after_step);
  explicit Engine(int steps);
  void run_epoch(int n);

private:
  Hook after_step_;
  int steps_ = 1;
};

// engine.cpp: every constructor sets sink_. loop.cpp uses it.
class Logger {
public:
  Logger();
  explicit Logger(Hook sink);
  void log(int value);
  void flush();

private:
  Hook sink_;
};

// registry.cpp: get() is null when the name is missing.
class Registry {
public:
  void add(const std::string &name, Act fn);
  const Act *get(const std::string &name) const;

private:
  std::map<std::string, Act> fns_;
};

// activations.cpp
float apply_activation(const Registry &reg, const Config &cfg, float x);
float apply_known(std::map<std::string, Act> &table, const std::string &name,
                  float x);
float apply_counted(std::map<std::string, Act> &table,
                    const std::string &name, float x);
float map_value(const Act &fn, float x);
template <class F> float apply_template(F f, float x) { return f(x); }
