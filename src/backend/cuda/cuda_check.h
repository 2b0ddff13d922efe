// Launch-error check of the cuda build, defined by the cuda runtime (src/backend/cuda). Host only.
#pragma once

#if !defined(GPUPY_EMU_BUILD)
namespace gpupy::cuda {
/// Throws CudaError naming `op` when the last kernel launch failed.
void check_launch(const char* op);
}  // namespace gpupy::cuda
#endif
