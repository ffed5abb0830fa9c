//===- cpu_memory.h - C interface of the CPU memory count -------*- C++ -*-===//
//
// The allocator-level CPU memory count of cpu_memory.cpp, with C linkage so
// Python can call it through ctypes (tools/bench/bench-shim).
#ifndef WRAPGUARD_CPU_MEMORY_H
#define WRAPGUARD_CPU_MEMORY_H

#include <cstdint>

extern "C" {
/// Installs the counting allocator (once per process; idempotent).
void wrapguard_cpu_memory_install();
/// Bytes held now by allocations made since installation.
int64_t wrapguard_cpu_memory_current();
/// Highest current() since the last reset_peak().
int64_t wrapguard_cpu_memory_peak();
/// Starts a new peak window at current().
void wrapguard_cpu_memory_reset_peak();
/// Makes glibc's malloc keep freed memory for reuse instead of handing it
/// back to the kernel (no trimming of the heap's top, no mmap for large
/// blocks), so a training loop's tensors land on pages it has touched
/// before. Returns 1 when it took effect (glibc), 0 otherwise.
int wrapguard_cpu_memory_retain_freed();
}

#endif // WRAPGUARD_CPU_MEMORY_H
