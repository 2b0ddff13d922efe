// launch_where: out = cond ? x : y. Elements are moved as words of their size (five kernels serve
// the 13 dtypes); a scalar x or y is passed by value. Both compilers.
#include <cstring>

#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

/// 16-byte elements (complex128) need only 8-byte alignment here.
struct WhereWord16 {
  uint64_t lo, hi;
};

/// The two value operands: pointers, or values when bit k of `scalar_mask` is set.
template <class W>
struct WhereInputs {
  const char* ptr[2];
  W value[2];
  int scalar_mask;
};

template <class W>
__device__ inline W where_pick(const WhereInputs<W>& in, bool c, int64_t off_x, int64_t off_y) {
  const int k = c ? 0 : 1;
  if (in.scalar_mask >> k & 1) return in.value[k];
  return *reinterpret_cast<const W*>(in.ptr[k] + (c ? off_x : off_y));
}

/// Every array operand C-contiguous over n elements.
template <class W>
__global__ void where_contiguous_kernel(W* out, const bool* cond, WhereInputs<W> in, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const int64_t off = i * int64_t(sizeof(W));
    out[i] = where_pick(in, cond[i], off, off);
  }
}

/// Any strides; operands of `index`: out, cond, x, y.
template <class W, class I>
__global__ void where_strided_kernel(char* out, const char* cond, WhereInputs<W> in,
                                     StridedIndex<4, I> index, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[4];
    index.offsets(static_cast<I>(i), off);
    const bool c = *reinterpret_cast<const bool*>(cond + off[1]);
    *reinterpret_cast<W*>(out + off[0]) = where_pick(in, c, off[2], off[3]);
  }
}

template <class W>
void where_launch(const Array& cond, const Operand& x, const Operand& y, const Array& out,
                  Stream stream) {
  const int64_t n = out.size();
  WhereInputs<W> in{};
  const Strides zeros(out.ndim(), 0);
  std::array<const int64_t*, 4> strides{out.strides().data(), cond.strides().data()};
  const Operand* operands[2] = {&x, &y};
  for (int k = 0; k < 2; ++k) {
    if (operands[k]->is_array()) {
      in.ptr[k] = operands[k]->array().data();
      strides[k + 2] = operands[k]->array().strides().data();
    } else {
      alignas(16) unsigned char bytes[16] = {};
      operands[k]->scalar().store(out.dtype(), bytes);
      std::memcpy(&in.value[k], bytes, sizeof(W));
      in.scalar_mask |= 1 << k;
      strides[k + 2] = zeros.data();
    }
  }
  Layout<4> layout(out.shape(), strides);
  const int64_t w = sizeof(W);
  bool contiguous = layout.ndim == 1 && layout.strides[0][0] == w && layout.strides[1][0] == 1;
  for (int k = 0; k < 2; ++k)
    contiguous = contiguous && ((in.scalar_mask >> k & 1) || layout.strides[k + 2][0] == w);
  if (contiguous) {
    auto kernel = &where_contiguous_kernel<W>;
    W* dst = reinterpret_cast<W*>(out.data());
    const bool* c = reinterpret_cast<const bool*>(cond.data());
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst, c, in, n);
  } else if (fits_int32(layout)) {
    auto kernel = &where_strided_kernel<W, int32_t>;
    auto index = pack_index<int32_t>(layout, "where");
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, out.data(), cond.data(), in, index, n);
  } else {
    auto kernel = &where_strided_kernel<W, int64_t>;
    auto index = pack_index<int64_t>(layout, "where");
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, out.data(), cond.data(), in, index, n);
  }
  GPUPY_CHECK_LAUNCH("where");
}

}  // namespace

void launch_where(const Array& cond, const Operand& x, const Operand& y, const Array& out,
                  Stream stream) {
  if (out.size() == 0) return;
  switch (out.itemsize()) {
    case 1:
      return where_launch<uint8_t>(cond, x, y, out, stream);
    case 2:
      return where_launch<uint16_t>(cond, x, y, out, stream);
    case 4:
      return where_launch<uint32_t>(cond, x, y, out, stream);
    case 8:
      return where_launch<uint64_t>(cond, x, y, out, stream);
    default:
      return where_launch<WhereWord16>(cond, x, y, out, stream);
  }
}

}  // namespace gpupy::GPUPY_KERNEL_NS
