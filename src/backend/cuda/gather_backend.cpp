// CudaBackend's gather, scatter, flatnonzero and binning: set the device, queue on its stream. Host
// only.
#include "cuda_backend.h"
#include "cuda_check.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

bool CudaBackend::index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                                bool accumulate, int64_t& bad) {
  DeviceGuard guard(device_);
  return launch_index_offsets(index, n, stride, offsets, accumulate, bad,
                              stream_for(index, offsets));
}

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

void CudaBackend::bin_add(const Array& index, const Array* weights, const Array& out) {
  DeviceGuard guard(device_);
  launch_bin_add(index, weights, out, stream_for(index, weights, out));
}

void CudaBackend::uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                                    const Array& out) {
  DeviceGuard guard(device_);
  launch_uniform_bin_index(x, edges, bins, out, stream_for(x, edges, out));
}

}  // namespace gpupy::cuda
