// Flat index -> per-operand byte offsets over collapsed dimensions. Both compilers (host code
// packs it, kernels use it).
#pragma once

#include <cstdint>

#include "gpupy/config.h"
#include "portable.cuh"

// Everything from the .cu files lives in gpupy::cuda or gpupy::emu so both builds link together.
namespace gpupy::GPUPY_KERNEL_NS {

/// Most dimensions a kernel handles after size-1 axes are dropped and mergeable axes merged.
inline constexpr int kMaxKernelDims = 16;

/// Shape and byte strides of N operands over one collapsed shape (last axis innermost). `I` is
/// int32_t when every offset fits in 32 bits (cheaper div/mod), int64_t otherwise.
template <int N, class I>
struct StridedIndex {
  int ndim;
  I shape[kMaxKernelDims];
  I strides[N][kMaxKernelDims];

  /// Byte offsets of C-order flat element `idx` (0 <= idx < size) for every operand.
  GPUPY_HD void offsets(I idx, I (&off)[N]) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    // The outermost axis needs no modulo: what is left of idx is its coordinate.
    for (int d = ndim - 1; d > 0; --d) {
      I q = idx / shape[d];
      I r = idx - q * shape[d];
      for (int k = 0; k < N; ++k) off[k] += r * strides[k][d];
      idx = q;
    }
    for (int k = 0; k < N; ++k) off[k] += idx * strides[k][0];
  }
};

}  // namespace gpupy::GPUPY_KERNEL_NS
