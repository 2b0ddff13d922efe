// launch_sort: a stable merge sort of (key, position) pairs per row. Blocks first sort tiles in
// shared memory, then global passes merge runs pairwise; every element finds its place in the
// merged run by a binary search in the partner run (ties: left run first, so the sort is
// stable). Keys come from sort_keys.h, inverted for descending. Both compilers.
#include "../../core/dispatch.h"
#include "../sort_keys.h"
#include "device/warp.cuh"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

constexpr int kTile = 2 * kBlockSize;  // elements one block sorts in shared memory

/// Where the element at position p of a row of length n goes when the runs of width w that
/// start at multiples of 2w are merged pairwise.
template <class Key>
__device__ inline int64_t merge_dest(const Key* keys, int64_t p, int64_t w, int64_t n) {
  const int64_t start = p / (2 * w) * (2 * w);
  const int64_t mid = start + w < n ? start + w : n;
  const int64_t end = start + 2 * w < n ? start + 2 * w : n;
  auto get = [&](int64_t m) { return keys[m]; };
  if (p < mid) return p + sort_keys::bound(get, mid, end, keys[p], false) - mid;
  return p - mid + sort_keys::bound(get, start, mid, keys[p], true);
}

template <class T, class Key>
__global__ void make_keys_kernel(const char* in, StridedIndex<1, int64_t> ix, int64_t size,
                                 int64_t n, bool descending, Key* keys, int64_t* pos) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size; i += step) {
    int64_t off[1];
    ix.offsets(i, off);
    Key k = sort_keys::key(*reinterpret_cast<const T*>(in + off[0]));
    keys[i] = descending ? sort_keys::invert(k) : k;
    pos[i] = i % n;
  }
}

/// Sorts each tile of kTile elements (tiles never cross rows) in shared memory, in place.
template <class Key>
__global__ void tile_sort_kernel(Key* keys, int64_t* pos, int64_t rows, int64_t n) {
  __shared__ SharedWord words[shared_words(2 * kTile * (sizeof(Key) + sizeof(int64_t)))];
  Key* k[2] = {reinterpret_cast<Key*>(words), reinterpret_cast<Key*>(words) + kTile};
  int64_t* p[2] = {reinterpret_cast<int64_t*>(k[1] + kTile),
                   reinterpret_cast<int64_t*>(k[1] + kTile) + kTile};
  const int64_t per_row = (n + kTile - 1) / kTile;
  for (int64_t t = blockIdx.x; t < rows * per_row; t += gridDim.x) {  // uniform over the block
    const int64_t base = t / per_row * n + t % per_row * kTile;
    const int64_t rest = n - t % per_row * kTile;
    const int len = int(rest < kTile ? rest : kTile);
    for (int j = threadIdx.x; j < len; j += blockDim.x) {
      k[0][j] = keys[base + j];
      p[0][j] = pos[base + j];
    }
    __syncthreads();
    int cur = 0;
    for (int w = 1; w < len; w *= 2) {
      for (int j = threadIdx.x; j < len; j += blockDim.x) {
        const int64_t d = merge_dest(k[cur], j, w, len);
        k[1 - cur][d] = k[cur][j];
        p[1 - cur][d] = p[cur][j];
      }
      cur = 1 - cur;
      __syncthreads();
    }
    for (int j = threadIdx.x; j < len; j += blockDim.x) {
      keys[base + j] = k[cur][j];
      pos[base + j] = p[cur][j];
    }
    __syncthreads();  // the shared tiles are reused by the next iteration
  }
}

/// One global merge pass of runs of width w, from (keys, pos) into (keys2, pos2).
template <class Key>
__global__ void merge_kernel(const Key* keys, const int64_t* pos, Key* keys2, int64_t* pos2,
                             int64_t size, int64_t n, int64_t w) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size; i += step) {
    const int64_t row = i / n * n;
    const int64_t d = row + merge_dest(keys + row, i - row, w, n);
    keys2[d] = keys[i];
    pos2[d] = pos[i];
  }
}

