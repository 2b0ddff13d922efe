// Error checking for CUDA runtime calls and kernel launches (GPUPY_CUDA_CHECK, check_launch).
// Host code of both compilers: the kernels' launchers (*.cu) call check_launch after each launch,
// and the emu build of those files (GPUPY_EMU_BUILD) gets a no-op, since emu::launch reports
// failures by throwing.
#pragma once

#if defined(GPUPY_EMU_BUILD)

namespace gpupy::emu {
inline void check_launch(const char*) {}
}  // namespace gpupy::emu

#else

#include <cuda_runtime.h>

namespace gpupy::cuda {

/// Throws gpupy::CudaError "[cuda] <expr> failed at file:line: <name>: <message>".
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* expr, const char* file,
                                   int line);
/// Checks the launch just made (cudaGetLastError) and throws CudaError naming `op` on failure.
void check_launch(const char* op);

}  // namespace gpupy::cuda

/// Evaluates a CUDA runtime call and throws gpupy::CudaError unless it returned cudaSuccess.
#define GPUPY_CUDA_CHECK(expr)                                                   \
  do {                                                                           \
    cudaError_t gpupy_status_ = (expr);                                          \
    if (gpupy_status_ != cudaSuccess)                                            \
      ::gpupy::cuda::throw_cuda_error(gpupy_status_, #expr, __FILE__, __LINE__); \
  } while (0)

#endif
