// Declarations shared by unchecked-policy-call-facts-file.cpp and the other
// TU of its project, policies.cpp.
#include <functional>

using WrapFn = std::function<int(int)>;
using HookFn = std::function<void(int)>;

struct Config {
  bool no_wrap = false;
};

WrapFn select_wrapper(const Config &cfg); // may return empty (policies.cpp)
WrapFn default_policy();                  // never returns empty
WrapFn lookup_wrapper(int id);            // defined nowhere; tested in policies.cpp
WrapFn unknown_wrapper(int id);           // defined nowhere, tested nowhere

struct Layer {
  Layer(int in, int out);
  explicit Layer(HookFn h);
  void backward(int g);
  HookFn grad_hook;
};
