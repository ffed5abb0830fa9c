// C interface of the allocator-level CPU memory count (cpu_memory.cpp).
// C linkage so Python can call it through ctypes (tools/bench-shim).
#pragma once

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
}
