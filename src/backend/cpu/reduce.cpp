// cpu reductions (to be completed). Host only.
#include "cpu_backend.h"

namespace gpupy::cpu {
void reduce_kernel(const ReduceCall&) { throw NotImplementedError("[reduce] not implemented yet"); }
}  // namespace gpupy::cpu
