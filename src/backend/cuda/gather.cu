// launch_gather, launch_scatter and launch_flatnonzero: the advanced-indexing kernels. Gather and
// scatter move whole elements as words of the element's size (5 widths serve the 13 dtypes); a
// scatter that may repeat a target first finds the last writer of each target, as NumPy's
// last-wins; flatnonzero compacts a bool array in two ordered passes. Both compilers.
#include <vector>

#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

/// 8-byte elements aligned to 4 (complex64) and 16-byte ones aligned to 8 (complex128).
struct Word4x2 {
  uint32_t lo, hi;
};
struct Word8x2 {
  uint64_t lo, hi;
};

/// Operand 0 of `index` is values, 1 is data, 2 is the int64 byte offsets into data.
template <class W, class I, bool kScatter>
__global__ void gather_kernel(char* values, char* data, const char* offsets,
                              StridedIndex<3, I> index, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[3];
    index.offsets(static_cast<I>(i), off);
    W* elem =
        reinterpret_cast<W*>(data + off[1] + *reinterpret_cast<const int64_t*>(offsets + off[2]));
    W* value = reinterpret_cast<W*>(values + off[0]);
    if constexpr (kScatter)
      *elem = *value;
    else
      *value = *elem;
  }
}

/// Operand 0 of `index` is offsets, 1 is the int64 index array. An out-of-bounds index sets
/// flag[0] and, from the first thread that set it, flag[1] = that index; its offset is not written.
template <class I>
__global__ void offsets_kernel(char* offsets, const char* indices, StridedIndex<2, I> index,
                               int64_t size, int64_t n, int64_t stride, bool accumulate,
                               unsigned long long* flag) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size; i += step) {
    I off[2];
    index.offsets(static_cast<I>(i), off);
    const int64_t v = *reinterpret_cast<const int64_t*>(indices + off[1]);
    if (v < -n || v >= n) {
      if (atomicExch(&flag[0], 1ull) == 0ull) flag[1] = static_cast<unsigned long long>(v);
      continue;
    }
    int64_t* o = reinterpret_cast<int64_t*>(offsets + off[0]);
    const int64_t here = (v < 0 ? v + n : v) * stride;
    *o = accumulate ? *o + here : here;
  }
}

/// The last writer (C order) of each target of a scatter: last[slot] = p - begin + 1 of the last
/// element p of the round [begin, end) seen for the target in that slot (0: none). Dense (keys
/// null): one slot per element of the target array's extent. Hashed: an open-addressing table with
/// linear probing, at least twice as many slots as elements, keys[slot] = target byte offset - lo +
/// 1 (0: free).
struct LastWriters {
  unsigned* last;
  unsigned long long* keys;
  int64_t lo;        // lowest byte offset from data a target can have
  int64_t itemsize;  // dense: the slot of byte offset t is (t - lo) / itemsize
  unsigned long long mask;
  int shift;  // hashed: slot = (key * golden ratio) >> shift, then probing

  __device__ unsigned long long home(unsigned long long key) const {
    return (key * 0x9e3779b97f4a7c15ull) >> shift;
  }
  /// The slot of target t, claimed for it if it has none yet.
  __device__ unsigned long long claim(int64_t t) const {
    if (!keys) return static_cast<unsigned long long>((t - lo) / itemsize);
    const auto key = static_cast<unsigned long long>(t - lo) + 1;
    for (unsigned long long slot = home(key);; slot = (slot + 1) & mask) {
      const unsigned long long old = atomicCAS(&keys[slot], 0ull, key);
      if (old == 0ull || old == key) return slot;
    }
  }
  /// The slot claim gave target t (pass 2: every target has one).
  __device__ unsigned long long find(int64_t t) const {
    if (!keys) return static_cast<unsigned long long>((t - lo) / itemsize);
    const auto key = static_cast<unsigned long long>(t - lo) + 1;
    unsigned long long slot = home(key);
    while (keys[slot] != key) slot = (slot + 1) & mask;
    return slot;
  }
};

