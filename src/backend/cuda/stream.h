// Streams, events and the current device inside gpupy's CUDA backend (raw cudaStream_t access on
// top of the CudaStream/CudaEvent classes of cuda_api.h). Host only.
#pragma once

#include <cuda_runtime.h>

#include "../cuda_api.h"

namespace gpupy::cuda {

struct CudaStream::Impl {
  cudaStream_t stream = nullptr;
  uint64_t id = 0;  // unique in the process: a destroyed stream's handle may come back, its id not
  int device = 0;
  bool owned = false;  // the default streams live for the whole process
  ~Impl();
};

struct CudaEvent::Impl {
  cudaEvent_t event = nullptr;
  int device = 0;
  ~Impl();
};

/// Most devices one process handles; bounds the per-device tables.
inline constexpr int kMaxDevices = 64;

/// The stream work on `device` is queued on by this thread (cheap: no reference counting).
cudaStream_t current_raw_stream(int device);
/// A stream's handle and process-unique id (CudaStream::Impl::id).
struct StreamRef {
  cudaStream_t raw;
  uint64_t id;
};
/// current_raw_stream with its id.
StreamRef current_stream_ref(int device);

/// RAII: makes `device` the current CUDA device, restoring the previous one afterwards.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

/// Throws CudaError when no CUDA device can be used, ValueError when `device` is out of range.
void require_device(int device);

}  // namespace gpupy::cuda
