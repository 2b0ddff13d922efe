// launch_scan (inclusive cumulative sum/product along the last axis) and launch_searchsorted.
// Scan: each block scans a chunk of a row (registers, then warp shuffles and shared memory for
// the threads' totals); rows longer than one chunk first reduce their chunks, scan the chunk
// totals per row, and add those carries. Both compilers.
#include "../../core/dispatch.h"
#include "../../functors/all.h"
#include "../sort_keys.h"
#include "device/warp.cuh"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

constexpr int kItems = 4;                    // consecutive elements per thread
constexpr int kChunk = kBlockSize * kItems;  // elements of a row per block
constexpr int kWarps = kBlockSize / kWarpSize;

template <class T, class Op>
struct ScanArgs {
  const char* in;
  char* out;
  StridedIndex<2, int64_t> index;  // operands: in, out
  int64_t size, n, chunks;         // chunks per row
  T* totals;                       // chunk totals (rows * chunks), or null
  bool totals_only;                // first pass: only write totals
};

/// Exclusive prefix of `v` over the block's threads (thread 0 gets `identity`); `total` gets the
/// block's combination. Every thread must call it.
template <class T, class Op>
__device__ inline T block_exclusive(T v, T identity, T* scratch, T& total) {
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  T inc = v;
  for (int d = 1; d < kWarpSize; d *= 2) {
    T o = shfl_up(inc, d);
    if (lane >= d) inc = Op{}(o, inc);
  }
  T exc = shfl_up(inc, 1);
  if (lane == 0) exc = identity;
  if (lane == kWarpSize - 1) scratch[warp] = inc;
  __syncthreads();
  T before = identity;
  for (int w = 0; w < kWarps; ++w) {
    if (w < warp) before = Op{}(before, scratch[w]);
  }
  total = identity;
  for (int w = 0; w < kWarps; ++w) total = Op{}(total, scratch[w]);
  __syncthreads();  // scratch is reused by the next chunk
  return Op{}(before, exc);
}

template <class T, class Op>
__global__ void scan_kernel(ScanArgs<T, Op> a, T identity) {
  __shared__ SharedWord words[shared_words(kWarps * sizeof(T))];
  T* scratch = reinterpret_cast<T*>(words);
  const int64_t blocks = a.size / a.n * a.chunks;
  for (int64_t b = blockIdx.x; b < blocks; b += gridDim.x) {  // uniform over the block
    const int64_t row = b / a.chunks, first = (b % a.chunks) * kChunk + threadIdx.x * kItems;
    T v[kItems];
    T acc = identity;
    for (int j = 0; j < kItems; ++j) {
      v[j] = identity;
      if (first + j < a.n) {
        int64_t off[2];
        a.index.offsets(row * a.n + first + j, off);
        v[j] = *reinterpret_cast<const T*>(a.in + off[0]);
      }
      acc = Op{}(acc, v[j]);
    }
    T total;
    T prefix = block_exclusive<T, Op>(acc, identity, scratch, total);
    if (a.totals_only) {
      if (threadIdx.x == 0) a.totals[b] = total;
      continue;
    }
    if (a.totals) prefix = Op{}(a.totals[b], prefix);
    for (int j = 0; j < kItems && first + j < a.n; ++j) {
      prefix = Op{}(prefix, v[j]);
      int64_t off[2];
      a.index.offsets(row * a.n + first + j, off);
      *reinterpret_cast<T*>(a.out + off[1]) = prefix;
    }
  }
}

/// Turns each row's chunk totals into exclusive carries, one thread per row.
template <class T, class Op>
__global__ void carries_kernel(T* totals, int64_t rows, int64_t chunks, T identity) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += step) {
    T acc = identity;
    for (int64_t c = 0; c < chunks; ++c) {
      T t = totals[r * chunks + c];
      totals[r * chunks + c] = acc;
      acc = Op{}(acc, t);
    }
  }
}

