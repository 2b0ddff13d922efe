// Reduction kernels over trailing axes and their launcher, for every ReduceOp and dtype; included
// by the reduce_*.cu parts. Both compilers.
#pragma once

#include <algorithm>

#include "../../core/dispatch.h"
#include "device/reduce_ops.cuh"
#include "device/warp.cuh"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {

/// Where output m and reduced element j live: kept axes (operand 0: input, 1: output) and
/// reduced axes (input), each collapsed.
template <class I>
struct ReduceGeometry {
  StridedIndex<2, I> kept;
  StridedIndex<1, I> red;
  int64_t outputs, reduced;
};

/// Loads each thread issues before it combines them: independent loads keep enough bytes in
/// flight per thread to approach device bandwidth (one load at a time leaves a full `sum` of
/// 2^28 floats latency-bound). The combine order is the plain loop's, so results do not change.
template <class T>
inline constexpr int kReduceUnroll = sizeof(T) <= 4 ? 8 : 4;

/// Combines the elements j = first, first + step, ... below end into acc, in that order;
/// `offset(j)` is the byte offset of reduced element j from `base`.
template <class Op, class T, class Offset>
__device__ inline void reduce_strided(typename Op::Acc& acc, const char* base, Offset offset,
                                      int64_t first, int64_t end, int64_t step) {
  constexpr int U = kReduceUnroll<T>;
  auto element = [&](int64_t j) {
    return Op::load(*reinterpret_cast<const T*>(base + offset(j)), j);
  };
  int64_t j = first;
  for (; j + (U - 1) * step < end; j += U * step) {
    typename Op::Acc v[U];
    for (int u = 0; u < U; ++u) v[u] = element(j + u * step);
    for (int u = 0; u < U; ++u) acc = Op::combine(acc, v[u]);
  }
  for (; j < end; j += step) acc = Op::combine(acc, element(j));
}

/// reduce_strided over the reduced axes of `g`; one reduced axis (the common case once axes are
/// collapsed) takes a multiply per element instead of the general index walk.
template <class Op, class T, class I>
__device__ inline void reduce_range(typename Op::Acc& acc, const char* base,
                                    const ReduceGeometry<I>& g, int64_t first, int64_t end,
                                    int64_t step) {
  if (g.red.ndim == 1) {
    const I stride = g.red.strides[0][0];
    reduce_strided<Op, T>(
        acc, base, [=](int64_t j) { return static_cast<I>(j) * stride; }, first, end, step);
  } else {
    reduce_strided<Op, T>(
        acc, base,
        [&](int64_t j) {
          I off[1];
          g.red.offsets(static_cast<I>(j), off);
          return off[0];
        },
        first, end, step);
  }
}

/// One thread per output: for short reduced ranges, or when neighbouring outputs are neighbours
/// in memory (reducing a leading axis), so that the loads of a warp coalesce.
template <class Op, class T, class I>
__global__ void reduce_thread_kernel(const char* in, char* out, ReduceGeometry<I> g) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t m = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; m < g.outputs; m += step) {
    I koff[2];
    g.kept.offsets(static_cast<I>(m), koff);
    typename Op::Acc acc = Op::identity();
    reduce_range<Op, T>(acc, in + koff[0], g, 0, g.reduced, 1);
    *reinterpret_cast<typename Op::Out*>(out + koff[1]) = Op::result(acc);
  }
}

/// One block per (output, part): the block reduces `chunk` elements of the reduced range with
/// shared memory and warp shuffles. With parts == 1 it writes the output, else partials[b].
template <class Op, class T, class I>
__global__ void reduce_block_kernel(const char* in, char* out, ReduceGeometry<I> g,
                                    typename Op::Acc* partials, int64_t parts, int64_t chunk) {
  using Acc = typename Op::Acc;
  __shared__ SharedWord scratch_words[shared_words(kWarpSize * sizeof(Acc))];
  Acc* scratch = reinterpret_cast<Acc*>(scratch_words);
  const int64_t blocks = g.outputs * parts;
  for (int64_t b = blockIdx.x; b < blocks; b += gridDim.x) {  // uniform over the block
    const int64_t m = b / parts;
    const int64_t begin = (b - m * parts) * chunk;
    const int64_t end = begin + chunk < g.reduced ? begin + chunk : g.reduced;
    I koff[2];
    g.kept.offsets(static_cast<I>(m), koff);
    Acc acc = Op::identity();
    reduce_range<Op, T>(acc, in + koff[0], g, begin + threadIdx.x, end, blockDim.x);
    acc = block_reduce<Op>(acc, scratch);
    if (threadIdx.x == 0) {
      if (parts == 1)
        *reinterpret_cast<typename Op::Out*>(out + koff[1]) = Op::result(acc);
      else
        partials[b] = acc;
    }
  }
}

