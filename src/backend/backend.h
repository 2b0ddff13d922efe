// The interface every backend (cpu, cuda, emu) implements: memory, transfers and kernel patterns.
// The op front end (src/ops/) validates and prepares; a backend only executes. Host only.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "gpupy/array.h"
#include "gpupy/ops.h"
#include "gpupy/random.h"

namespace gpupy {

/// Allocator counters (bytes) reported by `gpupy.memory_stats()`.
struct MemoryStats {
  size_t used_bytes = 0;     // held by live arrays
  size_t pending_bytes = 0;  // freed, kept until other streams' work on them is done (cuda)
  size_t total_bytes = 0;    // held by the pool: used + pending + cached
};

/// One elementwise launch, already validated: every array input has dtype `in_dtype` and is
/// broadcast (zero strides) to `out.shape()`; scalars are already cast to `in_dtype`; `out` has
/// the functor's result dtype and does not partially overlap any input.
struct ElementwiseCall {
  ElementwiseOp op;
  int nin;
  std::array<const Operand*, 3> inputs;
  DType in_dtype;
  Array out;
};

/// Reduction kinds a backend implements; mean/var/std are composed in the front end.
enum class ReduceOp : uint8_t { sum, prod, min, max, any, all, argmin, argmax };
/// Inclusive scans a backend implements (cumsum, cumprod).
enum class ScanOp : uint8_t { sum, prod };

/// One reduction: `in` has the kept axes first and the `n_reduced` reduced axes last; `out` has the
/// kept axes' shape (any strides) and dtype `out.dtype()` (the accumulator dtype for sum/prod,
/// int64 for argmin/argmax, bool for any/all). `in` is already cast to `in_dtype == in.dtype()`,
/// except for a sum of bool into int64: the count of true elements, read without a cast.
struct ReduceCall {
  ReduceOp op;
  Array in;
  int n_reduced;
  Array out;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;

  /// Device memory for `nbytes` (never null; throws MemoryError). Devices with streams set
  /// `stream_id` to the id of the stream the memory is ordered on (Buffer::stream_id).
  virtual void* allocate(size_t nbytes, uint64_t& stream_id) = 0;
  /// Returns memory from `allocate`.
  virtual void deallocate(void* ptr, size_t nbytes) = 0;
  virtual MemoryStats memory_stats() const = 0;
  /// Releases cached, unused blocks to the system.
  virtual void free_all_blocks() = 0;

  /// Contiguous copies between host memory and this device's memory.
  virtual void copy_from_host(void* dst, const void* src, size_t nbytes) = 0;
  virtual void copy_to_host(void* dst, const void* src, size_t nbytes) = 0;
  /// Waits until all queued work on this device is done.
  virtual void synchronize() = 0;

  /// dst[...] = src[...] with dtype conversion; same shape, any strides, may not overlap.
  virtual void copy(const Array& src, const Array& dst) = 0;
  /// dst[...] = value (already of dst's dtype).
  virtual void fill(const Array& dst, const Scalar& value) = 0;
  /// dst[i] = start + i * step for a 1-D dst; values computed in dst's dtype (complex allowed).
  virtual void iota(const Array& dst, const Scalar& start, const Scalar& step) = 0;
  /// The strided N-ary elementwise pattern.
  virtual void elementwise(const ElementwiseCall& call) = 0;
  /// Reduction over the trailing axes.
  virtual void reduce(const ReduceCall& call) = 0;
  /// out[..., m, n] = a[..., m, k] @ b[..., k, n], batch axes already broadcast; same dtypes.
  virtual void matmul(const Array& a, const Array& b, const Array& out) = 0;
  /// out[i] = sum over j in [0, v.size()) with 0 <= shift + i + j < a.size() of
  /// a[shift + i + j] * v[j], summed in ascending j (see sliding::one_output): convolve and
  /// correlate. a, v, out 1-D C-contiguous, one dtype (not float16).
  virtual void sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out) = 0;

