// launch_elementwise: routes a call to the translation unit that holds its op's kernels (see
// elementwise.cuh). Host code of a .cu file; both compilers.
#include "elementwise.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

void launch_elementwise(const ElementwiseCall& call, Stream stream) {
  switch (static_cast<int>(call.op) % kElementwiseParts) {
    case 0:
      return elementwise_part0(call, stream);
    case 1:
      return elementwise_part1(call, stream);
    case 2:
      return elementwise_part2(call, stream);
    case 3:
      return elementwise_part3(call, stream);
    case 4:
      return elementwise_part4(call, stream);
    default:
      return elementwise_part5(call, stream);
  }
}

}  // namespace gpupy::GPUPY_KERNEL_NS
