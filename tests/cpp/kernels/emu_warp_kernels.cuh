// CUDA-style kernels with warp intrinsics and atomics, for the emu runtime tests. Host only
// (compiled with g++ against cuda_emu.h).
#pragma once

#include "gpupy/emu/cuda_emu.h"

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Warp-shuffle reduction: per-warp sums through shfl_down, then one atomicAdd per warp.
__global__ void warp_reduce_sum(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

// Inclusive block scan: shfl_up within warps, warp totals through shared memory.
__global__ void block_scan_shfl(const int* in, int* out) {
  __shared__ int warp_totals[32];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  int v = in[blockIdx.x * blockDim.x + t];
  for (int d = 1; d < 32; d <<= 1) {
    const int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = lane < static_cast<int>(blockDim.x / 32) ? warp_totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += up;
    }
    warp_totals[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  out[blockIdx.x * blockDim.x + t] = v;
}

// Ballot/any/all of "threadIdx.x is odd" in a block whose last warp is partial.
__global__ void vote_partial(unsigned* ballots, int* anys, int* alls, unsigned* active) {
  const int t = threadIdx.x, warp = t / 32;
  const int odd = t & 1;
  const unsigned b = __ballot_sync(0xffffffffu, odd);
  const int a = __any_sync(0xffffffffu, t % 32 == 5);
  const int l = __all_sync(0xffffffffu, t < 40);
  const unsigned m = __activemask();
  if ((t & 31) == 0) {
    ballots[warp] = b;
    anys[warp] = a;
    alls[warp] = l;
    active[warp] = m;
  }
}

// Two half-warps shuffle independently with disjoint masks; width 8 segments use shfl_xor.
__global__ void shfl_partial_masks(int* out_idx, int* out_xor) {
  const int lane = threadIdx.x;
  int v = lane * 10;
  if (lane < 16) {
    out_idx[lane] = __shfl_sync(0x0000ffffu, v, 3);
  } else {
    out_idx[lane] = __shfl_sync(0xffff0000u, v, 20);
  }
  out_xor[lane] = __shfl_xor_sync(0xffffffffu, v, 1, 8);
  __syncwarp();
}

// Lanes 0..15 leave, then the rest shuffle with a full mask: an error, not a hang.
__global__ void shfl_with_exited_lane(int* out) {
  if (threadIdx.x < 16) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);
}

// Histogram of bytes with global atomics from many blocks.
__global__ void histogram256(const unsigned char* data, int n, unsigned* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&bins[data[i]], 1u);
  }
}

__device__ float atomic_max_float(float* addr, float value) {
  int* a = reinterpret_cast<int*>(addr);
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(a, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void float_max(const float* in, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(out, in[i]);
}

__global__ void inc_dec(unsigned* counter, unsigned* down, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicInc(counter, 9u);
    atomicDec(down, 6u);
  }
}

__global__ void min_max_atomics(const int* in, int n, int* mn, int* mx, unsigned long long* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMin(mn, in[i]);
    atomicMax(mx, in[i]);
    atomicAdd(sum, static_cast<unsigned long long>(in[i] + 1000));
  }
}
