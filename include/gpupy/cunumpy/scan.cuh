// Warp and block prefix sums for user CUDA kernels, on cuda and gpupy's emu device. Block
// functions must be reached by every thread (they synchronize); the block's thread count must
// be a multiple of 32. Threads are ordered by cunumpy_block_thread().
#ifndef CUNUMPY_SCAN_CUH
#define CUNUMPY_SCAN_CUH

#include "cunumpy/reduce.cuh"

/// Inclusive prefix sum over the lanes of the warp.
template <class T>
__device__ T cunumpy_warp_inclusive_sum(T v) {
  int lane = cunumpy_block_thread() & 31;
  for (int offset = 1; offset < 32; offset <<= 1) {
    T n = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += n;
  }
  return v;
}
template <class T>
__device__ T cunumpy_warp_exclusive_sum(T v) {
  return cunumpy_warp_inclusive_sum(v) - v;
}

/// Inclusive prefix sum over the block; *total (if given) receives the block's sum.
template <class T>
__device__ T cunumpy_block_inclusive_sum(T v, T* total = nullptr) {
  __shared__ T cunumpy_warp_totals[32];
  int t = cunumpy_block_thread(), warps = (cunumpy_block_threads() + 31) / 32;
  T inc = cunumpy_warp_inclusive_sum(v);
  __syncthreads();  // a previous call may still be reading the totals
  if ((t & 31) == 31) cunumpy_warp_totals[t / 32] = inc;
  __syncthreads();
  T offset = T(0), sum = T(0);
  for (int w = 0; w < warps; ++w) {
    if (w < t / 32) offset += cunumpy_warp_totals[w];
    sum += cunumpy_warp_totals[w];
  }
  if (total) *total = sum;
  return inc + offset;
}
template <class T>
__device__ T cunumpy_block_exclusive_sum(T v, T* total = nullptr) {
  return cunumpy_block_inclusive_sum(v, total) - v;
}

#endif  // CUNUMPY_SCAN_CUH
