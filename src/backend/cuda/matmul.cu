// launch_matmul: a batched 16x16-tile shared-memory matmul for every dtype (accumulating in the
// output dtype; bool is an or of ands), with byte strides for a, b and out and batch offsets from
// the collapsed batch axes. One kernel per dtype; tiles are walked by a grid-stride loop over
// (batch, tile row, tile column). Both compilers.
#include "../../core/dispatch.h"
#include "../../functors/all.h"
#include "device/warp.cuh"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

constexpr int kTile = 16;  // kTile * kTile == kBlockSize threads, one per output of a tile
static_assert(kTile * kTile == kBlockSize);

struct MatmulArgs {
  const char* a;
  const char* b;
  char* out;
  int64_t m, n, k, batch;
  int64_t a_row, a_col, b_row, b_col, out_row, out_col;  // byte strides of the matrix axes
  StridedIndex<3, int64_t> batch_index;                  // operands: a, b, out
};

template <class T>
__global__ void matmul_kernel(MatmulArgs p) {
  __shared__ SharedWord a_words[shared_words(kTile * kTile * sizeof(T))];
  __shared__ SharedWord b_words[shared_words(kTile * kTile * sizeof(T))];
  T* a_tile = reinterpret_cast<T*>(a_words);
  T* b_tile = reinterpret_cast<T*>(b_words);
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
  const int64_t tiles_m = (p.m + kTile - 1) / kTile, tiles_n = (p.n + kTile - 1) / kTile;
  const int64_t tiles = p.batch * tiles_m * tiles_n;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {  // uniform over the block
    const int64_t tn = t % tiles_n, tm = (t / tiles_n) % tiles_m, batch = t / (tiles_n * tiles_m);
    int64_t off[3];
    p.batch_index.offsets(batch, off);
    const int64_t row = tm * kTile + ty, col = tn * kTile + tx;
    T acc{};
    for (int64_t k0 = 0; k0 < p.k; k0 += kTile) {
      // Zero padding past k contributes nothing; rows/columns past m/n are never written.
      const int64_t ka = k0 + tx, kb = k0 + ty;
      a_tile[ty * kTile + tx] =
          row < p.m && ka < p.k
              ? *reinterpret_cast<const T*>(p.a + off[0] + row * p.a_row + ka * p.a_col)
              : T{};
      b_tile[ty * kTile + tx] =
          kb < p.k && col < p.n
              ? *reinterpret_cast<const T*>(p.b + off[1] + kb * p.b_row + col * p.b_col)
              : T{};
      __syncthreads();
      for (int kk = 0; kk < kTile; ++kk)
        acc = fn::Add{}(acc, fn::Multiply{}(a_tile[ty * kTile + kk], b_tile[kk * kTile + tx]));
      __syncthreads();
    }
    if (row < p.m && col < p.n)
      *reinterpret_cast<T*>(p.out + off[2] + row * p.out_row + col * p.out_col) = acc;
  }
}

}  // namespace

void launch_matmul(const Array& a, const Array& b, const Array& out, Stream stream) {
  const int nd = out.ndim();
  if (nd < 2 || a.ndim() != nd || b.ndim() != nd || a.dtype() != out.dtype() ||
      b.dtype() != out.dtype())
    throw ValueError("[matmul] operands must share the output's rank and dtype");
  MatmulArgs p{};
  p.a = a.data();
  p.b = b.data();
  p.out = out.data();
  p.m = out.shape()[nd - 2];
  p.n = out.shape()[nd - 1];
  p.k = a.shape()[nd - 1];
  p.a_row = a.strides()[nd - 2], p.a_col = a.strides()[nd - 1];
  p.b_row = b.strides()[nd - 2], p.b_col = b.strides()[nd - 1];
  p.out_row = out.strides()[nd - 2], p.out_col = out.strides()[nd - 1];
  const Shape batch_shape(out.shape().begin(), out.shape().end() - 2);
  Layout<3> batch(batch_shape, {a.strides().data(), b.strides().data(), out.strides().data()});
  p.batch = batch.size;
  p.batch_index = pack_index<int64_t>(batch, "matmul");
  if (p.batch == 0 || p.m == 0 || p.n == 0) return;
  const int64_t tiles = p.batch * ((p.m + kTile - 1) / kTile) * ((p.n + kTile - 1) / kTile);
  const auto blocks = static_cast<unsigned>(std::min(tiles, max_grid_blocks()));
  dispatch_dtype_except_float16(out.dtype(), "matmul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto kernel = &matmul_kernel<T>;
    GPUPY_LAUNCH(kernel, blocks, kBlockSize, 0, stream, p);
    GPUPY_CHECK_LAUNCH("matmul");
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
