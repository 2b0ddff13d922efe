// The cpu backend object and its memory operations. Host only.
#include "cpu_backend.h"

#include <cstring>

#include "../registry.h"

namespace gpupy {

namespace cpu {

void CpuBackend::copy_from_host(void* dst, const void* src, size_t nbytes) {
  std::memcpy(dst, src, nbytes);
}
void CpuBackend::copy_to_host(void* dst, const void* src, size_t nbytes) {
  std::memcpy(dst, src, nbytes);
}
void CpuBackend::copy(const Array& src, const Array& dst) { copy_kernel(src, dst); }
void CpuBackend::fill(const Array& dst, const Scalar& value) { fill_kernel(dst, value); }
void CpuBackend::iota(const Array& dst, const Scalar& start, const Scalar& step) {
  iota_kernel(dst, start, step);
}
void CpuBackend::elementwise(const ElementwiseCall& call) { elementwise_kernel(call); }
void CpuBackend::reduce(const ReduceCall& call) { reduce_kernel(call); }
void CpuBackend::matmul(const Array& a, const Array& b, const Array& out) {
  matmul_kernel(a, b, out);
}

}  // namespace cpu

Backend& cpu_backend() {
  static cpu::CpuBackend backend;
  return backend;
}

}  // namespace gpupy