  // ---- sorting and scans ----
  // (added by the sorting patterns; keep this marker)
  /// Stable sort of each row along the last axis of `in` into `values_out` (same shape and dtype,
  /// not overlapping `in`) and, if given, the int64 source positions into `*indices_out`. NaNs
  /// sort last (first when `descending`, whose ties still keep their order); complex is
  /// lexicographic.
  virtual void sort(const Array& in, const Array& values_out, const Array* indices_out,
                    bool descending) = 0;
  /// Selection: each row along the last axis of `in` into `values_out` (and the int64 source
  /// positions into `*indices_out`, if given), with the element at every position of `kth`
  /// (ascending, distinct, within the row) the one a full sort puts there, no greater one before
  /// it and no smaller one after it. Order between kth positions is unspecified; NaNs go last.
  virtual void partition(const Array& in, const std::vector<int64_t>& kth, const Array& values_out,
                         const Array* indices_out) = 0;
  /// Inclusive scan along the last axis; `in` has `out`'s shape and dtype.
  virtual void scan(ScanOp op, const Array& in, const Array& out) = 0;
  /// out[...] (int64) = insertion points of `queries` into the 1-D `sorted` (read through the
  /// int64 permutation `*sorter` if given), in the sort order above; `sorted` and `queries` share
  /// a dtype.
  virtual void searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                            const Array& out, bool right) = 0;

  // ---- gather and scatter (advanced indexing) ----
  // (added by the gather patterns; keep this marker)
  /// One gather or scatter over the result shape of an advanced index. `data` is a view of the
  /// indexed array laid out in that shape (zero strides on the index-array dims), `offsets` holds
  /// int64 byte offsets (in bounds, checked by the front end) broadcast to the same shape, and
  /// `values` has that shape and data's dtype. Element p lives at data(p) + offsets(p).
  struct GatherCall {
    Array data;
    Array offsets;
    Array values;
    Array target;  ///< scatter: the indexed view (its extent holds every target); unset when
                   ///< the targets are known distinct (boolean masks), which skips last-wins
  };
  /// offsets[p] (`accumulate`: +=) = wrap(index[p]) * stride, with wrap(v) = v + n for v < 0:
  /// `index` int64 broadcast to the C-contiguous int64 `offsets`. Returns false, with an index
  /// outside [-n, n) in `bad` (cpu: the first in C order), when there is one.
  virtual bool index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                             bool accumulate, int64_t& bad) = 0;
  /// values[p] = element p of data.
  virtual void gather(const GatherCall& call) = 0;
  /// element p of data = values[p]. Duplicates: the last in C order wins, as in NumPy, on every
  /// device (cuda/emu: a pass finds each target's last writer first, unless `target` is unset).
  virtual void scatter(const GatherCall& call) = 0;
  /// C-order flat indices (int64, 1-D, on this device) of the true elements of a bool array.
  virtual Array flatnonzero(const Array& mask) = 0;

  // ---- binning (bincount, histogram, ufunc.at of add) ----
  /// out[index[k]] += weights[k] (+1 when `weights` is null) for k = 0, 1, ...: `index` is 1-D
  /// int64, `out` 1-D C-contiguous int64, float32 or float64, `weights` 1-D of index's length
  /// and out's dtype. Indices outside [0, out.size()) are skipped. cpu adds in index order (as
  /// NumPy does); cuda adds with atomics, so float sums are in an unspecified order.
  virtual void bin_add(const Array& index, const Array* weights, const Array& out) = 0;
  /// out[k] (int64) = bin_index::uniform(x[k], edges, edges.size() - 1, bins): `x` 1-D
  /// C-contiguous real (not float16), `edges` 1-D C-contiguous float32 or float64, out like x.
  virtual void uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                                 const Array& out) = 0;

  // ---- selection (where) ----
  // (added by the selection patterns; keep this marker)
  /// out[...] = cond ? x : y; cond bool, x/y of out's dtype (or scalars), all broadcast to out.
  virtual void where(const Array& cond, const Operand& x, const Operand& y, const Array& out) = 0;

  // ---- random numbers ----
  /// out[i] (C-contiguous) = `dist` drawn from Philox4x32-10 block (key, counter + i): float32
  /// or float64 for uniform/normal, uint64 for bits (see fn::philox_draw).
  virtual void philox_fill(const Array& out, uint64_t key, uint64_t counter,
                           RandomDistribution dist) = 0;

  /// Whether the backend has a loop for `op` with inputs of dtype `dt`.
  virtual bool supports(ElementwiseOp op, DType dt) const = 0;
};

/// The backend serving `device`; throws NotImplementedError when it was not built, or
/// CudaError/RuntimeError when it cannot run here.
Backend& backend_for(Device device);

}  // namespace gpupy