/// Second pass: one block per output combines its `parts` partials and writes the output.
template <class Op, class I>
__global__ void reduce_partials_kernel(const typename Op::Acc* partials, char* out,
                                       StridedIndex<2, I> kept, int64_t outputs, int64_t parts) {
  using Acc = typename Op::Acc;
  __shared__ SharedWord scratch_words[shared_words(kWarpSize * sizeof(Acc))];
  Acc* scratch = reinterpret_cast<Acc*>(scratch_words);
  for (int64_t m = blockIdx.x; m < outputs; m += gridDim.x) {
    Acc acc = Op::identity();
    for (int64_t j = threadIdx.x; j < parts; j += blockDim.x)
      acc = Op::combine(acc, partials[m * parts + j]);
    acc = block_reduce<Op>(acc, scratch);
    if (threadIdx.x == 0) {
      I koff[2];
      kept.offsets(static_cast<I>(m), koff);
      *reinterpret_cast<typename Op::Out*>(out + koff[1]) = Op::result(acc);
    }
  }
}

/// How a reduction is spread over the GPU (see choose_plan in reduce.cu).
struct ReducePlan {
  bool thread_per_output;
  int64_t parts;  // blocks per output
  int64_t chunk;  // reduced elements per block
};
ReducePlan choose_plan(const Layout<2>& kept, const Layout<1>& red);

template <class Op, class T, class I>
void reduce_run(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                const ReducePlan& plan, Stream stream) {
  ReduceGeometry<I> g{pack_index<I>(kept, "reduce"), pack_index<I>(red, "reduce"), kept.size,
                      red.size};
  const char* in = call.in.data();
  char* out = call.out.data();
  if (plan.thread_per_output) {
    auto kernel = &reduce_thread_kernel<Op, T, I>;
    GPUPY_LAUNCH(kernel, grid_for(g.outputs), kBlockSize, 0, stream, in, out, g);
    GPUPY_CHECK_LAUNCH("reduce");
    return;
  }
  using Acc = typename Op::Acc;
  Array scratch;  // partials; the stream-ordered pool keeps it valid for the queued kernels
  Acc* partials = nullptr;
  if (plan.parts > 1) {
    const int64_t bytes = g.outputs * plan.parts * int64_t(sizeof(Acc));
    scratch = Array::empty(Shape{bytes}, DType::uint8, call.out.device());
    partials = reinterpret_cast<Acc*>(scratch.data());
  }
  const auto blocks = static_cast<unsigned>(std::min(g.outputs * plan.parts, max_grid_blocks()));
  auto kernel = &reduce_block_kernel<Op, T, I>;
  GPUPY_LAUNCH(kernel, blocks, kBlockSize, 0, stream, in, out, g, partials, plan.parts, plan.chunk);
  GPUPY_CHECK_LAUNCH("reduce");
  if (plan.parts > 1) {
    const auto blocks2 = static_cast<unsigned>(std::min(g.outputs, max_grid_blocks()));
    auto kernel2 = &reduce_partials_kernel<Op, I>;
    GPUPY_LAUNCH(kernel2, blocks2, kBlockSize, 0, stream, static_cast<const Acc*>(partials), out,
                 g.kept, g.outputs, plan.parts);
    GPUPY_CHECK_LAUNCH("reduce");
  }
}

/// Launches op `Op` on a call whose input dtype is T, with 32-bit offsets when they fit.
template <class Op, class T>
void reduce_launch(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                   Stream stream) {
  const ReducePlan plan = choose_plan(kept, red);
  if (fits_int32(kept) && fits_int32(red))
    reduce_run<Op, T, int32_t>(call, kept, red, plan, stream);
  else
    reduce_run<Op, T, int64_t>(call, kept, red, plan, stream);
}

/// The parts, one per family of ops (to spread the instantiations over translation units).
void reduce_sum_prod(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                     Stream stream);
void reduce_min_max(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                    Stream stream);
void reduce_any_all(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red,
                    Stream stream);
void reduce_arg(const ReduceCall& call, const Layout<2>& kept, const Layout<1>& red, Stream stream);

}  // namespace gpupy::GPUPY_KERNEL_NS
