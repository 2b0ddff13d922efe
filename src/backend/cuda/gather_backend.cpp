// CudaBackend's gather, scatter and flatnonzero: set the device, queue on its stream. Host only.
#include "cuda_backend.h"
#include "cuda_check.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

void CudaBackend::gather(const GatherCall& call) {
  DeviceGuard guard(device_);
  launch_gather(call, stream_for(call.data, call.offsets, call.values));
}

void CudaBackend::scatter(const GatherCall& call) {
  DeviceGuard guard(device_);
  launch_scatter(call, stream_for(call.data, call.offsets, call.values));
}

Array CudaBackend::flatnonzero(const Array& mask) {
  DeviceGuard guard(device_);
  return launch_flatnonzero(mask, stream_for(mask));
}

}  // namespace gpupy::cuda
