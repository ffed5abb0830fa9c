// RUN: %check_wrapguard %s %t
// RUN: %check_wrapguard %s %t -check-suffix=STRICT \
// RUN:   -config="{CheckOptions: {wrapguard-unchecked-policy-call.StrictMode: true}}"

// "No construction sets the field, and nothing sets it afterwards" is
// evidence only where the project shows everything that could set it. A
// plugin table that its constructor leaves empty and a registration
// function found at run time fills in (`Plugin plugin; regfcn(&plugin);`,
// casadi's `PluginInterface::pluginFromRegFcn`, `regfcn` from `dlsym`) is set
// by code no TU shows. An object handed, by pointer or non-const reference,
// through a function pointer makes its class's constructions no such
// evidence, for its own fields and its members' (`exposed.is_directory`),
// when the project defines no function of the pointer's signature: had it
// one, the facts would see what that function sets. A class never handed,
// handed as const, or handed through a signature the project defines keeps
// the finding; so does one whose field a test elsewhere says may be empty
// (belief).

#include <map>
#include <stdexcept>
#include <string>

void *find_symbol(const char *name);

typedef bool (*IsDirectory)(const std::string &);
typedef void *(*Creator)(const std::string &);
struct Exposed {
  IsDirectory is_directory;
};
struct Plugin {
  Creator creator;
  const char *name;
  Exposed exposed;
  Plugin() : creator(nullptr), name(nullptr), exposed() {}
};
typedef int (*RegFcn)(Plugin *plugin);

std::map<std::string, Plugin> solvers;

Plugin pluginFromRegFcn(RegFcn regfcn) {
  Plugin plugin;
  int flag = regfcn(&plugin);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:14: warning: call through possibly empty callable 'regfcn' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:14: note: check that 'regfcn' is not empty before this call, e.g. 'if (regfcn)'
  if (flag != 0)
    throw std::runtime_error("registration failed");
  return plugin;
}

Plugin &getPlugin(const std::string &name) {
  auto it = solvers.find(name);
  if (it == solvers.end()) {
    std::string sym = "register_" + name;
    auto reg = reinterpret_cast<RegFcn>(find_symbol(sym.c_str()));
    if (!reg)
      throw std::runtime_error("no plugin " + name);
    solvers[name] = pluginFromRegFcn(reg);
    it = solvers.find(name);
  }
  return it->second;
}

// The hard negatives.
bool is_directory(const std::string &path) {
  return getPlugin("ghc").exposed.is_directory(path); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'getPlugin("ghc").exposed.is_directory' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:10: note: check that 'getPlugin("ghc").exposed.is_directory' is not empty before this call, e.g. 'if (getPlugin("ghc").exposed.is_directory)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:10: note: 'Exposed' is constructed with 'Exposed{}', which leaves 'Exposed::is_directory' empty, in 'Plugin::Plugin' ({{.*}}.cpp:[[@LINE-34]])
}
void *instantiate(const std::string &name) {
  return getPlugin(name).creator(name); // no-warning
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:10: warning: call through possibly empty callable 'getPlugin(name).creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-2]]:10: note: check that 'getPlugin(name).creator' is not empty before this call, e.g. 'if (getPlugin(name).creator)'
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:10: note: 'Plugin' is constructed with 'Plugin()', which leaves 'Plugin::creator' empty, in 'pluginFromRegFcn' ({{.*}}.cpp:[[@LINE-33]])
}

