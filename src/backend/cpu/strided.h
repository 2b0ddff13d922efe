// Dimension collapsing and segment iteration over N strided operands. Host only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "gpupy/array.h"

namespace gpupy::cpu {

inline constexpr int kMaxDims = 64;

/// N operands over one shape, with size-1 axes dropped and mergeable axes merged, so that a
/// C-contiguous case becomes a single axis. Strides in bytes; the last axis is the innermost.
template <int N>
struct Layout {
  int ndim = 0;
  int64_t shape[kMaxDims];
  int64_t strides[N][kMaxDims];
  int64_t size = 1;

  Layout(const Shape& full_shape, const std::array<const int64_t*, N>& full_strides) {
    for (size_t d = 0; d < full_shape.size(); ++d) {
      size *= full_shape[d];
      if (full_shape[d] == 1) continue;
      bool merge = ndim > 0;
      for (int k = 0; k < N && merge; ++k)
        merge = strides[k][ndim - 1] == full_strides[k][d] * full_shape[d];
      if (merge) {
        shape[ndim - 1] *= full_shape[d];
        for (int k = 0; k < N; ++k) strides[k][ndim - 1] = full_strides[k][d];
      } else {
        shape[ndim] = full_shape[d];
        for (int k = 0; k < N; ++k) strides[k][ndim] = full_strides[k][d];
        ++ndim;
      }
    }
    if (ndim == 0) {  // a scalar: one axis of length 1
      shape[0] = 1;
      for (int k = 0; k < N; ++k) strides[k][0] = 0;
      ndim = 1;
    }
  }

  int64_t inner_stride(int k) const { return strides[k][ndim - 1]; }

  /// Calls fn(ptrs, count) for runs of the innermost axis covering flat elements [begin, end)
  /// (C order); ptrs point at each operand's first element of the run.
  template <class Fn>
  void for_each_run(const std::array<char*, N>& base, int64_t begin, int64_t end, Fn&& fn) const {
    int64_t index[kMaxDims];
    std::array<char*, N> p = base;
    int64_t rem = begin;
    for (int d = ndim - 1; d >= 0; --d) {
      index[d] = rem % shape[d];
      rem /= shape[d];
      for (int k = 0; k < N; ++k) p[k] += index[d] * strides[k][d];
    }
    const int last = ndim - 1;
    int64_t pos = begin;
    while (pos < end) {
      int64_t count = std::min(shape[last] - index[last], end - pos);
      fn(p, count);
      pos += count;
      index[last] += count;
      for (int k = 0; k < N; ++k) p[k] += count * strides[k][last];
      for (int d = last; d > 0 && index[d] == shape[d]; --d) {
        index[d] = 0;
        ++index[d - 1];
        for (int k = 0; k < N; ++k) p[k] += strides[k][d - 1] - shape[d] * strides[k][d];
      }
    }
  }
};

}  // namespace gpupy::cpu
