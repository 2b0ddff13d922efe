// launch_sliding_dot: convolve's and correlate's sliding dot product, one output per thread in a
// grid-stride loop. Neighbouring threads read neighbouring elements of a and the same v[j], and
// each output is summed in the cpu loop's order (sliding::one_output). Both compilers.
#include "../../core/dispatch.h"
#include "../sliding_dot.h"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

template <class T>
__global__ void sliding_dot_kernel(const T* a, int64_t n, const T* v, int64_t m, int64_t shift,
                                   T* out, int64_t length) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < length; i += step)
    out[i] = sliding::one_output(a, n, v, m, shift + i);
}

}  // namespace

void launch_sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out,
                        Stream stream) {
  const int64_t length = out.size();
  if (length == 0) return;
  dispatch_dtype_except_float16(out.dtype(), "sliding_dot", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto kernel = &sliding_dot_kernel<T>;
    GPUPY_LAUNCH(kernel, grid_for(length), kBlockSize, 0, stream,
                 reinterpret_cast<const T*>(a.data()), a.size(),
                 reinterpret_cast<const T*>(v.data()), v.size(), shift,
                 reinterpret_cast<T*>(out.data()), length);
    GPUPY_CHECK_LAUNCH("sliding_dot");
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
