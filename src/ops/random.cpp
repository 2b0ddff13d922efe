// Front end of gpupy.random's generator: checks the request and allocates the output; the
// backend draws the Philox4x32-10 numbers on the array's device. Host only.
#include "../backend/backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {

Array philox_random(const Shape& shape, DType dtype, RandomDistribution dist, uint64_t key,
                    uint64_t counter, Device device) {
  const bool bits = dist == RandomDistribution::bits;
  if (bits ? dtype != DType::uint64 : dtype != DType::float32 && dtype != DType::float64)
    throw TypeError("[random] unsupported dtype " + std::string(dtype_name(dtype)) +
                    (bits ? " for raw bits (uint64 only)" : "; use float32 or float64"));
  for (int64_t d : shape)
    if (d < 0) throw ValueError("[random] negative dimensions are not allowed");
  Array out = Array::empty(shape, dtype, device);
  if (out.size() > 0) backend_for(device).philox_fill(out, key, counter, dist);
  return out;
}

}  // namespace gpupy
