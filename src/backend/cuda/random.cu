// launch_philox_fill: one thread per output element draws Philox4x32-10 block (key, counter + i)
// through the functor the cpu backend shares, so every device yields the same numbers. Both
// compilers.
#include "../../functors/philox.h"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

template <RandomDistribution D, class T>
__global__ void philox_kernel(T* out, int64_t n, uint64_t key, uint64_t counter) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    out[i] = fn::philox_draw<D, T>(key, counter + uint64_t(i));
}

}  // namespace

void launch_philox_fill(const Array& out, uint64_t key, uint64_t counter, RandomDistribution dist,
                        Stream stream) {
  const int64_t n = out.size();
  if (n == 0) return;
  fn::dispatch_philox(dist, out.dtype(), [&](auto d, auto tag) {
    using T = decltype(tag);
    auto kernel = &philox_kernel<decltype(d)::value, T>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, reinterpret_cast<T*>(out.data()), n,
                 key, counter);
    GPUPY_CHECK_LAUNCH("philox_fill");
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
