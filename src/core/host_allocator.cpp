// Aligned host allocation with usage counters. Host only.
#include "host_allocator.h"

#include <cstdlib>
#include <string>

#include "gpupy/error.h"

namespace gpupy {

namespace {
constexpr size_t kAlignment = 64;  // a cache line, and enough for AVX-512 loads
size_t rounded(size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }
}  // namespace

void* HostAllocator::allocate(size_t nbytes, const char* device) {
  void* p = std::aligned_alloc(kAlignment, rounded(nbytes));
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
  return {used, used};  // malloc does the caching; nothing is held beyond live arrays
}

}  // namespace gpupy
