// RUN: %check_wrapguard %s %t

// `v[i]` of a std::vector, std::deque or std::array is one element for the
// same container and index: a test of `v[i].f` guards a call through
// `v[i].f` (ncnn's layer registry). A changed index, or a container that may
// have changed (a non-const method, an assignment), is another element.

#include <vector>
struct Layer {};
typedef void (*destroyer_fn)(Layer *, void *);
struct Entry { const char *name; destroyer_fn destroyer; void *userdata; };
struct Priv { std::vector<Entry> reg; };
void register_layer(Priv *d, const char *n, destroyer_fn f = 0) { Entry e = {n, f, nullptr}; d->reg.push_back(e); }
void make(Priv *d) { register_layer(d, "x"); }
void destroy(Priv *d, Layer *layer, int typeindex) {
  int custom_index = typeindex & ~0x100;
  if (d->reg[custom_index].destroyer) {
    d->reg[custom_index].destroyer(layer, d->reg[custom_index].userdata); // no-warning
  } else {
    delete layer;
  }
}

// True neighbours.

void destroy_unguarded(Priv *d, Layer *layer, int i) {
  d->reg[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'd->reg[i].destroyer' [wrapguard-unchecked-policy-call]
}

void destroy_shifted(Priv *d, Layer *layer, int i) {
  if (!d->reg[i].destroyer)
    return;
  i++;
  d->reg[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'd->reg[i].destroyer' [wrapguard-unchecked-policy-call]
}

void destroy_after_erase(Priv *d, Layer *layer, int i) {
  if (!d->reg[i].destroyer)
    return;
  d->reg.erase(d->reg.begin());
  d->reg[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'd->reg[i].destroyer' [wrapguard-unchecked-policy-call]
}

// A callee that takes the container by non-const reference may change it;
// by const reference it cannot.
void compact(std::vector<Entry> &reg);
void count(const std::vector<Entry> &reg);
void destroy_after_compact(Priv *d, Layer *layer, int i) {
  if (!d->reg[i].destroyer)
    return;
  compact(d->reg);
  d->reg[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'd->reg[i].destroyer' [wrapguard-unchecked-policy-call]
}

void destroy_after_count(Priv *d, Layer *layer, int i) {
  if (!d->reg[i].destroyer)
    return;
  count(d->reg);
  d->reg[i].destroyer(layer, nullptr); // no-warning
}

// The same for a built-in array, or a pointer read from a variable or a
// field (brpc's InputMessenger: `if (i == preferred || _handlers[i].parse ==
// nullptr) continue; _handlers[i].parse(..);`).
struct Table {
  Entry *entries;
  Entry fixed[4];
};
void destroy_raw(Table *t, Layer *layer, int n) {
  for (int i = 0; i < n; ++i) {
    if (t->entries[i].destroyer == nullptr)
      continue;
    t->entries[i].destroyer(layer, nullptr); // no-warning
  }
}

void destroy_fixed(Table *t, Layer *layer, int i) {
  if (!t->fixed[i].destroyer)
    return;
  t->fixed[i].destroyer(layer, nullptr); // no-warning
}

// True neighbours: another index, a pointer moved on, a callee that may write
// the elements.
void destroy_raw_next(Table *t, Layer *layer, int i) {
  if (!t->entries[i].destroyer)
    return;
  ++i;
  t->entries[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 't->entries[i].destroyer' [wrapguard-unchecked-policy-call]
}

void destroy_moved(Entry *e, Layer *layer, int i) {
  if (!e[i].destroyer)
    return;
  e += 1;
  e[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 'e[i].destroyer' [wrapguard-unchecked-policy-call]
}

void refill(Entry *entries);
void destroy_after_refill(Table *t, Layer *layer, int i) {
  if (!t->entries[i].destroyer)
    return;
  refill(t->entries);
  t->entries[i].destroyer(layer, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call through possibly empty callable 't->entries[i].destroyer' [wrapguard-unchecked-policy-call]
}
