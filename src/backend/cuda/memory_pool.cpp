// cudaMalloc-backed segments for the device memory pool. Host only.
#include "memory_pool.h"

#include "cuda_check.h"
#include "stream.h"

namespace gpupy::cuda {

void* CudaSegmentSource::allocate_segment(size_t nbytes) {
  void* ptr = nullptr;
  cudaError_t status = cudaMalloc(&ptr, nbytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky, but clear it so later launch checks do not see it
    return nullptr;      // the pool flushes its cache and retries
  }
  GPUPY_CUDA_CHECK(status);
  return ptr;
}

void CudaSegmentSource::free_segment(void* ptr, size_t) {
  // cudaFree waits for the device, so work still using the segment finishes first.
  cudaError_t status = cudaFree(ptr);
  // After the CUDA runtime has shut down at interpreter exit the memory is gone anyway.
  if (status != cudaErrorCudartUnloading) GPUPY_CUDA_CHECK(status);
}

void CudaSegmentSource::order_after(StreamKey consumer, StreamKey producer) {
  cudaEvent_t event;
  GPUPY_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  GPUPY_CUDA_CHECK(cudaEventRecord(event, reinterpret_cast<cudaStream_t>(producer)));
  GPUPY_CUDA_CHECK(cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(consumer), event, 0));
  GPUPY_CUDA_CHECK(cudaEventDestroy(event));  // released once the wait no longer needs it
}

EventKey CudaSegmentSource::record_event(StreamKey stream) {
  // Called when an array is freed, wherever the CUDA runtime's current device is.
  DeviceGuard guard(device_);
  cudaEvent_t event = nullptr;
  GPUPY_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  cudaError_t status = cudaEventRecord(event, reinterpret_cast<cudaStream_t>(stream));
  if (status != cudaSuccess) cudaEventDestroy(event);
  GPUPY_CUDA_CHECK(status);
  return reinterpret_cast<EventKey>(event);
}

bool CudaSegmentSource::query_event(EventKey event) {
  cudaError_t status = cudaEventQuery(reinterpret_cast<cudaEvent_t>(event));
  if (status == cudaErrorNotReady) return false;
  GPUPY_CUDA_CHECK(status);
  return true;
}

void CudaSegmentSource::synchronize_event(EventKey event) {
  GPUPY_CUDA_CHECK(cudaEventSynchronize(reinterpret_cast<cudaEvent_t>(event)));
}

void CudaSegmentSource::destroy_event(EventKey event) noexcept {
  cudaEventDestroy(reinterpret_cast<cudaEvent_t>(event));
}

MemoryPool::MemoryPool(int device)
    : source_(device), pool_(source_, "cuda:" + std::to_string(device)) {}

}  // namespace gpupy::cuda
