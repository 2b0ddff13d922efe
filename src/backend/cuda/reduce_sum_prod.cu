// Reduction kernels for sum and prod, every dtype: thread-per-output, block-per-output
// (shared memory + warp shuffles) and split-range kernels with a partials pass. Both compilers.
#include "reduce.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

void reduce_sum_prod(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                     Stream stream) {
  if (call.op == ReduceOp::sum && call.out.dtype() != call.in.dtype()) {
    reduce_launch<CountOp, bool>(call, kept, red, stream);  // bool into int64
    return;
  }
  dispatch_dtype_except_float16(call.in.dtype(), "reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (call.op == ReduceOp::sum)
      reduce_launch<SumOp<T>, T>(call, kept, red, stream);
    else
      reduce_launch<ProdOp<T>, T>(call, kept, red, stream);
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