/// Last-wins pass 1: every element records itself as its target's writer if later in C order.
template <class I>
__global__ void claim_kernel(const char* offsets, StridedIndex<3, I> index, int64_t begin,
                             int64_t end, LastWriters table) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = begin + int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < end; i += step) {
    I off[3];
    index.offsets(static_cast<I>(i), off);
    const int64_t t = off[1] + *reinterpret_cast<const int64_t*>(offsets + off[2]);
    atomicMax(&table.last[table.claim(t)], static_cast<unsigned>(i - begin + 1));
  }
}

/// Last-wins pass 2: only the last writer of each target stores.
template <class W, class I>
__global__ void store_last_kernel(const char* values, char* data, const char* offsets,
                                  StridedIndex<3, I> index, int64_t begin, int64_t end,
                                  LastWriters table) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = begin + int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < end; i += step) {
    I off[3];
    index.offsets(static_cast<I>(i), off);
    const int64_t t = off[1] + *reinterpret_cast<const int64_t*>(offsets + off[2]);
    if (table.last[table.find(t)] == static_cast<unsigned>(i - begin + 1))
      *reinterpret_cast<W*>(data + t) = *reinterpret_cast<const W*>(values + off[0]);
  }
}

/// The table of a last-wins scatter of n elements into `target`, whose extent decides between
/// dense slots (4 bytes each, at most 4 per write: 16 bytes, under the hashed table's 24-48 per
/// write) and hashing. The arrays holding the slots are returned in `storage`.
LastWriters make_last_writers(const Array& target, int64_t n, Stream stream, Array storage[2]) {
  LastWriters table{};
  int64_t hi = target.itemsize();
  bool aligned = true;
  for (int d = 0; d < target.ndim(); ++d) {
    const int64_t s = target.strides()[d], extent = s * (target.shape()[d] - 1);
    (extent < 0 ? table.lo : hi) += extent;
    aligned = aligned && s % target.itemsize() == 0;
  }
  table.itemsize = target.itemsize();
  const int64_t dense = (hi - table.lo) / table.itemsize;
  int64_t slots = dense;
  if (!aligned || dense > 4 * n) {
    int bits = 1;
    while ((int64_t{1} << bits) < 2 * n) ++bits;
    slots = int64_t{1} << bits;
    table.mask = static_cast<unsigned long long>(slots - 1);
    table.shift = 64 - bits;
    storage[1] = Array::empty({slots}, DType::uint64, target.device());
    launch_fill(storage[1], Scalar(uint64_t{0}), stream);
    table.keys = reinterpret_cast<unsigned long long*>(storage[1].data());
  }
  storage[0] = Array::empty({slots}, DType::uint32, target.device());
  launch_fill(storage[0], Scalar(uint64_t{0}), stream);
  table.last = reinterpret_cast<unsigned*>(storage[0].data());
  return table;
}

enum class Move { kGather, kScatter, kScatterLastWins };

template <class W, Move kMove, class I>
void launch_layout(const Backend::GatherCall& call, const Layout<3>& layout, Stream stream) {
  const Array& v = call.values;
  const int64_t n = v.size();
  const char* op = kMove == Move::kGather ? "gather" : "scatter";
  auto index = pack_index<I>(layout, op);
  if constexpr (kMove == Move::kScatterLastWins) {
    // Rounds of at most 2^31 writes, applied in order, keep the 32-bit slots exact.
    constexpr int64_t kRound = int64_t{1} << 31;
    for (int64_t begin = 0; begin < n; begin += kRound) {
      const int64_t end = std::min(n, begin + kRound), m = end - begin;
      Array storage[2];
      const LastWriters table = make_last_writers(call.target, m, stream, storage);
      auto claim = &claim_kernel<I>;
      GPUPY_LAUNCH(claim, grid_for(m), kBlockSize, 0, stream, call.offsets.data(), index, begin,
                   end, table);
      GPUPY_CHECK_LAUNCH(op);
      auto store = &store_last_kernel<W, I>;
      GPUPY_LAUNCH(store, grid_for(m), kBlockSize, 0, stream, v.data(), call.data.data(),
                   call.offsets.data(), index, begin, end, table);
      GPUPY_CHECK_LAUNCH(op);
    }
  } else {
    auto kernel = &gather_kernel<W, I, kMove == Move::kScatter>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, v.data(), call.data.data(),
                 call.offsets.data(), index, n);
    GPUPY_CHECK_LAUNCH(op);
  }
}

