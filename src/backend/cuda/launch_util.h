// Host-side helpers of the kernel launchers: grid sizing, launch checks and packing of collapsed
// strided layouts into kernel parameters. Host code of the .cu files (nvcc or the host compiler).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "../cpu/strided.h"
#include "cuda_check.h"
#include "device/portable.cuh"
#include "device/strided.cuh"
#include "gpupy/error.h"

namespace gpupy::GPUPY_KERNEL_NS {

/// Threads per block of every kernel here (a multiple of the warp size, see block_reduce).
inline constexpr int kBlockSize = 256;
// About 32 blocks per SM on an H200 (132 SMs); grid-stride loops cover larger sizes.
inline constexpr int64_t kCudaGridBlocks = 4096;
#if defined(GPUPY_EMU_BUILD)
// Emulated threads cost host time each; grid-stride loops keep the work per launch the same.
inline constexpr int64_t kEmuGridBlocks = 64;
/// The grid cap of the launch plans. GPUPY_EMU_GRID_BLOCKS=4096 makes emu split reductions,
/// scans and sorts the way cuda does, so that those plans are tested without a GPU.
inline int64_t max_grid_blocks() {
  static const int64_t blocks = [] {
    const char* env = std::getenv("GPUPY_EMU_GRID_BLOCKS");
    const long long v = env ? std::atoll(env) : 0;
    return v > 0 && v <= kCudaGridBlocks ? int64_t(v) : kEmuGridBlocks;
  }();
  return blocks;
}
#else
constexpr int64_t max_grid_blocks() { return kCudaGridBlocks; }
#endif

/// Blocks for a grid-stride loop over n items (n > 0).
inline unsigned grid_for(int64_t n) {
  return static_cast<unsigned>(
      std::min<int64_t>((n + kBlockSize - 1) / kBlockSize, max_grid_blocks()));
}

#if defined(GPUPY_EMU_BUILD)
#define GPUPY_CHECK_LAUNCH(op) ((void)0)
#define GPUPY_KERNEL_NS_NAME "emu"
#else
#define GPUPY_CHECK_LAUNCH(op) ::gpupy::cuda::check_launch(op)
#define GPUPY_KERNEL_NS_NAME "cuda"
#endif

/// The collapsed layout of N operands (cpu::Layout drops size-1 axes and merges adjacent ones).
template <int N>
using Layout = cpu::Layout<N>;

/// True when every flat index and byte offset of the layout fits in int32_t.
template <int N>
bool fits_int32(const Layout<N>& layout) {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (layout.size > kMax) return false;
  for (int k = 0; k < N; ++k) {
    int64_t extent = 0;
    for (int d = 0; d < layout.ndim; ++d)
      extent += std::llabs(layout.strides[k][d]) * (layout.shape[d] - 1);
    if (extent > kMax) return false;
  }
  return true;
}

/// Kernel parameters for a collapsed layout; throws when it still has too many dimensions.
template <class I, int N>
StridedIndex<N, I> pack_index(const Layout<N>& layout, const char* op) {
  if (layout.ndim > kMaxKernelDims)
    throw NotImplementedError(op_message(
        op, "more than " + std::to_string(kMaxKernelDims) + " non-mergeable dimensions"));
  StridedIndex<N, I> index{};
  index.ndim = layout.ndim;
  for (int d = 0; d < layout.ndim; ++d) {
    index.shape[d] = static_cast<I>(layout.shape[d]);
    for (int k = 0; k < N; ++k) index.strides[k][d] = static_cast<I>(layout.strides[k][d]);
  }
  return index;
}

/// A layout over no dimensions at all (one element), for callers that need a placeholder.
template <int N, class I>
StridedIndex<N, I> scalar_index() {
  StridedIndex<N, I> index{};
  index.ndim = 1;
  index.shape[0] = 1;
  return index;
}

}  // namespace gpupy::GPUPY_KERNEL_NS
