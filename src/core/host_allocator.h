// Aligned host memory with usage counters; serves the cpu and emu devices. Host only.
#pragma once

#include <atomic>
#include <cstddef>

#include "../backend/backend.h"

namespace gpupy {

class HostAllocator {
 public:
  /// 64-byte aligned memory; throws MemoryError naming `device` when the system has none.
  void* allocate(size_t nbytes, const char* device);
  void deallocate(void* ptr, size_t nbytes);
  MemoryStats stats() const;

 private:
  std::atomic<size_t> used_{0};
};

}  // namespace gpupy
