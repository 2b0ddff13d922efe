// The caching, stream-aware device memory pool of one CUDA device (BlockPool over cudaMalloc).
// Host only.
#pragma once

#include <cuda_runtime.h>

#include "block_pool.h"
#include "gpupy/array.h"
#include "stream.h"

namespace gpupy::cuda {

/// Segments from cudaMalloc; cross-stream reuse ordered with events.
class CudaSegmentSource final : public SegmentSource {
 public:
  explicit CudaSegmentSource(int device) : device_(device) {}
  void* allocate_segment(size_t nbytes) override;
  void free_segment(void* ptr, size_t nbytes) override;
  void order_after(StreamKey consumer, StreamKey producer) override;
  EventKey record_event(StreamKey stream) override;
  bool query_event(EventKey event) override;
  void synchronize_event(EventKey event) override;
  void destroy_event(EventKey event) noexcept override;

 private:
  int device_;
};

class MemoryPool {
 public:
  explicit MemoryPool(int device);
  /// Memory ordered after the work queued so far on `stream`; throws MemoryError.
  void* allocate(size_t nbytes, cudaStream_t stream) {
    return pool_.allocate(nbytes, reinterpret_cast<StreamKey>(stream));
  }
  void deallocate(void* ptr) noexcept { pool_.deallocate(ptr); }
  /// Keeps the block at `ptr` from reuse, once freed, until the work queued so far on `stream`
  /// (a cudaStream_t, or 1/2 for the legacy/per-thread default stream) is done.
  void record_use(void* ptr, cudaStream_t stream) {
    pool_.record_use(ptr, reinterpret_cast<StreamKey>(stream));
  }
  /// record_use for `a`'s memory when work on `stream` uses it; the common case (the stream it
  /// was allocated on, or memory not from the pool) costs one or two comparisons.
  void note_use(const Array& a, StreamRef stream) {
    const Buffer& b = *a.buffer();
    if (b.stream_id != stream.id && b.stream_id != 0) record_use(b.data, stream.raw);
  }
  PoolStats stats() const { return pool_.stats(); }
  void free_all_blocks() { pool_.release_cached(); }
  /// Hands the blocks of `stream`, whose work has finished, to `successor` (see BlockPool).
  void retire_stream(cudaStream_t stream, cudaStream_t successor) {
    pool_.retire_stream(reinterpret_cast<StreamKey>(stream),
                        reinterpret_cast<StreamKey>(successor));
  }
  void set_limit(size_t bytes) { pool_.set_limit(bytes); }
  size_t limit() const { return pool_.limit(); }

 private:
  CudaSegmentSource source_;
  BlockPool pool_;
};

}  // namespace gpupy::cuda