/// values[i] = in[row, pos[i]] and indices[i] = pos[i] (flat C-order positions of each output).
template <class T>
__global__ void gather_kernel(const char* in, StridedIndex<1, int64_t> ix, char* values,
                              StridedIndex<1, int64_t> vx, char* indices,
                              StridedIndex<1, int64_t> xx, const int64_t* pos, int64_t size,
                              int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size; i += step) {
    int64_t src[1], dst[1];
    ix.offsets(i / n * n + pos[i], src);
    vx.offsets(i, dst);
    *reinterpret_cast<T*>(values + dst[0]) = *reinterpret_cast<const T*>(in + src[0]);
    if (indices) {
      xx.offsets(i, dst);
      *reinterpret_cast<int64_t*>(indices + dst[0]) = pos[i];
    }
  }
}

StridedIndex<1, int64_t> index_of(const Array& a) {
  return pack_index<int64_t>(Layout<1>(a.shape(), {a.strides().data()}), "sort");
}

/// Leaves the sorted positions of every row in `pos` (a device buffer of in.size() int64).
template <class T>
void sort_positions(const Array& in, bool descending, Array& pos_buf, Stream stream) {
  using Key = sort_keys::KeyOf<T>;
  const int64_t size = in.size(), n = in.shape().back(), rows = size / n;
  const Device dev = pos_buf.device();
  Array key_buf[2] = {Array::empty(Shape{size * int64_t(sizeof(Key))}, DType::uint8, dev),
                      Array::empty(Shape{size * int64_t(sizeof(Key))}, DType::uint8, dev)};
  Array pos_bufs[2] = {pos_buf, Array::empty(Shape{size}, DType::int64, dev)};
  Key* keys[2] = {reinterpret_cast<Key*>(key_buf[0].data()),
                  reinterpret_cast<Key*>(key_buf[1].data())};
  int64_t* pos[2] = {reinterpret_cast<int64_t*>(pos_bufs[0].data()),
                     reinterpret_cast<int64_t*>(pos_bufs[1].data())};
  auto make = &make_keys_kernel<T, Key>;
  GPUPY_LAUNCH(make, grid_for(size), kBlockSize, 0, stream, in.data(), index_of(in), size, n,
               descending, keys[0], pos[0]);
  GPUPY_CHECK_LAUNCH("sort");
  const int64_t tiles = rows * ((n + kTile - 1) / kTile);
  auto tile = &tile_sort_kernel<Key>;
  GPUPY_LAUNCH(tile, unsigned(std::min(tiles, max_grid_blocks())), kBlockSize, 0, stream, keys[0],
               pos[0], rows, n);
  GPUPY_CHECK_LAUNCH("sort");
  int cur = 0;
  for (int64_t w = kTile; w < n; w *= 2, cur = 1 - cur) {
    auto merge = &merge_kernel<Key>;
    GPUPY_LAUNCH(merge, grid_for(size), kBlockSize, 0, stream, keys[cur], pos[cur], keys[1 - cur],
                 pos[1 - cur], size, n, w);
    GPUPY_CHECK_LAUNCH("sort");
  }
  pos_buf = pos_bufs[cur];
}

}  // namespace

void launch_sort(const Array& in, const Array& values_out, const Array* indices_out,
                 bool descending, Stream stream) {
  if (in.ndim() == 0 || values_out.shape() != in.shape() || values_out.dtype() != in.dtype())
    throw ValueError("[sort] output must match the input's shape and dtype");
  if (in.size() == 0) return;
  const int64_t size = in.size(), n = in.shape().back();
  dispatch_dtype_except_float16(in.dtype(), "sort", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Array pos = Array::empty(Shape{size}, DType::int64, values_out.device());
    sort_positions<T>(in, descending, pos, stream);
    auto gather = &gather_kernel<T>;
    GPUPY_LAUNCH(gather, grid_for(size), kBlockSize, 0, stream, in.data(), index_of(in),
                 values_out.data(), index_of(values_out),
                 indices_out ? indices_out->data() : nullptr,
                 indices_out ? index_of(*indices_out) : index_of(values_out),
                 static_cast<const int64_t*>(reinterpret_cast<int64_t*>(pos.data())), size, n);
    GPUPY_CHECK_LAUNCH("sort");
  });
}

}  // namespace gpupy::GPUPY_KERNEL_NS
