// launch_bin_add: out[index[k]] += weights[k] (or 1) by atomics. Few bins are first summed in
// each block's shared memory (less contention on hot bins), many go straight to global memory.
// Float sums are therefore in an unspecified order. Also histogram's equal-width bin index. Both
// compilers.
#include "../bin_index.h"
#include "device/warp.cuh"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

constexpr int64_t kSharedBins = 1024;  // 8 KiB of 8-byte bins per block

template <class T>
__device__ inline void atomic_add(T* p, T v) {
  atomicAdd(p, v);
}
// int64 adds as unsigned 64-bit: the same two's-complement bits, and CUDA has that atomic.
template <>
__device__ inline void atomic_add<int64_t>(int64_t* p, int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

template <class T>
__device__ inline void add_one(const int64_t* index, const T* weights, T* bins, int64_t n_bins,
                               int64_t i) {
  const int64_t b = index[i];
  if (b >= 0 && b < n_bins) atomic_add(&bins[b], weights ? weights[i] : T(1));
}

template <class T>
__global__ void bin_add_global(const int64_t* index, const T* weights, T* out, int64_t n,
                               int64_t n_bins) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    add_one(index, weights, out, n_bins, i);
}

template <class T>
__global__ void bin_add_shared(const int64_t* index, const T* weights, T* out, int64_t n,
                               int64_t n_bins) {
  __shared__ SharedWord words[shared_words(kSharedBins * sizeof(T))];
  T* local = reinterpret_cast<T*>(words);
  for (int64_t b = threadIdx.x; b < n_bins; b += blockDim.x) local[b] = T(0);
  __syncthreads();
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    add_one(index, weights, local, n_bins, i);
  __syncthreads();
  for (int64_t b = threadIdx.x; b < n_bins; b += blockDim.x)
    if (local[b] != T(0)) atomic_add(&out[b], local[b]);
}

template <class T>
void launch_typed(const Array& index, const Array* weights, const Array& out, Stream stream) {
  const int64_t n = index.size(), n_bins = out.size();
  const auto* idx = reinterpret_cast<const int64_t*>(index.data());
  const T* w = weights ? reinterpret_cast<const T*>(weights->data()) : nullptr;
  T* o = reinterpret_cast<T*>(out.data());
  // Shared bins pay off when each block sees several elements per bin.
  auto kernel = n_bins <= kSharedBins && n >= 4 * n_bins ? &bin_add_shared<T> : &bin_add_global<T>;
  GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, idx, w, o, n, n_bins);
  GPUPY_CHECK_LAUNCH("bin_add");
}

template <class X, class E>
__global__ void uniform_bin_kernel(const X* x, const E* edges, int64_t n_bins, UniformBins bins,
                                   int64_t* out, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    out[i] = bin_index::uniform(x[i], edges, n_bins, bins);
}

}  // namespace

void launch_uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                              const Array& out, Stream stream) {
  const int64_t n = x.size();
  if (n == 0) return;
  bin_index::dispatch_uniform(x, edges, [&](auto x_tag, auto e_tag) {
    using X = decltype(x_tag);
    using E = decltype(e_tag);
    auto kernel = &uniform_bin_kernel<X, E>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, reinterpret_cast<const X*>(x.data()),
                 reinterpret_cast<const E*>(edges.data()), edges.size() - 1, bins,
                 reinterpret_cast<int64_t*>(out.data()), n);
    GPUPY_CHECK_LAUNCH("uniform_bin_index");
  });
}

void launch_bin_add(const Array& index, const Array* weights, const Array& out, Stream stream) {
  if (index.size() == 0 || out.size() == 0) return;
  switch (out.dtype()) {
    case DType::int64:
      return launch_typed<int64_t>(index, weights, out, stream);
    case DType::float32:
      return launch_typed<float>(index, weights, out, stream);
    case DType::float64:
      return launch_typed<double>(index, weights, out, stream);
    default:
      throw TypeError("[bin_add] bins must be int64, float32 or float64");
  }
}

}  // namespace gpupy::GPUPY_KERNEL_NS
