// RUN: %check_wrapguard %s %t -- -std=c++17

// A callable kept in a standard container that a field or a global holds is
// stored in one function and called in another: the container's elements
// are a source, and what the project stores there decides. maplibre's Qt
// run loop moved one callback into both of its watch maps, so the second
// held a moved-from, empty callable; capicxx's events self-moved a listener
// (`listener = std::move(listener);`, empty with libc++) and stored it in a
// tuple that a second map received.

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using Cb = std::function<void(int)>;
using WatchPair = std::pair<int, Cb>;

struct Loop {
  std::map<int, WatchPair> reads;
  std::map<int, WatchPair> writes;
  void watch(int fd, bool r, bool w, Cb &&cb);
  void on_read(int fd) { reads[fd].second(fd); } // no-warning
  void on_write(int fd) {
    writes[fd].second(fd);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'writes[fd].second' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'writes[fd].second' is not empty before this call, e.g. 'if (writes[fd].second)'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: a callable that may be empty is stored in 'Loop::writes[].second' in 'Loop::watch' ({{.*}}.cpp:[[@LINE+7]])
  }
};
void Loop::watch(int fd, bool r, bool w, Cb &&cb) {
  if (r)
    reads[fd] = WatchPair(fd, std::move(cb));
  if (w)
    writes[fd] = WatchPair(fd, std::move(cb));
}
void use_loop(Loop &l) { l.watch(3, true, true, [](int) {}); }

// A self-move, through a local tuple and a second map.
struct Event {
  using Listener = std::function<void(int)>;
  using ErrorListener = std::function<void(int)>;
  using Listeners = std::tuple<Listener, ErrorListener>;
  std::map<int, Listeners> pending, live;
  int next = 0;
  int subscribe(Listener listener, ErrorListener on_error = nullptr) {
    Listeners ls;
    listener = std::move(listener);
    ls = std::make_tuple(listener, std::move(on_error));
    pending[next] = std::move(ls);
    return next++;
  }
  void apply() {
    for (auto it = pending.begin(); it != pending.end(); ++it)
      live.insert(*it);
    pending.clear();
  }
  void notify(int v) {
    apply();
    for (auto it = live.begin(); it != live.end(); ++it)
      std::get<0>(it->second)(v);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'std::get<0>(it->second)' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'std::get<0>(it->second)' is not empty before this call, e.g. 'if (std::get<0>(it->second))'
      // CHECK-NOTES: :[[@LINE-3]]:7: note: 'std::get<0>(Event::live[])' is given the value of 'std::get<0>(Event::pending[])' in 'Event::apply' ({{.*}}.cpp:[[@LINE-9]])
      // CHECK-NOTES: :[[@LINE-4]]:7: note: a callable that may be empty is stored in 'std::get<0>(Event::pending[])' in 'Event::subscribe' ({{.*}}.cpp:[[@LINE-15]])
  }
  void notify_error(int v) {
    // The error part is stored empty by default, but every call tests it.
    for (auto &entry : live)
      if (const ErrorListener &e = std::get<1>(entry.second))
        e(v); // no-warning
  }
};
void use_event(Event &e) { e.subscribe([](int) {}); }

// A sequence: a null entry stored beside set ones, called in a range-for.
typedef void (*hook_fn)(int);
std::vector<hook_fn> g_hooks;
void on_exit_hook(int) {}
void install() {
  g_hooks.push_back(&on_exit_hook);
  g_hooks.push_back(nullptr);
}
void run_hooks(int code) {
  for (hook_fn h : g_hooks)
    h(code);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'h' [wrapguard-unchecked-policy-call]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: check that 'h' is not empty before this call, e.g. 'if (h)'
    // CHECK-NOTES: :[[@LINE-4]]:18: note: a callable that may be empty is stored in 'g_hooks[]' in 'install' ({{.*}}.cpp:[[@LINE-7]])
}

// Built in place: emplace_back's arguments are the pair's members.
struct Registry {
  std::vector<std::pair<std::string, Cb>> named;
  void add(const std::string &n, Cb cb = nullptr) { named.emplace_back(n, cb); }
  void fire(int v) {
    for (auto &p : named)
      p.second(v);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: call through possibly empty callable 'p.second' [wrapguard-unchecked-policy-call]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: check that 'p.second' is not empty before this call, e.g. 'if (p.second)'
      // CHECK-NOTES: :[[@LINE-3]]:7: note: 'Registry::named[].second' is given the value of 'cb' in 'Registry::add' ({{.*}}.cpp:[[@LINE-6]])
      // CHECK-NOTES: :[[@LINE-4]]:7: note: 'cb' of 'Registry::add' is passed an empty callable in 'use_registry' ({{.*}}.cpp:[[@LINE+3]])
  }
};
void use_registry(Registry &r) { r.add("x"); }

// Hard negatives.

// Every write stores a set callable: no evidence, no finding.
struct Table {
  std::map<std::string, std::pair<int, Cb>> entries;
  void add(const std::string &k) { entries[k] = {1, [](int) {}}; }
  void add_fn(const std::string &k, Cb f) { entries.emplace(k, std::make_pair(2, std::move(f))); }
  void call(const std::string &k) { entries.at(k).second(0); } // no-warning
};
void use_table(Table &t) { t.add_fn("a", [](int) {}); }

// The moves are in the two branches of one `if`: neither reads a
// moved-from value.
struct Either {
  std::vector<Cb> fast, slow;
  void add(bool quick, Cb cb) {
    if (quick)
      fast.push_back(std::move(cb));
    else
      slow.push_back(std::move(cb));
  }
  void run() {
    for (auto &f : slow)
      f(1); // no-warning
  }
};
void use_either(Either &e) { e.add(false, [](int) {}); }

// A move the function returns after does not reach the second write.
struct Early {
  std::vector<Cb> a, b;
  void add(bool first, Cb cb) {
    if (first) {
      a.push_back(std::move(cb));
      return;
    }
    b.push_back(std::move(cb));
  }
  void run() { b.front()(1); } // no-warning
};
void use_early(Early &e) { e.add(true, [](int) {}); }

// Another container's empty write says nothing of this one; nor does an
// empty write in a local container, which its function's own analysis
// judges.
struct Two {
  std::vector<Cb> empty_ones, set_ones;
  void fill() {
    empty_ones.push_back(nullptr);
    set_ones.push_back([](int) {});
    std::vector<Cb> scratch;
    scratch.push_back(nullptr);
  }
  void run() { set_ones[0](1); } // no-warning
  // The true neighbour: the container with the empty write.
  void run_empty() { empty_ones[0](1); }
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: call through possibly empty callable 'empty_ones[0]' [wrapguard-unchecked-policy-call]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: check that 'empty_ones[0]' is not empty before this call, e.g. 'if (empty_ones[0])'
  // CHECK-NOTES: :[[@LINE-3]]:22: note: a callable that may be empty is stored in 'Two::empty_ones[]' in 'Two::fill' ({{.*}}.cpp:[[@LINE-10]])
};
