// The cpu backend: host memory, C++ loops, BLAS. Host only.
#pragma once

#include "../../core/host_allocator.h"
#include "../backend.h"
#include "gpupy/error.h"

namespace gpupy::cpu {

class CpuBackend final : public Backend {
 public:
  const char* name() const override { return "cpu"; }
  void* allocate(size_t nbytes, uint64_t&) override { return allocator_.allocate(nbytes, "cpu"); }
  void deallocate(void* ptr, size_t nbytes) override { allocator_.deallocate(ptr, nbytes); }
  MemoryStats memory_stats() const override { return allocator_.stats(); }
  void free_all_blocks() override { allocator_.release_cached(); }
  void copy_from_host(void* dst, const void* src, size_t nbytes) override;
  void copy_to_host(void* dst, const void* src, size_t nbytes) override;
  void synchronize() override {}
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

 private:
  HostAllocator allocator_;
};

// Kernel entry points, one per translation unit family.
void copy_kernel(const Array& src, const Array& dst);
void fill_kernel(const Array& dst, const Scalar& value);
void iota_kernel(const Array& dst, const Scalar& start, const Scalar& step);
void elementwise_kernel(const ElementwiseCall& call);
void reduce_kernel(const ReduceCall& call);
void matmul_kernel(const Array& a, const Array& b, const Array& out);

/// Elements below which a kernel runs on one thread.
inline constexpr int64_t kParallelGrain = 1 << 15;

}  // namespace gpupy::cpu