template <class W, Move kMove>
void launch_words(const Backend::GatherCall& call, Stream stream) {
  const Array& v = call.values;
  if (v.size() == 0) return;
  Layout<3> layout(v.shape(),
                   {v.strides().data(), call.data.strides().data(), call.offsets.strides().data()});
  if (fits_int32(layout)) return launch_layout<W, kMove, int32_t>(call, layout, stream);
  launch_layout<W, kMove, int64_t>(call, layout, stream);
}

template <Move kMove>
void launch_by_width(const Backend::GatherCall& call, Stream stream) {
  switch (call.values.itemsize()) {
    case 1:
      return launch_words<uint8_t, kMove>(call, stream);
    case 2:
      return launch_words<uint16_t, kMove>(call, stream);
    case 4:
      return launch_words<uint32_t, kMove>(call, stream);
    case 8:
      if (call.values.dtype() == DType::complex64)
        return launch_words<Word4x2, kMove>(call, stream);
      return launch_words<uint64_t, kMove>(call, stream);
    default:
      return launch_words<Word8x2, kMove>(call, stream);
  }
}

/// Pass 1: counts[b] = true elements in block b's chunk [b * chunk, (b + 1) * chunk) of the mask.
template <class I>
__global__ void count_kernel(const char* mask, StridedIndex<1, I> index, int64_t n, int64_t chunk,
                             int64_t* counts) {
  const int64_t begin = int64_t(blockIdx.x) * chunk;
  const int64_t end = begin + chunk < n ? begin + chunk : n;
  int64_t total = 0;
  for (int64_t base = begin; base < end; base += blockDim.x) {
    const int64_t i = base + threadIdx.x;
    int pred = 0;
    if (i < end) {
      I off[1];
      index.offsets(static_cast<I>(i), off);
      pred = mask[off[0]] != 0;
    }
    total += __syncthreads_count(pred);
  }
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

/// Pass 2: block b writes the flat indices of its chunk's true elements from starts[b] on, in
/// order, through a shared-memory prefix sum over each tile of blockDim elements.
template <class I>
__global__ void write_kernel(const char* mask, StridedIndex<1, I> index, int64_t n, int64_t chunk,
                             const int64_t* starts, int64_t* out) {
  __shared__ int scan[kBlockSize];
  const int t = threadIdx.x;
  const int64_t begin = int64_t(blockIdx.x) * chunk;
  const int64_t end = begin + chunk < n ? begin + chunk : n;
  int64_t written = starts[blockIdx.x];
  for (int64_t base = begin; base < end; base += blockDim.x) {
    const int64_t i = base + t;
    int pred = 0;
    if (i < end) {
      I off[1];
      index.offsets(static_cast<I>(i), off);
      pred = mask[off[0]] != 0;
    }
    scan[t] = pred;
    __syncthreads();
    for (int d = 1; d < int(blockDim.x); d *= 2) {  // inclusive Hillis-Steele scan
      const int add = t >= d ? scan[t - d] : 0;
      __syncthreads();
      scan[t] += add;
      __syncthreads();
    }
    if (pred) out[written + scan[t] - 1] = i;
    written += scan[blockDim.x - 1];
    __syncthreads();  // scan is rewritten by the next tile
  }
}

template <class I>
Array compact(const Array& mask, const Layout<1>& layout, Stream stream) {
  const int64_t n = layout.size;
  const int64_t blocks0 = grid_for(n);
  const int64_t chunk = (n + blocks0 - 1) / blocks0;
  const int64_t blocks = (n + chunk - 1) / chunk;
  auto index = pack_index<I>(layout, "nonzero");
  Array counts = Array::empty({blocks}, DType::int64, mask.device());
  auto count = &count_kernel<I>;
  GPUPY_LAUNCH(count, unsigned(blocks), kBlockSize, 0, stream, mask.data(), index, n, chunk,
               reinterpret_cast<int64_t*>(counts.data()));
  GPUPY_CHECK_LAUNCH("nonzero");
  // The block counts are few (at most max_grid_blocks()): their exclusive prefix runs on the host.
  std::vector<int64_t> starts(blocks);
  to_host(counts, starts.data());
  int64_t total = 0;
  for (int64_t& s : starts) {
    const int64_t c = s;
    s = total;
    total += c;
  }
  Array out = Array::empty({total}, DType::int64, mask.device());
  if (total == 0) return out;
  Array starts_dev = from_host(starts.data(), {blocks}, {8}, DType::int64, mask.device());
  auto write = &write_kernel<I>;
  GPUPY_LAUNCH(write, unsigned(blocks), kBlockSize, 0, stream, mask.data(), index, n, chunk,
               reinterpret_cast<const int64_t*>(starts_dev.data()),
               reinterpret_cast<int64_t*>(out.data()));
  GPUPY_CHECK_LAUNCH("nonzero");
  return out;
}

}  // namespace

