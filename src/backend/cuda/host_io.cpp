// Pinned host memory, asynchronous device-to-host copies (what cunumpy's to_host_async and
// HostStaging queue on a side stream) and NVTX ranges. Host only.
#include <nvtx3/nvToolsExt.h>

#include <string>

#include "../cuda_api.h"
#include "../registry.h"
#include "cuda_check.h"
#include "gpupy/array.h"
#include "gpupy/error.h"
#include "stream.h"

namespace gpupy::cuda {

void* alloc_pinned(size_t nbytes) {
  std::string reason;
  if (!is_available(&reason)) throw CudaError("[pinned_empty] pinned memory needs CUDA: " + reason);
  void* ptr = nullptr;
  // Portable: usable by every device's copies, not only the current one's.
  cudaError_t status = cudaHostAlloc(&ptr, nbytes ? nbytes : 1, cudaHostAllocPortable);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky, but a later launch check would report it
    throw MemoryError("[pinned_empty] cannot allocate " + std::to_string(nbytes) +
                      " bytes of pinned host memory");
  }
  GPUPY_CUDA_CHECK(status);
  return ptr;
}

void free_pinned(void* ptr) {
  // Called by a NumPy array's deleter, which cannot throw: a failure (the runtime already
  // unloaded at exit, an earlier kernel's fault) is dropped, and cleared so that the next launch
  // check does not blame its kernel for it.
  if (ptr && cudaFreeHost(ptr) != cudaSuccess) cudaGetLastError();
}

void copy_to_host_async(void* dst, const Array& src, const CudaStream& stream) {
  if (src.device().type != DeviceType::cuda)
    throw ValueError("[to_host_async] expected a cuda array, got one on " + src.device().str());
  if (!src.is_c_contiguous()) throw ValueError("[to_host_async] the source must be C-contiguous");
  if (stream.device() != src.device().index)
    throw ValueError("[to_host_async] the stream is on cuda:" + std::to_string(stream.device()) +
                     ", the array on " + src.device().str());
  if (src.nbytes() == 0) return;
  DeviceGuard guard(stream.device());
  cudaStream_t raw = stream.impl()->stream;
  GPUPY_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), static_cast<size_t>(src.nbytes()),
                                   cudaMemcpyDeviceToHost, raw));
  record_stream(*src.buffer(), reinterpret_cast<uintptr_t>(raw));
}

void nvtx_push(const char* name, uint32_t argb) {
  if (argb == 0) {
    nvtxRangePushA(name);
    return;
  }
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = argb;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = name;
  nvtxRangePushEx(&attributes);
}

void nvtx_pop() { nvtxRangePop(); }

}  // namespace gpupy::cuda
