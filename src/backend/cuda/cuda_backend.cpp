// CudaBackend: every method sets the device, then queues work on its current stream. Host only.
#include "cuda_backend.h"

#include "cuda_check.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

void* CudaBackend::allocate(size_t nbytes) {
  DeviceGuard guard(device_);
  return pool_.allocate(nbytes, current_raw_stream(device_));
}

MemoryStats CudaBackend::memory_stats() const {
  PoolStats s = pool_.stats();
  return {s.used_bytes, s.total_bytes};
}

void CudaBackend::free_all_blocks() {
  DeviceGuard guard(device_);
  pool_.free_all_blocks();
}

void CudaBackend::copy_from_host(void* dst, const void* src, size_t nbytes) {
  DeviceGuard guard(device_);
  transfer_.to_device(dst, src, nbytes, current_raw_stream(device_));
}

void CudaBackend::copy_to_host(void* dst, const void* src, size_t nbytes) {
  DeviceGuard guard(device_);
  transfer_.to_host(dst, src, nbytes, current_raw_stream(device_));
}

void CudaBackend::synchronize() {
  DeviceGuard guard(device_);
  GPUPY_CUDA_CHECK(cudaDeviceSynchronize());
}

void CudaBackend::copy(const Array& src, const Array& dst) {
  DeviceGuard guard(device_);
  launch_copy(src, dst, current_raw_stream(device_));
}

void CudaBackend::fill(const Array& dst, const Scalar& value) {
  DeviceGuard guard(device_);
  launch_fill(dst, value, current_raw_stream(device_));
}

void CudaBackend::iota(const Array& dst, const Scalar& start, const Scalar& step) {
  DeviceGuard guard(device_);
  launch_iota(dst, start, step, current_raw_stream(device_));
}

void CudaBackend::elementwise(const ElementwiseCall& call) {
  DeviceGuard guard(device_);
  launch_elementwise(call, current_raw_stream(device_));
}

void CudaBackend::reduce(const ReduceCall& call) {
  DeviceGuard guard(device_);
  launch_reduce(call, current_raw_stream(device_));
}

void CudaBackend::matmul(const Array& a, const Array& b, const Array& out) {
  DeviceGuard guard(device_);
  cudaStream_t stream = current_raw_stream(device_);
  DType dt = out.dtype();
  if (is_floating(dt) || is_complex(dt))
    blas_matmul(device_, a, b, out, stream);
  else
    launch_matmul(a, b, out, stream);
}

// ---- sorting and scans ----

void CudaBackend::sort(const Array& in, const Array& values_out, const Array* indices_out,
                       bool descending) {
  DeviceGuard guard(device_);
  launch_sort(in, values_out, indices_out, descending, current_raw_stream(device_));
}

void CudaBackend::scan(ScanOp op, const Array& in, const Array& out) {
  DeviceGuard guard(device_);
  launch_scan(op, in, out, current_raw_stream(device_));
}

void CudaBackend::searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                               const Array& out, bool right) {
  DeviceGuard guard(device_);
  launch_searchsorted(sorted, sorter, queries, out, right, current_raw_stream(device_));
}

}  // namespace gpupy::cuda
