// Warp and block reductions (sum, min, max) for user CUDA kernels, on cuda and gpupy's emu
// device. Block functions must be reached by every thread of the block (they synchronize), and
// the block's thread count must be a multiple of 32; every thread gets the result.
#ifndef CUNUMPY_REDUCE_CUH
#define CUNUMPY_REDUCE_CUH

#include "cunumpy/atomic.cuh"

/// Linear index of the thread in its block, and the block's thread count.
__device__ inline int cunumpy_block_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline int cunumpy_block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

struct cunumpy_sum_op {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct cunumpy_min_op {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};
struct cunumpy_max_op {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};

/// Reduces v over the 32 lanes of the warp; every lane gets the result.
template <class T, class Op>
__device__ T cunumpy_warp_reduce(T v, Op op) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}
template <class T>
__device__ T cunumpy_warp_sum(T v) {
  return cunumpy_warp_reduce(v, cunumpy_sum_op{});
}
template <class T>
__device__ T cunumpy_warp_min(T v) {
  return cunumpy_warp_reduce(v, cunumpy_min_op{});
}
template <class T>
__device__ T cunumpy_warp_max(T v) {
  return cunumpy_warp_reduce(v, cunumpy_max_op{});
}

/// Reduces v over the block: warps first, then the (at most 32) warp results.
template <class T, class Op>
__device__ T cunumpy_block_reduce(T v, Op op) {
  __shared__ T cunumpy_partial[32];
  int t = cunumpy_block_thread(), warps = (cunumpy_block_threads() + 31) / 32;
  v = cunumpy_warp_reduce(v, op);
  __syncthreads();  // a previous call may still be reading the partials
  if ((t & 31) == 0) cunumpy_partial[t / 32] = v;
  __syncthreads();
  T r = cunumpy_partial[0];
  for (int w = 1; w < warps; ++w) r = op(r, cunumpy_partial[w]);
  return r;
}
template <class T>
__device__ T cunumpy_block_sum(T v) {
  return cunumpy_block_reduce(v, cunumpy_sum_op{});
}
template <class T>
__device__ T cunumpy_block_min(T v) {
  return cunumpy_block_reduce(v, cunumpy_min_op{});
}
template <class T>
__device__ T cunumpy_block_max(T v) {
  return cunumpy_block_reduce(v, cunumpy_max_op{});
}

/// *out += the block's sum of v, with one atomic per block instead of one per thread.
template <class T>
__device__ void cunumpy_block_sum_to(T* out, T v) {
  T s = cunumpy_block_sum(v);
  if (cunumpy_block_thread() == 0) cunumpy_atomic_add(out, s);
}

#endif  // CUNUMPY_REDUCE_CUH
