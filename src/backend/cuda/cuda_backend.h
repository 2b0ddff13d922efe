// The cuda backend of one device: pooled memory, staged transfers, kernels queued on the device's
// current stream, matmul through cuBLAS. Host only.
#pragma once

#include <cuda_runtime.h>

#include "../backend.h"
#include "host_transfer.h"
#include "memory_pool.h"

namespace gpupy::cuda {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) : device_(device), pool_(device) {}
  const char* name() const override { return "cuda"; }
  int device() const { return device_; }
  MemoryPool& pool() { return pool_; }

  void* allocate(size_t nbytes, uint64_t& stream_id) override;
  void deallocate(void* ptr, size_t nbytes) override { pool_.deallocate(ptr); }
  MemoryStats memory_stats() const override;
  void free_all_blocks() override;

  void copy_from_host(void* dst, const void* src, size_t nbytes) override;
  void copy_to_host(void* dst, const void* src, size_t nbytes) override;
  void synchronize() override;

  void copy(const Array& src, const Array& dst) override;
  void fill(const Array& dst, const Scalar& value) override;
  void iota(const Array& dst, const Scalar& start, const Scalar& step) override;
  void elementwise(const ElementwiseCall& call) override;
  void reduce(const ReduceCall& call) override;
  void matmul(const Array& a, const Array& b, const Array& out) override;
  void sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out) override;
  // ---- sorting and scans ----
  // (added by the sorting patterns; keep this marker)
  void sort(const Array& in, const Array& values_out, const Array* indices_out,
            bool descending) override;
  void partition(const Array& in, const std::vector<int64_t>& kth, const Array& values_out,
                 const Array* indices_out) override;
  void scan(ScanOp op, const Array& in, const Array& out) override;
  void searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                    const Array& out, bool right) override;

  // ---- gather and scatter (advanced indexing) ----
  // (added by the gather patterns; keep this marker)
  bool index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                     bool accumulate, int64_t& bad) override;
  void gather(const GatherCall& call) override;
  void scatter(const GatherCall& call) override;
  Array flatnonzero(const Array& mask) override;

  // ---- binning ----
  void bin_add(const Array& index, const Array* weights, const Array& out) override;
  void uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                         const Array& out) override;

  // ---- selection (where) ----
  // (added by the selection patterns; keep this marker)
  void where(const Array& cond, const Operand& x, const Operand& y, const Array& out) override;

  // ---- random numbers ----
  void philox_fill(const Array& out, uint64_t key, uint64_t counter,
                   RandomDistribution dist) override;

  bool supports(ElementwiseOp, DType) const override { return true; }

  /// This thread's current stream, after telling the pool about each operand (an Array, an
  /// Array*, an Operand) allocated on another stream; every launch on user data goes through it.
  template <class... Operands>
  cudaStream_t stream_for(const Operands&... operands) {
    StreamRef s = current_stream_ref(device_);
    (note(operands, s), ...);
    return s.raw;
  }

 private:
  void note(const Array& a, StreamRef s) { pool_.note_use(a, s); }
  void note(const Array* a, StreamRef s) {
    if (a) pool_.note_use(*a, s);
  }
  void note(const Operand& x, StreamRef s) {
    if (x.is_array()) pool_.note_use(x.array(), s);
  }
  void note(const Operand* x, StreamRef s) {
    if (x) note(*x, s);
  }

  int device_;
  MemoryPool pool_;
  HostTransfer transfer_;
};

/// The cuda backend of `device` (registry.h's cuda_backend, with its concrete type).
CudaBackend& backend_of(int device);

/// out = a @ b for float32/float64/complex64/complex128 with cuBLAS (see Backend::matmul).
void blas_matmul(int device, const Array& a, const Array& b, const Array& out, cudaStream_t stream);

}  // namespace gpupy::cuda
