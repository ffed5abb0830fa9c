// RUN: %check_wrapguard %s %t

// A null test of dynamic_cast<T*>(f) asks whether f has type T, not whether
// f is null: it is no evidence that f may be empty (faiss's readers test
// `dynamic_cast<FileIOReader*>(f)` before reading through `f`).

#include <cstddef>
#include <stdexcept>

struct IOReader {
  virtual ~IOReader();
  virtual size_t operator()(void *p, size_t size, size_t n) = 0;
};
struct FileIOReader : IOReader {
  const char *name;
  size_t operator()(void *p, size_t size, size_t n) override;
};

void read_index(IOReader *f, bool same_dir) {
  int x;
  (*f)(&x, sizeof(x), 1); // no-warning
  if (same_dir) {
    auto *reader = dynamic_cast<FileIOReader *>(f);
    if (!reader)
      throw std::runtime_error("same_dir needs a file reader");
  }
  (*f)(&x, sizeof(x), 1); // no-warning
}

// True neighbour: a sibling tests the same field itself.
struct Index {
  IOReader *reader = nullptr;
};
void read_checked(Index &idx) {
  if (!idx.reader)
    throw std::runtime_error("no reader");
  int x;
  (*idx.reader)(&x, sizeof(x), 1);
}
void read_header(Index &idx) {
  int x;
  (*idx.reader)(&x, sizeof(x), 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call through possibly empty callable 'idx.reader' [wrapguard-unchecked-policy-call]
}

// UNSUPPORTED: libcxx
// (This code uses no callable, smart pointer, optional or container of the
// C++ library, at most its C headers, std::nullptr_t or an exception type, so
// the suite's libc++ run, which checks how those are spelled there, has
// nothing to add.)
