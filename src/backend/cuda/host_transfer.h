// Host<->device copies through reused pinned staging buffers, chunked and pipelined so that the
// host-side memcpy of one chunk overlaps the DMA of another. Host only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <mutex>
#include <vector>

namespace gpupy::cuda {

class HostTransfer {
 public:
  /// Queues dst(device) = src(host) on `stream`; `src` may be reused as soon as this returns.
  void to_device(void* dst, const void* src, size_t nbytes, cudaStream_t stream);
  /// dst(host) = src(device) after the work queued on `stream`; returns when `dst` is filled.
  void to_host(void* dst, const void* src, size_t nbytes, cudaStream_t stream);

 private:
  struct Slot {
    char* ptr = nullptr;
    cudaEvent_t done = nullptr;  // recorded after the last copy that used the slot
    bool pending = false;
  };
  // A ring of equal pinned slots carved from one cudaHostAlloc; used round robin.
  struct Ring {
    size_t slot_bytes;
    int n_slots;
    std::vector<Slot> slots;
    int next = 0;
    bool pinned = true;  // false when pinned memory was refused: fall back to pageable copies
  };
  Ring& ring_for(size_t nbytes);
  void init(Ring& ring);
  Slot& acquire(Ring& ring);

  std::mutex mutex_;
  // Many small slots so that a burst of small uploads rarely waits on queued kernels.
  Ring small_{size_t{64} << 10, 64, {}};
  Ring large_{size_t{4} << 20, 4, {}};
};

}  // namespace gpupy::cuda
