// Pinned staging rings and pipelined host<->device copies. Host only.
#include "host_transfer.h"

#include <cstring>
#include <deque>

#include "../cpu/parallel.h"
#include "cuda_check.h"

namespace gpupy::cuda {
namespace {

// memcpy to or from pinned memory; large chunks use the cpu thread pool, since one core's memcpy
// is well below PCIe bandwidth.
void host_copy(void* dst, const void* src, size_t nbytes) {
  constexpr int64_t kGrain = int64_t{512} << 10;
  if (static_cast<int64_t>(nbytes) < 2 * kGrain) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  cpu::parallel_for(static_cast<int64_t>(nbytes), kGrain, [&](int64_t begin, int64_t end) {
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin,
                static_cast<size_t>(end - begin));
  });
}

}  // namespace

HostTransfer::Ring& HostTransfer::ring_for(size_t nbytes) {
  Ring& ring = nbytes <= small_.slot_bytes ? small_ : large_;
  if (ring.slots.empty()) init(ring);
  return ring;
}

void HostTransfer::init(Ring& ring) {
  void* base = nullptr;
  cudaError_t status = cudaHostAlloc(&base, ring.slot_bytes * ring.n_slots, cudaHostAllocPortable);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    ring.pinned = false;
    ring.slots.resize(1);
    return;
  }
  GPUPY_CUDA_CHECK(status);
  ring.slots.resize(ring.n_slots);
  for (int i = 0; i < ring.n_slots; ++i) {
    ring.slots[i].ptr = static_cast<char*>(base) + i * ring.slot_bytes;
    GPUPY_CUDA_CHECK(cudaEventCreateWithFlags(&ring.slots[i].done, cudaEventDisableTiming));
  }
}

HostTransfer::Slot& HostTransfer::acquire(Ring& ring) {
  Slot& slot = ring.slots[ring.next];
  ring.next = (ring.next + 1) % ring.n_slots;
  if (slot.pending) GPUPY_CUDA_CHECK(cudaEventSynchronize(slot.done));
  slot.pending = false;
  return slot;
}

void HostTransfer::to_device(void* dst, const void* src, size_t nbytes, cudaStream_t stream) {
  if (nbytes == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  Ring& ring = ring_for(nbytes);
  if (!ring.pinned) {
    GPUPY_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  for (size_t off = 0; off < nbytes; off += ring.slot_bytes) {
    size_t n = std::min(ring.slot_bytes, nbytes - off);
    Slot& slot = acquire(ring);
    host_copy(slot.ptr, static_cast<const char*>(src) + off, n);
    GPUPY_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + off, slot.ptr, n,
                                     cudaMemcpyHostToDevice, stream));
    GPUPY_CUDA_CHECK(cudaEventRecord(slot.done, stream));
    slot.pending = true;
  }
}

void HostTransfer::to_host(void* dst, const void* src, size_t nbytes, cudaStream_t stream) {
  if (nbytes == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  Ring& ring = ring_for(nbytes);
  if (!ring.pinned) {
    GPUPY_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream));
    GPUPY_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  struct Pending {
    Slot* slot;
    size_t off, n;
  };
  std::deque<Pending> in_flight;
  auto drain_one = [&] {
    Pending p = in_flight.front();
    in_flight.pop_front();
    GPUPY_CUDA_CHECK(cudaEventSynchronize(p.slot->done));
    p.slot->pending = false;
    host_copy(static_cast<char*>(dst) + p.off, p.slot->ptr, p.n);
  };
  for (size_t off = 0; off < nbytes; off += ring.slot_bytes) {
    // Keep every slot busy, but copy a chunk out before its slot comes round again.
    if (static_cast<int>(in_flight.size()) == ring.n_slots) drain_one();
    size_t n = std::min(ring.slot_bytes, nbytes - off);
    Slot& slot = acquire(ring);
    GPUPY_CUDA_CHECK(cudaMemcpyAsync(slot.ptr, static_cast<const char*>(src) + off, n,
                                     cudaMemcpyDeviceToHost, stream));
    GPUPY_CUDA_CHECK(cudaEventRecord(slot.done, stream));
    slot.pending = true;
    in_flight.push_back({&slot, off, n});
  }
  while (!in_flight.empty()) drain_one();
}

}  // namespace gpupy::cuda