template <class T, class Op>
void scan_run(const Array& in, const Array& out, T identity, Stream stream) {
  ScanArgs<T, Op> a{};
  a.in = in.data();
  a.out = out.data();
  a.index = pack_index<int64_t>(Layout<2>(in.shape(), {in.strides().data(), out.strides().data()}),
                                "cumsum");
  a.size = in.size();
  a.n = in.shape().back();
  a.chunks = (a.n + kChunk - 1) / kChunk;
  const int64_t rows = a.size / a.n, blocks = rows * a.chunks;
  const auto grid = unsigned(std::min(blocks, max_grid_blocks()));
  auto kernel = &scan_kernel<T, Op>;
  Array buf;
  if (a.chunks > 1) {
    buf = Array::empty(Shape{blocks * int64_t(sizeof(T))}, DType::uint8, out.device());
    a.totals = reinterpret_cast<T*>(buf.data());
    a.totals_only = true;
    GPUPY_LAUNCH(kernel, grid, kBlockSize, 0, stream, a, identity);
    GPUPY_CHECK_LAUNCH("cumsum");
    auto carries = &carries_kernel<T, Op>;
    GPUPY_LAUNCH(carries, grid_for(rows), kBlockSize, 0, stream, a.totals, rows, a.chunks,
                 identity);
    GPUPY_CHECK_LAUNCH("cumsum");
    a.totals_only = false;
  }
  GPUPY_LAUNCH(kernel, grid, kBlockSize, 0, stream, a, identity);
  GPUPY_CHECK_LAUNCH("cumsum");
}

template <class T>
__global__ void search_kernel(const char* sorted, int64_t n, int64_t ss, const char* sorter,
                              int64_t sp, const char* queries, char* out,
                              StridedIndex<2, int64_t> index, int64_t size, bool right) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  auto get = [&](int64_t m) {
    if (sorter) m = *reinterpret_cast<const int64_t*>(sorter + m * sp);
    return sort_keys::key(*reinterpret_cast<const T*>(sorted + m * ss));
  };
  for (int64_t q = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; q < size; q += step) {
    int64_t off[2];
    index.offsets(q, off);
    auto v = sort_keys::key(*reinterpret_cast<const T*>(queries + off[0]));
    *reinterpret_cast<int64_t*>(out + off[1]) = sort_keys::bound(get, 0, n, v, right);
  }
}

}  // namespace

void launch_scan(ScanOp op, const Array& in, const Array& out, Stream stream) {
  if (in.ndim() == 0 || out.shape() != in.shape() || out.dtype() != in.dtype())
    throw ValueError("[cumsum] output must match the input's shape and dtype");
  if (in.size() == 0) return;
  dispatch_dtype_except_float16(in.dtype(), "scan", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (op == ScanOp::sum)
      scan_run<T, fn::Add>(in, out, T(0), stream);
    else
      scan_run<T, fn::Multiply>(in, out, T(1), stream);
  });
}

void launch_searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                         const Array& out, bool right, Stream stream) {
  if (sorted.ndim() != 1 || queries.dtype() != sorted.dtype() || out.dtype() != DType::int64)
    throw ValueError("[searchsorted] invalid operands");
  const int64_t size = queries.size();
  if (size == 0) return;
  auto index = pack_index<int64_t>(
      Layout<2>(queries.shape(), {queries.strides().data(), out.strides().data()}), "searchsorted");
  dispatch_dtype_except_float16(sorted.dtype(), "searchsorted", [&](auto tag) {
    auto kernel = &search_kernel<typename decltype(tag)::type>;
    GPUPY_LAUNCH(kernel, grid_for(size), kBlockSize, 0, stream, sorted.data(), sorted.size(),
                 sorted.strides()[0], sorter ? sorter->data() : nullptr,
                 sorter ? sorter->strides()[0] : int64_t(0), queries.data(), out.data(), index,
                 size, right);
    GPUPY_CHECK_LAUNCH("searchsorted");
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
