// RUN: %check_wrapguard %s %t

// A pointer to a callable class is not null once the object it points to
// has been tested: `*c` dereferences it. oneDNN walks its null-terminated
// lists of implementations with `for (c = list; *c; ++c) (*c)(...)`, where
// the test is the list item's own bool conversion. Its true neighbours: a
// call through the pointer with no test of its object, and the call's own
// dereference, which proves nothing before it.

typedef int (*CreateFn)(int **, int);
struct ImplItem {
  CreateFn create = nullptr;
  constexpr ImplItem() = default;
  constexpr ImplItem(CreateFn f) : create(f) {}
  explicit operator bool() const { return create != nullptr; }
  // Calls its slot untested, so an empty item fails when called (oneDNN's
  // tests its slot first, and is no nullable callable: see
  // -sources-empty-object-calls.cpp).
  int operator()(int **out, int x) const { return create(out, x); }
};
static int make_ref(int **, int) { return 0; }
static const ImplItem impl_list[] = {ImplItem(make_ref), ImplItem()};
const ImplItem *get_impl_list(bool any) { return any ? impl_list : nullptr; }

int create_any(int **out) {
  for (auto c = get_impl_list(true); *c; ++c) // the list may be null here
    if ((*c)(out, 1) == 0)                   // no-warning
      return 0;
  return 1;
}

int create_first(int **out, bool any) {
  const ImplItem *c = get_impl_list(any);
  return (*c)(out, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call through possibly empty callable 'c' [wrapguard-unchecked-policy-call]
}