bool launch_index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                          bool accumulate, int64_t& bad, Stream stream) {
  const int64_t size = offsets.size();
  if (size == 0) return true;
  Array flag = Array::empty({2}, DType::int64, offsets.device());
  launch_fill(flag, Scalar(int64_t{0}), stream);
  auto* f = reinterpret_cast<unsigned long long*>(flag.data());
  Layout<2> layout(offsets.shape(), {offsets.strides().data(), index.strides().data()});
  if (fits_int32(layout)) {
    auto kernel = &offsets_kernel<int32_t>;
    auto map = pack_index<int32_t>(layout, "getitem");
    GPUPY_LAUNCH(kernel, grid_for(size), kBlockSize, 0, stream, offsets.data(), index.data(), map,
                 size, n, stride, accumulate, f);
  } else {
    auto kernel = &offsets_kernel<int64_t>;
    auto map = pack_index<int64_t>(layout, "getitem");
    GPUPY_LAUNCH(kernel, grid_for(size), kBlockSize, 0, stream, offsets.data(), index.data(), map,
                 size, n, stride, accumulate, f);
  }
  GPUPY_CHECK_LAUNCH("getitem");
  int64_t host[2];
  to_host(flag, host);  // the one read back: waits for the kernel
  bad = host[1];
  return host[0] == 0;
}

void launch_gather(const Backend::GatherCall& call, Stream stream) {
  launch_by_width<Move::kGather>(call, stream);
}

void launch_scatter(const Backend::GatherCall& call, Stream stream) {
  if (call.target.valid() && call.values.size() > 1) {
    launch_by_width<Move::kScatterLastWins>(call, stream);
  } else {
    launch_by_width<Move::kScatter>(call, stream);
  }
}

Array launch_flatnonzero(const Array& mask, Stream stream) {
  if (mask.size() == 0) return Array::empty({0}, DType::int64, mask.device());
  Layout<1> layout(mask.shape(), {mask.strides().data()});
  if (fits_int32(layout)) return compact<int32_t>(mask, layout, stream);
  return compact<int64_t>(mask, layout, stream);
}

}  // namespace gpupy::GPUPY_KERNEL_NS
