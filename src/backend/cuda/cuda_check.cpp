// Builds the messages of CUDA errors and checks kernel launches. Host only.
#include "cuda_check.h"

#include <string>

#include "gpupy/error.h"

namespace gpupy::cuda {

void throw_cuda_error(cudaError_t status, const char* expr, const char* file, int line) {
  // Clear the sticky "last error" so the next unrelated check does not report this one again.
  cudaGetLastError();
  throw CudaError(std::string("[cuda] ") + expr + " failed at " + file + ":" +
                  std::to_string(line) + ": " + cudaGetErrorName(status) + ": " +
                  cudaGetErrorString(status));
}

void check_launch(const char* op) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw CudaError(std::string("[") + op + "] kernel launch failed: " + cudaGetErrorName(status) +
                    ": " + cudaGetErrorString(status));
}

}  // namespace gpupy::cuda
