// CudaBackend::where: queues the selection kernel on the device's current stream. Host only.
#include "cuda_backend.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

void CudaBackend::where(const Array& cond, const Operand& x, const Operand& y, const Array& out) {
  DeviceGuard guard(device_);
  launch_where(cond, x, y, out, stream_for(cond, x, y, out));
}

}  // namespace gpupy::cuda
