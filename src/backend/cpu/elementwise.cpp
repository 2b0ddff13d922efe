// Routes an elementwise call to the translation unit that instantiates its op. Host only.
#include "elementwise_kernel.h"

namespace gpupy::cpu {

bool cpu_has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

void elementwise_kernel(const ElementwiseCall& call) {
  switch (static_cast<int>(call.op) % kElementwiseParts) {
    case 0:
      return elementwise_part0(call);
    case 1:
      return elementwise_part1(call);
    case 2:
      return elementwise_part2(call);
    default:
      return elementwise_part3(call);
  }
}

}  // namespace gpupy::cpu
