// Dtype-converting strided copies into dst dtypes uint16..uint64, float32, float64, complex64,
// complex128, from every src dtype (see copy.cuh): a 1-D kernel with byte strides and N-d kernels
// with 32-/64-bit offsets. Both compilers.
#include "copy.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

void copy_convert_part1(const Array& src, const Array& dst, const Layout<2>& layout,
                        Stream stream) {
  copy_convert_dispatch<false>(src, dst, layout, stream);
}

}  // namespace gpupy::GPUPY_KERNEL_NS
