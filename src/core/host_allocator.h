// Aligned host memory with usage counters; serves the cpu and emu devices. Host only.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>

#include "../backend/backend.h"

namespace gpupy {

/// Freed large blocks kept for reuse by size. A fresh block from the system costs its page
/// faults, about as much as one pass over it, on every op that writes a new output; malloc keeps
/// such blocks only while they stay below its adaptive mmap threshold, so gpupy keeps them itself,
/// up to a cap (the smaller of 1 GiB and 1/8 of physical memory; GPUPY_HOST_CACHE_BYTES sets it,
/// 0 turns the cache off). Thread-safe.
class LargeBlockCache {
 public:
  LargeBlockCache();
  ~LargeBlockCache();
  /// A cached block of exactly `nbytes` (an allocation size), or nullptr.
  void* take(size_t nbytes);
  /// Keeps `ptr` for reuse, or frees it when it does not fit under the cap (evicting the oldest
  /// blocks first).
  void give(void* ptr, size_t nbytes);
  /// Frees every cached block.
  void release();
  size_t cached_bytes() const { return cached_.load(); }

 private:
  struct Block {
    void* ptr;
    size_t nbytes;
  };
  mutable std::mutex mutex_;
  std::deque<Block> blocks_;  // oldest first
  std::atomic<size_t> cached_{0};
  size_t cap_;
};

class HostAllocator {
 public:
  /// 64-byte aligned memory; throws MemoryError naming `device` when the system has none.
  void* allocate(size_t nbytes, const char* device);
  void deallocate(void* ptr, size_t nbytes);
  MemoryStats stats() const;
  /// Returns the cached blocks to the system (`free_all_blocks`).
  void release_cached() { cache_.release(); }

 private:
  std::atomic<size_t> used_{0};
  LargeBlockCache cache_;
};

}  // namespace gpupy
