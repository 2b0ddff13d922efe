// Kernels of launch_copy (dtype-converting copies over any strides and a same-dtype word copy)
// and the declarations of the copy_convert_part*.cu launchers. Both compilers.
#pragma once

#include <cstdint>

#include "../../core/dispatch.h"
#include "../../functors/cast.h"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {

/// 16 bytes moved by one load/store (both addresses 16-byte aligned).
struct alignas(16) Word16 {
  uint64_t lo, hi;
};

/// dst[i] = src[i] for n dense words: the same-dtype contiguous fast path.
template <class W>
__global__ void copy_words_kernel(W* dst, const W* src, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    dst[i] = src[i];
}

/// One collapsed axis: byte strides, no div/mod (covers every contiguous conversion).
template <class R, class T>
__global__ void copy_1d_kernel(char* dst, const char* src, int64_t n, int64_t sd, int64_t ss) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    *reinterpret_cast<R*>(dst + i * sd) = cast_value<R>(*reinterpret_cast<const T*>(src + i * ss));
}

/// Any number of collapsed axes; operand 0 of `index` is dst, operand 1 is src.
template <class R, class T, class I>
__global__ void copy_strided_kernel(char* dst, const char* src, StridedIndex<2, I> index,
                                    int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[2];
    index.offsets(static_cast<I>(i), off);
    *reinterpret_cast<R*>(dst + off[0]) = cast_value<R>(*reinterpret_cast<const T*>(src + off[1]));
  }
}

/// Launches the converting copy from dtype T to dtype R over a collapsed layout (operand 0 dst).
template <class R, class T>
void copy_convert(const Array& src, const Array& dst, const Layout<2>& layout, Stream stream) {
  const int64_t n = layout.size;
  if (layout.ndim == 1) {
    auto kernel = &copy_1d_kernel<R, T>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(),
                 static_cast<const char*>(src.data()), n, layout.strides[0][0],
                 layout.strides[1][0]);
  } else if (fits_int32(layout)) {
    auto kernel = &copy_strided_kernel<R, T, int32_t>;
    auto index = pack_index<int32_t>(layout, "copy");
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(),
                 static_cast<const char*>(src.data()), index, n);
  } else {
    auto kernel = &copy_strided_kernel<R, T, int64_t>;
    auto index = pack_index<int64_t>(layout, "copy");
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(),
                 static_cast<const char*>(src.data()), index, n);
  }
  GPUPY_CHECK_LAUNCH("copy");
}

/// Converting copies to dst dtypes bool..uint8 (part 0) and uint16..complex128 (part 1).
inline bool copy_convert_in_part0(DType dst) { return dst <= DType::uint8; }
void copy_convert_part0(const Array& src, const Array& dst, const Layout<2>& layout, Stream stream);
void copy_convert_part1(const Array& src, const Array& dst, const Layout<2>& layout, Stream stream);

/// Body of the two parts: dispatches both dtypes, instantiating only the part's dst dtypes.
template <bool kPart0>
void copy_convert_dispatch(const Array& src, const Array& dst, const Layout<2>& layout,
                           Stream stream) {
  dispatch_dtype(dst.dtype(), [&](auto out_tag) {
    using R = typename decltype(out_tag)::type;
    if constexpr ((dtype_of<R>() <= DType::uint8) == kPart0) {
      dispatch_dtype(src.dtype(), [&](auto in_tag) {
        using T = typename decltype(in_tag)::type;
        copy_convert<R, T>(src, dst, layout, stream);
      });
    } else {
      throw ValueError("[copy] dtype routed to the wrong part");
    }
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