// The true neighbours: a table nothing hands anywhere...
struct Hooks {
  Creator creator;
  Hooks() : creator(nullptr) {}
};
Hooks hooks;
void *make_hooked(const std::string &name) {
  return hooks.creator(name);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'hooks.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'hooks.creator' is not empty before this call, e.g. 'if (hooks.creator)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'Hooks::creator' is not set by the only construction of 'Hooks' in the project
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'Hooks' is constructed with 'Hooks()', which leaves 'Hooks::creator' empty, in 'hooks' ({{.*}}.cpp:[[@LINE-6]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:10: warning: call through possibly empty callable 'hooks.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:10: note: check that 'hooks.creator' is not empty before this call, e.g. 'if (hooks.creator)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:10: note: 'Hooks::creator' is not set by the only construction of 'Hooks' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:10: note: 'Hooks' is constructed with 'Hooks()', which leaves 'Hooks::creator' empty, in 'hooks' ({{.*}}.cpp:[[@LINE-10]])
}

// ...one handed only as const...
struct Options {
  Creator creator;
  Options() : creator(nullptr) {}
};
typedef void (*Inspect)(const Options *);
Options make_options(Inspect inspect) {
  Options o;
  inspect(&o);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'inspect' [wrapguard-unchecked-policy-call]
  return o;
}
void *run_options(Options &o, const std::string &name) {
  return o.creator(name);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'o.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'o.creator' is not empty before this call, e.g. 'if (o.creator)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'Options::creator' is not set by the only construction of 'Options' in the project
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'Options' is constructed with 'Options()', which leaves 'Options::creator' empty, in 'make_options' ({{.*}}.cpp:[[@LINE-10]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:10: warning: call through possibly empty callable 'o.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:10: note: check that 'o.creator' is not empty before this call, e.g. 'if (o.creator)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:10: note: 'Options::creator' is not set by the only construction of 'Options' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:10: note: 'Options' is constructed with 'Options()', which leaves 'Options::creator' empty, in 'make_options' ({{.*}}.cpp:[[@LINE-14]])
}

// ...one handed through a pointer of a signature the project defines a
// function of (a C interface's `ops->init(obj)`), whose effect the facts
// see: it sets nothing here...
struct Codec {
  Creator creator;
  Codec() : creator(nullptr) {}
};
typedef int (*CodecInit)(Codec *);
static int init_plain(Codec *) { return 0; }
Codec make_codec(CodecInit init) {
  Codec c;
  init(&c);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'init' [wrapguard-unchecked-policy-call]
  return c;
}
Codec plain_codec() { return make_codec(init_plain); }
void *run_codec(Codec &c, const std::string &name) {
  return c.creator(name);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'c.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'c.creator' is not empty before this call, e.g. 'if (c.creator)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'Codec::creator' is not set by the only construction of 'Codec' in the project
  // CHECK-NOTES: :[[@LINE-4]]:10: note: 'Codec' is constructed with 'Codec()', which leaves 'Codec::creator' empty, in 'make_codec' ({{.*}}.cpp:[[@LINE-11]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:10: warning: call through possibly empty callable 'c.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:10: note: check that 'c.creator' is not empty before this call, e.g. 'if (c.creator)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:10: note: 'Codec::creator' is not set by the only construction of 'Codec' in the project
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:10: note: 'Codec' is constructed with 'Codec()', which leaves 'Codec::creator' empty, in 'make_codec' ({{.*}}.cpp:[[@LINE-15]])
}

// ...and a handed one whose field a test elsewhere says may be empty.
struct Driver {
  Creator creator;
  Driver() : creator(nullptr) {}
};
typedef int (*DriverReg)(Driver &);
Driver load_driver(DriverReg reg) {
  Driver d;
  reg(d);
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:3: warning: call through possibly empty callable 'reg' [wrapguard-unchecked-policy-call]
  return d;
}
void *try_driver(Driver &d, const std::string &name) {
  if (d.creator)
    return d.creator(name);
  return nullptr;
}
void *run_driver(Driver &d, const std::string &name) {
  return d.creator(name);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call through possibly empty callable 'd.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: check that 'd.creator' is not empty before this call, e.g. 'if (d.creator)'
  // CHECK-NOTES: :[[@LINE-3]]:10: note: 'Driver' is constructed with 'Driver()', which leaves 'Driver::creator' empty, in 'load_driver' ({{.*}}.cpp:[[@LINE-14]])
  // CHECK-NOTES: :[[@LINE-4]]:10: note: a value from 'Driver::creator' is checked for emptiness in 'try_driver' ({{.*}}.cpp:[[@LINE-9]])
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:10: warning: call through possibly empty callable 'd.creator' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES-STRICT: :[[@LINE-6]]:10: note: check that 'd.creator' is not empty before this call, e.g. 'if (d.creator)'
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:10: note: 'Driver' is constructed with 'Driver()', which leaves 'Driver::creator' empty, in 'load_driver' ({{.*}}.cpp:[[@LINE-18]])
  // CHECK-NOTES-STRICT: :[[@LINE-8]]:10: note: a value from 'Driver::creator' is checked for emptiness in 'try_driver' ({{.*}}.cpp:[[@LINE-13]])
}
