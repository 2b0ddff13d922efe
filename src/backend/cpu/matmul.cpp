// cpu matmul (to be completed). Host only.
#include "cpu_backend.h"

namespace gpupy::cpu {
void matmul_kernel(const Array&, const Array&, const Array&) {
  throw NotImplementedError("[matmul] not implemented yet");
}
}  // namespace gpupy::cpu
