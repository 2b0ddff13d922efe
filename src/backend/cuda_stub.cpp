// Stands in for the cuda backend in builds without CUDA (GPUPY_CUDA=OFF or no nvcc). Host only.
#include "gpupy/error.h"
#include "registry.h"

namespace gpupy {

Backend& cuda_backend(int /*index*/) {
  throw NotImplementedError(
      "[cuda] gpupy was built without CUDA support (GPUPY_CUDA=OFF or no nvcc)");
}

namespace cuda {
bool is_built() { return false; }
bool is_available(std::string* reason) {
  if (reason) *reason = "gpupy was built without CUDA support";
  return false;
}
int device_count() { return 0; }
}  // namespace cuda

}  // namespace gpupy
