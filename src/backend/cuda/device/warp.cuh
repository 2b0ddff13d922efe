// Warp and block reductions built on __shfl_down_sync, for any trivially copyable value type.
// Device code (nvcc, or the host compiler under emulation).
#pragma once

#include <cstring>

#include "portable.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

inline constexpr int kWarpSize = 32;

/// Element type of raw shared-memory arrays, 16-byte aligned by its type: an alignas on the
/// declaration is rejected by the host compiler after the `static` __shared__ may become in emu.
struct alignas(16) SharedWord {
  unsigned long long lo, hi;
};
/// SharedWords needed to hold `bytes` bytes.
constexpr int shared_words(unsigned long long bytes) { return int((bytes + 15) / 16); }
inline constexpr unsigned kFullMask = 0xffffffffu;

/// __shfl_down_sync for any type: moved as 32-bit words, since the intrinsic only takes
/// word-sized types and gpupy's values include bool, int8 and complex128.
template <class V>
__device__ inline V shfl_down(V v, int delta) {
  constexpr int kWords = (sizeof(V) + 3) / 4;
  unsigned words[kWords] = {};
  memcpy(words, &v, sizeof(V));
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_down_sync(kFullMask, words[w], delta);
  memcpy(&v, words, sizeof(V));
  return v;
}

/// __shfl_up_sync for any type, moved as 32-bit words like shfl_down.
template <class V>
__device__ inline V shfl_up(V v, int delta) {
  constexpr int kWords = (sizeof(V) + 3) / 4;
  unsigned words[kWords] = {};
  memcpy(words, &v, sizeof(V));
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_up_sync(kFullMask, words[w], delta);
  memcpy(&v, words, sizeof(V));
  return v;
}

/// Combines the values of a full warp; the result is valid in lane 0. `Op` must be associative
/// and commutative (the order of combination differs from a sequential loop).
template <class Op, class V>
__device__ inline V warp_reduce(V v) {
  for (int delta = kWarpSize / 2; delta > 0; delta /= 2) v = Op::combine(v, shfl_down(v, delta));
  return v;
}

/// Combines the values of a block whose size is a multiple of 32 (at most 1024); the result is
/// valid in thread 0. `scratch` is shared memory for 32 values. Every thread must call it.
template <class Op, class V>
__device__ inline V block_reduce(V v, V* scratch) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int nwarps = blockDim.x / kWarpSize;
  v = warp_reduce<Op>(v);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? scratch[lane] : Op::identity();
    v = warp_reduce<Op>(v);
  }
  __syncthreads();  // scratch is reused by the caller's next iteration
  return v;
}

}  // namespace gpupy::GPUPY_KERNEL_NS
