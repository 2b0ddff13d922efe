// CudaBackend: every method sets the device, then queues work on its current stream. Host only.
#include "cuda_backend.h"

#include "../registry.h"
#include "cuda_check.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {

CudaBackend& backend_of(int device) { return static_cast<CudaBackend&>(cuda_backend(device)); }

void record_stream(const Buffer& buffer, uintptr_t stream) {
  if (buffer.device.type != DeviceType::cuda || buffer.stream_id == 0) return;
  // Work on the stream the memory was allocated on is ordered by it: the common case of a launch
  // on the current stream needs no lock.
  StreamRef current = current_stream_ref(buffer.device.index);
  if (current.id == buffer.stream_id && reinterpret_cast<uintptr_t>(current.raw) == stream) return;
  // The protocols' 1 and 2 are the values of cudaStreamLegacy and cudaStreamPerThread.
  backend_of(buffer.device.index)
      .pool()
      .record_use(buffer.data, reinterpret_cast<cudaStream_t>(stream));
}

void* CudaBackend::allocate(size_t nbytes, uint64_t& stream_id) {
  DeviceGuard guard(device_);
  StreamRef s = current_stream_ref(device_);
  stream_id = s.id;
  return pool_.allocate(nbytes, s.raw);
}

MemoryStats CudaBackend::memory_stats() const {
  PoolStats s = pool_.stats();
  return {s.used_bytes, s.pending_bytes, s.total_bytes};
}

void CudaBackend::free_all_blocks() {
  DeviceGuard guard(device_);
  pool_.free_all_blocks();
}

// The transfers need no stream_for: to_host waits for its copy, and to_device fills arrays just
// allocated on the current stream.
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
  launch_copy(src, dst, stream_for(src, dst));
}

void CudaBackend::fill(const Array& dst, const Scalar& value) {
  DeviceGuard guard(device_);
  launch_fill(dst, value, stream_for(dst));
}

void CudaBackend::iota(const Array& dst, const Scalar& start, const Scalar& step) {
  DeviceGuard guard(device_);
  launch_iota(dst, start, step, stream_for(dst));
}

void CudaBackend::elementwise(const ElementwiseCall& call) {
  DeviceGuard guard(device_);
  // Inputs past nin are null (the ops layer value-initialises them) and note nothing.
  launch_elementwise(call, stream_for(call.inputs[0], call.inputs[1], call.inputs[2], call.out));
}

void CudaBackend::reduce(const ReduceCall& call) {
  DeviceGuard guard(device_);
  launch_reduce(call, stream_for(call.in, call.out));
}

void CudaBackend::matmul(const Array& a, const Array& b, const Array& out) {
  DeviceGuard guard(device_);
  cudaStream_t stream = stream_for(a, b, out);
  DType dt = out.dtype();
  if (is_floating(dt) || is_complex(dt))
    blas_matmul(device_, a, b, out, stream);
  else
    launch_matmul(a, b, out, stream);
}

void CudaBackend::sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out) {
  DeviceGuard guard(device_);
  launch_sliding_dot(a, v, shift, out, stream_for(a, v, out));
}

// ---- sorting and scans ----

void CudaBackend::sort(const Array& in, const Array& values_out, const Array* indices_out,
                       bool descending) {
  DeviceGuard guard(device_);
  launch_sort(in, values_out, indices_out, descending, stream_for(in, values_out, indices_out));
}

// A full sort places every position as a selection would; no selection kernel yet.
void CudaBackend::partition(const Array& in, const std::vector<int64_t>& /*kth*/,
                            const Array& values_out, const Array* indices_out) {
  sort(in, values_out, indices_out, /*descending=*/false);
}

void CudaBackend::scan(ScanOp op, const Array& in, const Array& out) {
  DeviceGuard guard(device_);
  launch_scan(op, in, out, stream_for(in, out));
}

void CudaBackend::searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                               const Array& out, bool right) {
  DeviceGuard guard(device_);
  launch_searchsorted(sorted, sorter, queries, out, right,
                      stream_for(sorted, sorter, queries, out));
}

}  // namespace gpupy::cuda
