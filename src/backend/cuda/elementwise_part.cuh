// Body of elementwise_part<K>.cu: instantiates the kernels of the table rows whose index is K
// modulo kElementwiseParts. Expects GPUPY_PART and GPUPY_PART_FUNCTION. Both compilers.
#include "elementwise.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

void GPUPY_PART_FUNCTION(const ElementwiseCall& call, Stream stream) {
  switch (call.op) {
#define GPUPY_ELEMENTWISE(name, arity, rule, functor)                                      \
  case ElementwiseOp::name:                                                                \
    if constexpr (static_cast<int>(ElementwiseOp::name) % kElementwiseParts == GPUPY_PART) \
      return ew_run<fn::functor, arity>(call, stream);                                     \
    break;
#include "gpupy/elementwise_ops.inc"
#undef GPUPY_ELEMENTWISE
  }
  throw ValueError(op_message(op_name(call.op), "elementwise op routed to the wrong part"));
}

}  // namespace gpupy::GPUPY_KERNEL_NS
