// CudaBackend::philox_fill: queues the Philox kernel on the device's current stream. Host only.
#include "cuda_backend.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

void CudaBackend::philox_fill(const Array& out, uint64_t key, uint64_t counter,
                              RandomDistribution dist) {
  DeviceGuard guard(device_);
  launch_philox_fill(out, key, counter, dist, stream_for(out));
}

}  // namespace gpupy::cuda
