// The host allocator of the cpu and emu devices: alignment, usage counters and the cache of freed
// large blocks.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "core/host_allocator.h"

using gpupy::HostAllocator;

TEST(HostAllocator, AlignsAndCounts) {
  HostAllocator a;
  for (size_t n :
       {size_t(1), size_t(100), size_t(960), size_t(961), size_t(1) << 20, size_t(5) << 20}) {
    void* p = a.allocate(n, "cpu");
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << n;
    std::memset(p, 1, n);  // the whole block is writable
    EXPECT_EQ(a.stats().used_bytes, n);
    a.deallocate(p, n);
    EXPECT_EQ(a.stats().used_bytes, 0u);
  }
}

TEST(HostAllocator, ReusesFreedLargeBlocks) {
  HostAllocator a;
  a.release_cached();
  const size_t n = size_t(3) << 20;
  void* first = a.allocate(n, "cpu");
  a.deallocate(first, n);
  EXPECT_GE(a.stats().total_bytes, n);  // held by the cache, not by arrays
  EXPECT_EQ(a.stats().used_bytes, 0u);
  void* second = a.allocate(n, "cpu");
  EXPECT_EQ(second, first);
  EXPECT_EQ(a.stats().total_bytes, n);  // taken out of the cache again
  // A different size is never served from a cached block.
  void* other = a.allocate(n + (size_t(1) << 20), "cpu");
  EXPECT_NE(other, first);
  a.deallocate(other, n + (size_t(1) << 20));
  a.deallocate(second, n);
  a.release_cached();
  EXPECT_EQ(a.stats().total_bytes, 0u);
}

TEST(HostAllocator, SmallBlocksAreNotCached) {
  HostAllocator a;
  a.release_cached();
  void* p = a.allocate(4096, "cpu");
  a.deallocate(p, 4096);
  EXPECT_EQ(a.stats().total_bytes, 0u);
}
