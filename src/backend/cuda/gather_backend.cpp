// CudaBackend's gather, scatter and flatnonzero: set the device, queue on its stream. Host only.
#include "cuda_backend.h"
#include "cuda_check.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

void CudaBackend::gather(const GatherCall& call) {
  DeviceGuard guard(device_);
  launch_gather(call, current_raw_stream(device_));
}

void CudaBackend::scatter(const GatherCall& call) {
  DeviceGuard guard(device_);
  launch_scatter(call, current_raw_stream(device_));
}

Array CudaBackend::flatnonzero(const Array& mask) {
  DeviceGuard guard(device_);
  return launch_flatnonzero(mask, current_raw_stream(device_));
}

}  // namespace gpupy::cuda
