// launch_copy, launch_fill and launch_iota. Kernels: copy_words_kernel (same dtype, dense, widest
// aligned word), fill_1d_kernel / fill_strided_kernel (by element size, so 5 widths serve the 13
// dtypes), iota_kernel (per dtype). Converting copies live in copy_convert_part*.cu. Both
// compilers.
#include <cstring>

#include "copy.cuh"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

/// 16-byte elements (complex128) need only 8-byte alignment here.
struct Word8x2 {
  uint64_t lo, hi;
};

template <class W>
__global__ void fill_1d_kernel(char* dst, W value, int64_t n, int64_t stride) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    *reinterpret_cast<W*>(dst + i * stride) = value;
}

template <class W, class I>
__global__ void fill_strided_kernel(char* dst, W value, StridedIndex<1, I> index, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[1];
    index.offsets(static_cast<I>(i), off);
    *reinterpret_cast<W*>(dst + off[0]) = value;
  }
}

/// dst[i] = range_value(start, step, i), as the cpu backend does.
template <class T>
__global__ void iota_kernel(char* dst, int64_t stride, T first, T delta, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    *reinterpret_cast<T*>(dst + i * stride) = range_value(first, delta, i);
  }
}

template <class W>
void copy_words(void* dst, const void* src, int64_t nbytes, Stream stream) {
  const int64_t n = nbytes / int64_t(sizeof(W));
  auto kernel = &copy_words_kernel<W>;
  GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, static_cast<W*>(dst),
               static_cast<const W*>(src), n);
  GPUPY_CHECK_LAUNCH("copy");
}

/// Dense same-dtype copy with the widest word that divides both addresses and the size.
void copy_dense(void* dst, const void* src, int64_t nbytes, Stream stream) {
  const auto bits = reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src) |
                    static_cast<uintptr_t>(nbytes);
  if (bits % 16 == 0) return copy_words<Word16>(dst, src, nbytes, stream);
  if (bits % 8 == 0) return copy_words<uint64_t>(dst, src, nbytes, stream);
  if (bits % 4 == 0) return copy_words<uint32_t>(dst, src, nbytes, stream);
  if (bits % 2 == 0) return copy_words<uint16_t>(dst, src, nbytes, stream);
  copy_words<unsigned char>(dst, src, nbytes, stream);
}

template <class W>
void fill_words(const Array& dst, const Scalar& value, Stream stream) {
  alignas(16) unsigned char bytes[16] = {};
  value.store(dst.dtype(), bytes);
  W word;
  std::memcpy(&word, bytes, sizeof(W));
  Layout<1> layout(dst.shape(), {dst.strides().data()});
  const int64_t n = layout.size;
  if (layout.ndim == 1) {
    auto kernel = &fill_1d_kernel<W>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(), word, n,
                 layout.strides[0][0]);
  } else if (fits_int32(layout)) {
    auto kernel = &fill_strided_kernel<W, int32_t>;
    auto index = pack_index<int32_t>(layout, "fill");
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(), word, index, n);
  } else {
    auto kernel = &fill_strided_kernel<W, int64_t>;
    auto index = pack_index<int64_t>(layout, "fill");
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(), word, index, n);
  }
  GPUPY_CHECK_LAUNCH("fill");
}

}  // namespace

void launch_copy(const Array& src, const Array& dst, Stream stream) {
  if (dst.size() == 0) return;
  Layout<2> layout(dst.shape(), {dst.strides().data(), src.strides().data()});
  const auto item = static_cast<int64_t>(dst.itemsize());
  if (src.dtype() == dst.dtype() && layout.ndim == 1 && layout.strides[0][0] == item &&
      layout.strides[1][0] == item)
    return copy_dense(dst.data(), src.data(), layout.size * item, stream);
  if (copy_convert_in_part0(dst.dtype())) return copy_convert_part0(src, dst, layout, stream);
  copy_convert_part1(src, dst, layout, stream);
}

void launch_fill(const Array& dst, const Scalar& value, Stream stream) {
  if (dst.size() == 0) return;
  switch (dst.itemsize()) {
    case 1:
      return fill_words<uint8_t>(dst, value, stream);
    case 2:
      return fill_words<uint16_t>(dst, value, stream);
    case 4:
      return fill_words<uint32_t>(dst, value, stream);
    case 8:
      return fill_words<uint64_t>(dst, value, stream);
    default:
      return fill_words<Word8x2>(dst, value, stream);
  }
}

void launch_iota(const Array& dst, const Scalar& start, const Scalar& step, Stream stream) {
  const int64_t n = dst.size();
  if (n == 0) return;
  dispatch_dtype(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T first, delta;
    start.store(dst.dtype(), &first);
    step.store(dst.dtype(), &delta);
    const int64_t stride = dst.ndim() ? dst.strides()[0] : 0;
    auto kernel = &iota_kernel<T>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst.data(), stride, first, delta, n);
    GPUPY_CHECK_LAUNCH("iota");
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
