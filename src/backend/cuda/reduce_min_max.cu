// Reduction kernels for min and max (NaN-propagating, complex lexicographic), every dtype:
// thread-per-output, block-per-output (shared memory + warp shuffles) and split-range kernels with
// a partials pass. Both compilers.
#include "reduce.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

void reduce_min_max(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                    Stream stream) {
  dispatch_dtype_except_float16(call.in.dtype(), "reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (call.op == ReduceOp::min)
      reduce_launch<ExtremumOp<T, false>, T>(call, kept, red, stream);
    else
      reduce_launch<ExtremumOp<T, true>, T>(call, kept, red, stream);
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
