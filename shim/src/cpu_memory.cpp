//===- cpu_memory.cpp - Allocator-level CPU memory count ------------------===//
//
// A c10::Allocator that wraps the CPU allocator installed before it.
// Depends on c10 only, so it is also built as libwrapguard-cpumem.so, which
// tools/bench/bench-shim loads into Python's torch (the same libc10) to measure
// torch.utils.checkpoint with the same counter.
#include "cpu_memory.h"

#include <c10/core/CPUAllocator.h>

#if defined(__clang__)
// The Allocator overrides below deliberately omit `override`; see there.
#pragma clang diagnostic ignored "-Winconsistent-missing-override"
#endif

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace wrapguard {
namespace {

// Wraps the CPU allocator that was installed before it and counts the bytes
// of every live allocation it hands out. Allocations made before it was
// installed are freed through their own deleters and never counted.
class TrackingCPUAllocator final : public c10::Allocator {
public:
  explicit TrackingCPUAllocator(c10::Allocator *inner) : inner_(inner) {}

  static TrackingCPUAllocator &instance() {
    // Installed once and never removed: tensors it allocated may outlive any
    // scope, and their deleter must still find it.
    static TrackingCPUAllocator *self = [] {
      auto *a = new TrackingCPUAllocator(c10::GetCPUAllocator());
      c10::SetCPUAllocator(a, /*priority=*/100);
      return a;
    }();
    return *self;
  }

  // PyTorch 2.3 made allocate() non-const and added copy_data(); defining
  // both allocate() overloads and copy_data() without `override` compiles
  // against either generation: the matching ones override.
  c10::DataPtr allocate(size_t nbytes) const { return track(nbytes); }
  c10::DataPtr allocate(size_t nbytes) { return track(nbytes); }
  void copy_data(void *dest, const void *src, std::size_t count) const {
    std::memcpy(dest, src, count);
  }
  c10::DeleterFnPtr raw_deleter() const { return &tracked_delete; }

  std::int64_t current() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return current_;
  }
  std::int64_t peak() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_;
  }
  void reset_peak() {
    std::lock_guard<std::mutex> lock(mutex_);
    peak_ = current_;
  }

private:
  c10::DataPtr track(size_t nbytes) const {
    c10::DataPtr inner = inner_->allocate(nbytes);
    void *data = inner.get();
    if (!data)
      return inner;
    const c10::Device device = inner.device();
    c10::DeleterFnPtr deleter = inner.get_deleter();
    void *context = inner.release_context();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      live_[data] = Entry{nbytes, context, deleter};
      current_ += static_cast<std::int64_t>(nbytes);
      peak_ = std::max(peak_, current_);
    }
    return {data, data, &tracked_delete, device};
  }

  struct Entry {
    size_t nbytes;
    void *context;
    c10::DeleterFnPtr deleter;
  };

  static void tracked_delete(void *data) {
    TrackingCPUAllocator &self = instance();
    Entry entry{0, nullptr, nullptr};
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      auto it = self.live_.find(data);
      if (it != self.live_.end()) {
        entry = it->second;
        self.live_.erase(it);
        self.current_ -= static_cast<std::int64_t>(entry.nbytes);
      }
    }
    if (entry.deleter) {
      entry.deleter(entry.context);
      return;
    }
    // Not ours: a block that the previous allocator handed out through
    // raw_allocate() before we were installed, now released through
    // GetCPUAllocator()->raw_deallocate(), which finds us. Return it to the
    // allocator that made it.
    if (c10::DeleterFnPtr inner = self.inner_->raw_deleter())
      inner(data);
  }

  c10::Allocator *inner_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<void *, Entry> live_;
  mutable std::int64_t current_ = 0;
  mutable std::int64_t peak_ = 0;
};

} // namespace
} // namespace wrapguard

extern "C" {
void wrapguard_cpu_memory_install() {
  wrapguard::TrackingCPUAllocator::instance();
}
int64_t wrapguard_cpu_memory_current() {
  return wrapguard::TrackingCPUAllocator::instance().current();
}
int64_t wrapguard_cpu_memory_peak() {
  return wrapguard::TrackingCPUAllocator::instance().peak();
}
void wrapguard_cpu_memory_reset_peak() {
  wrapguard::TrackingCPUAllocator::instance().reset_peak();
}
int wrapguard_cpu_memory_retain_freed() {
#if defined(__GLIBC__)
  // Either setting alone turns off glibc's dynamic thresholds and makes
  // things worse (every block above 128 KiB mmapped and unmapped); both
  // together keep every freed block in the heap.
  return mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1;
#else
  return 0;
#endif
}
}
