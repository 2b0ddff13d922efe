// Aligned host allocation with usage counters. Host only.
#include "host_allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
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
// Blocks the cache below does not take come from plain malloc, aligned by hand: aligned_alloc
// splits a larger chunk and frees the pieces on every call (malloc_consolidate then walks the
// heap), which cost more than the rest of a small op. The offset to malloc's pointer is stored
// just below the block.
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

// Blocks from this size on go through the cache; below it malloc's heap serves them well.
constexpr size_t kCachedFrom = size_t(256) << 10;

size_t default_cache_cap() {
  if (const char* env = std::getenv("GPUPY_HOST_CACHE_BYTES"))
    return std::strtoull(env, nullptr, 10);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const size_t physical = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : 0;
  return std::min(size_t(1) << 30, physical / 8);
}

/// The bytes a block of `nbytes` from the cache or aligned_alloc takes: rounded to its alignment.
size_t large_block_size(size_t nbytes) {
  return rounded(nbytes, nbytes >= kHugeThreshold ? kHugePage : kAlignment);
}

/// Blocks below the cache's sizes are aligned by hand in a malloc'ed chunk (allocate_small).
bool is_small(size_t nbytes) { return large_block_size(nbytes) < kCachedFrom; }

[[noreturn]] void out_of_memory(const char* device, size_t nbytes) {
  throw MemoryError(std::string("[") + device + "] out of memory allocating " +
                    std::to_string(nbytes) + " bytes");
}
}  // namespace

LargeBlockCache::LargeBlockCache() : cap_(default_cache_cap()) {}
LargeBlockCache::~LargeBlockCache() { release(); }

void* LargeBlockCache::take(size_t nbytes) {
  std::lock_guard lock(mutex_);
  // Newest first: its pages are the most likely to be resident still.
  for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
    if (it->nbytes != nbytes) continue;
    void* p = it->ptr;
    blocks_.erase(std::next(it).base());
    cached_ -= nbytes;
    return p;
  }
  return nullptr;
}

void LargeBlockCache::give(void* ptr, size_t nbytes) {
  if (nbytes > cap_) return std::free(ptr);
  std::lock_guard lock(mutex_);
  while (cached_.load() + nbytes > cap_) {
    std::free(blocks_.front().ptr);
    cached_ -= blocks_.front().nbytes;
    blocks_.pop_front();
  }
  blocks_.push_back({ptr, nbytes});
  cached_ += nbytes;
}

void LargeBlockCache::release() {
  std::lock_guard lock(mutex_);
  for (const Block& b : blocks_) std::free(b.ptr);
  blocks_.clear();
  cached_ = 0;
}

void* HostAllocator::allocate(size_t nbytes, const char* device) {
  if (is_small(nbytes)) {
    void* p = allocate_small(nbytes);
    if (!p) out_of_memory(device, nbytes);
    used_ += nbytes;
    return p;
  }
  const bool huge = nbytes >= kHugeThreshold;
  const size_t alignment = huge ? kHugePage : kAlignment;
  const size_t size = large_block_size(nbytes);
  void* p = cache_.take(size);
  if (!p) {
    p = std::aligned_alloc(alignment, size);
    if (!p && cache_.cached_bytes() > 0) {  // the cache may hold what the system lacks
      cache_.release();
      p = std::aligned_alloc(alignment, size);
    }
    if (!p) out_of_memory(device, nbytes);
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, size, MADV_HUGEPAGE);
#endif
  }
  used_ += nbytes;
  return p;
}

void HostAllocator::deallocate(void* ptr, size_t nbytes) {
  used_ -= nbytes;
  if (is_small(nbytes)) return free_small(ptr);
  cache_.give(ptr, large_block_size(nbytes));
}

MemoryStats HostAllocator::stats() const {
  size_t used = used_.load();
  return {used, 0, used + cache_.cached_bytes()};
}

}  // namespace gpupy
