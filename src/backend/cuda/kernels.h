// Host-side entry points of gpupy's CUDA kernels (src/backend/cuda/*.cu). The same declarations
// serve the cuda build (namespace gpupy::cuda) and the emu build (gpupy::emu). Host only.
#pragma once

#include "../backend.h"
#include "device/portable.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

/// dst[...] = src[...] with dtype conversion; any strides, same shape.
void launch_copy(const Array& src, const Array& dst, Stream stream);
/// dst[...] = value (already of dst's dtype).
void launch_fill(const Array& dst, const Scalar& value, Stream stream);
/// dst[i] = start + i * step for a 1-D dst.
void launch_iota(const Array& dst, const Scalar& start, const Scalar& step, Stream stream);
/// The strided N-ary elementwise pattern (see ElementwiseCall in backend.h).
void launch_elementwise(const ElementwiseCall& call, Stream stream);
/// Reduction over trailing axes (see ReduceCall in backend.h); temporaries come from
/// Array::empty on the output's device.
void launch_reduce(const ReduceCall& call, Stream stream);
/// Batched matmul with our own tiled kernel (integers everywhere; every dtype on emu).
void launch_matmul(const Array& a, const Array& b, const Array& out, Stream stream);
/// One thread per output of the sliding dot product (see Backend::sliding_dot).
void launch_sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out,
                        Stream stream);

// ---- sorting and scans ----
// (added by the sorting patterns; keep this marker)
/// Stable per-row sort along the last axis (see Backend::sort); temporaries on the output's device.
void launch_sort(const Array& in, const Array& values_out, const Array* indices_out,
                 bool descending, Stream stream);
/// Inclusive scan along the last axis (see Backend::scan).
void launch_scan(ScanOp op, const Array& in, const Array& out, Stream stream);
/// One binary search per query (see Backend::searchsorted).
void launch_searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                         const Array& out, bool right, Stream stream);

// ---- gather and scatter (advanced indexing) ----
// (added by the gather patterns; keep this marker)
/// Bounds-checked byte offsets of one index array (see Backend::index_offsets): one pass that
/// flags an out-of-bounds index in device memory, then one read of that flag.
bool launch_index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                          bool accumulate, int64_t& bad, Stream stream);
/// The gather and scatter patterns (see Backend::GatherCall).
void launch_gather(const Backend::GatherCall& call, Stream stream);
void launch_scatter(const Backend::GatherCall& call, Stream stream);
/// Two-pass compaction: per-block counts, a host prefix over them, then an ordered write pass.
Array launch_flatnonzero(const Array& mask, Stream stream);

// ---- binning ----
/// out[index[k]] += weights[k] or 1 by atomics (see Backend::bin_add).
void launch_bin_add(const Array& index, const Array* weights, const Array& out, Stream stream);
/// histogram's equal-width bin of each element (see Backend::uniform_bin_index).
void launch_uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                              const Array& out, Stream stream);

// ---- selection (where) ----
// (added by the selection patterns; keep this marker)
/// out[...] = cond ? x : y (see Backend::where).
void launch_where(const Array& cond, const Operand& x, const Operand& y, const Array& out,
                  Stream stream);

// ---- random numbers ----
/// out[i] = Philox4x32-10 draw (key, counter + i) (see Backend::philox_fill).
void launch_philox_fill(const Array& out, uint64_t key, uint64_t counter, RandomDistribution dist,
                        Stream stream);

}  // namespace gpupy::GPUPY_KERNEL_NS
