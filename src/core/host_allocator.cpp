// Aligned host allocation with usage counters. Host only.
#include "host_allocator.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpupy/error.h"

namespace gpupy {

namespace {
constexpr size_t kAlignment = 64;  // a cache line, and enough for AVX-512 loads
// Large blocks are aligned to and advised as 2 MiB huge pages, as NumPy does: first-touch page
// faults otherwise dominate an elementwise op that writes a fresh 64 MiB output.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeThreshold = size_t(4) << 20;
// Small blocks come from plain malloc, aligned by hand, so they stay in malloc's per-thread cache
// (up to about 1 KiB): aligned_alloc splits and frees a larger chunk on every call, which costs
// more than the rest of a small op. The offset to malloc's pointer is stored just below the block.
constexpr size_t kSmallLimit = 960;
constexpr size_t kSmallSlack = kAlignment + sizeof(uint16_t);
size_t rounded(size_t n, size_t to) { return (n + to - 1) / to * to; }

void* allocate_small(size_t nbytes) {
  auto* raw = static_cast<char*>(std::malloc(nbytes + kSmallSlack));
  if (!raw) return nullptr;
  auto base = reinterpret_cast<uintptr_t>(raw) + sizeof(uint16_t);
  auto* block = reinterpret_cast<char*>(rounded(base, kAlignment));
  uint16_t offset = static_cast<uint16_t>(block - raw);
  std::memcpy(block - sizeof(uint16_t), &offset, sizeof(offset));
  return block;
}

void free_small(void* ptr) {
  auto* block = static_cast<char*>(ptr);
  uint16_t offset;
  std::memcpy(&offset, block - sizeof(uint16_t), sizeof(offset));
  std::free(block - offset);
}
}  // namespace

void* HostAllocator::allocate(size_t nbytes, const char* device) {
  if (nbytes <= kSmallLimit) {
    void* p = allocate_small(nbytes);
    if (!p)
      throw MemoryError(std::string("[") + device + "] out of memory allocating " +
                        std::to_string(nbytes) + " bytes");
    used_ += nbytes;
    return p;
  }
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
  if (nbytes <= kSmallLimit)
    free_small(ptr);
  else
    std::free(ptr);
  used_ -= nbytes;
}

MemoryStats HostAllocator::stats() const {
  size_t used = used_.load();
  return {used, 0, used};  // malloc does the caching; nothing is held beyond live arrays
}

}  // namespace gpupy
