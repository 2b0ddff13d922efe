// Aligned host allocation with usage counters. Host only.
#include "host_allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <string>

#include "gpupy/error.h"

namespace gpupy {

namespace {
constexpr size_t kAlignment = 64;  // a cache line, and enough for AVX-512 loads
// Large blocks are aligned to and advised as 2 MiB huge pages, as NumPy does: first-touch page
// faults otherwise dominate an elementwise op that writes a fresh 64 MiB output.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeThreshold = size_t(4) << 20;
size_t rounded(size_t n, size_t to) { return (n + to - 1) / to * to; }
}  // namespace

void* HostAllocator::allocate(size_t nbytes, const char* device) {
  bool huge = nbytes >= kHugeThreshold;
  size_t alignment = huge ? kHugePage : kAlignment;
  void* p = std::aligned_alloc(alignment, rounded(nbytes, alignment));
#ifdef MADV_HUGEPAGE
  if (p && huge) madvise(p, rounded(nbytes, alignment), MADV_HUGEPAGE);
#endif
  if (!p)
    throw MemoryError(std::string("[") + device + "] out of memory allocating " +
                      std::to_string(nbytes) + " bytes");
  used_ += nbytes;
  return p;
}

void HostAllocator::deallocate(void* ptr, size_t nbytes) {
  std::free(ptr);
  used_ -= nbytes;
}

MemoryStats HostAllocator::stats() const {
  size_t used = used_.load();
  return {used, 0, used};  // malloc does the caching; nothing is held beyond live arrays
}

}  // namespace gpupy
