// The emu backend: host memory treated as device memory, and gpupy's CUDA kernels
// (src/backend/cuda/*.cu) compiled by the host compiler against the emulation runtime. Host only.
#include <cstdlib>
#include <cstring>

#include "../../core/host_allocator.h"
#include "../cuda/kernels.h"
#include "../registry.h"

namespace gpupy {
namespace {

// GPUPY_EMU_POISON=1: new emu memory is filled with 0xff bytes (NaN, -1), as a GPU's pool hands
// out whatever its last user left, where fresh host pages read as zeros and hide a missing fill.
bool poison_new_memory() {
  static const bool poison = [] {
    const char* env = std::getenv("GPUPY_EMU_POISON");
    return env && *env && std::strcmp(env, "0") != 0;
  }();
  return poison;
}

class EmuBackend final : public Backend {
 public:
  const char* name() const override { return "emu"; }
  void* allocate(size_t nbytes, uint64_t&) override {
    void* p = allocator_.allocate(nbytes, "emu");
    if (poison_new_memory()) std::memset(p, 0xff, nbytes);
    return p;
  }
  void deallocate(void* ptr, size_t nbytes) override { allocator_.deallocate(ptr, nbytes); }
  MemoryStats memory_stats() const override { return allocator_.stats(); }
  void free_all_blocks() override { allocator_.release_cached(); }
  // Emulated launches complete before they return, so transfers need no synchronisation.
  void copy_from_host(void* dst, const void* src, size_t nbytes) override {
    std::memcpy(dst, src, nbytes);
  }
  void copy_to_host(void* dst, const void* src, size_t nbytes) override {
    std::memcpy(dst, src, nbytes);
  }
  void synchronize() override {}
  void copy(const Array& src, const Array& dst) override { emu::launch_copy(src, dst, nullptr); }
  void fill(const Array& dst, const Scalar& value) override {
    emu::launch_fill(dst, value, nullptr);
  }
  void iota(const Array& dst, const Scalar& start, const Scalar& step) override {
    emu::launch_iota(dst, start, step, nullptr);
  }
  void elementwise(const ElementwiseCall& call) override { emu::launch_elementwise(call, nullptr); }
  void reduce(const ReduceCall& call) override { emu::launch_reduce(call, nullptr); }
  void matmul(const Array& a, const Array& b, const Array& out) override {
    emu::launch_matmul(a, b, out, nullptr);
  }
  void sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out) override {
    emu::launch_sliding_dot(a, v, shift, out, nullptr);
  }
  // ---- sorting and scans ----
  // (added by the sorting patterns; keep this marker)
  void sort(const Array& in, const Array& values_out, const Array* indices_out,
            bool descending) override {
    emu::launch_sort(in, values_out, indices_out, descending, nullptr);
  }
  // As cuda: the full sort is the selection.
  void partition(const Array& in, const std::vector<int64_t>& /*kth*/, const Array& values_out,
                 const Array* indices_out) override {
    emu::launch_sort(in, values_out, indices_out, /*descending=*/false, nullptr);
  }
  void scan(ScanOp op, const Array& in, const Array& out) override {
    emu::launch_scan(op, in, out, nullptr);
  }
  void searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                    const Array& out, bool right) override {
    emu::launch_searchsorted(sorted, sorter, queries, out, right, nullptr);
  }

  // ---- gather and scatter (advanced indexing) ----
  // (added by the gather patterns; keep this marker)
  bool index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                     bool accumulate, int64_t& bad) override {
    return emu::launch_index_offsets(index, n, stride, offsets, accumulate, bad, nullptr);
  }
  void gather(const GatherCall& call) override { emu::launch_gather(call, nullptr); }
  void scatter(const GatherCall& call) override { emu::launch_scatter(call, nullptr); }
  Array flatnonzero(const Array& mask) override { return emu::launch_flatnonzero(mask, nullptr); }

  // ---- binning ----
  void bin_add(const Array& index, const Array* weights, const Array& out) override {
    emu::launch_bin_add(index, weights, out, nullptr);
  }
  void uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                         const Array& out) override {
    emu::launch_uniform_bin_index(x, edges, bins, out, nullptr);
  }

  // ---- selection (where) ----
  // (added by the selection patterns; keep this marker)
  void where(const Array& cond, const Operand& x, const Operand& y, const Array& out) override {
    emu::launch_where(cond, x, y, out, nullptr);
  }

  // ---- random numbers ----
  void philox_fill(const Array& out, uint64_t key, uint64_t counter,
                   RandomDistribution dist) override {
    emu::launch_philox_fill(out, key, counter, dist, nullptr);
  }

  bool supports(ElementwiseOp, DType) const override { return true; }

 private:
  HostAllocator allocator_;
};

}  // namespace

Backend& emu_backend() {
  static EmuBackend backend;
  return backend;
}

}  // namespace gpupy
