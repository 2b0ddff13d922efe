// CUDA-style kernels with shared memory and block barriers, for the emu runtime tests. Host only
// (compiled with g++ against cuda_emu.h), written as they would be for nvcc.
#pragma once

#include "gpupy/emu/cuda_emu.h"

// Tree reduction in static shared memory; one partial sum per block.
template <int kThreads>
__global__ void block_reduce_sum(const float* in, float* out, int n) {
  __shared__ float s[kThreads];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v += in[i];
  if (i + static_cast<int>(blockDim.x) < n) v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Hillis-Steele inclusive scan of one block (double buffered).
__global__ void block_scan_hillis_steele(const int* in, int* out, int n) {
  __shared__ int buf[2][1024];
  const int tid = threadIdx.x;
  int cur = 0;
  buf[cur][tid] = tid < n ? in[tid] : 0;
  __syncthreads();
  for (int offset = 1; offset < static_cast<int>(blockDim.x); offset <<= 1) {
    const int next = 1 - cur;
    buf[next][tid] = buf[cur][tid] + (tid >= offset ? buf[cur][tid - offset] : 0);
    cur = next;
    __syncthreads();
  }
  if (tid < n) out[tid] = buf[cur][tid];
}

// 32x32 tiled transpose; the +1 column avoids bank conflicts on a GPU.
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += blockDim.y) {
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += blockDim.y) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// Reverses each block's chunk through dynamic shared memory.
__global__ void reverse_dynamic(const int* in, int* out) {
  GPUPY_DYNAMIC_SHARED(int, s);
  const int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  s[t] = in[base + t];
  __syncthreads();
  out[base + t] = s[blockDim.x - 1 - t];
}

// Threads past n return before the barrier; the rest must not deadlock.
__global__ void early_exit_sum(const int* in, int* out, int n) {
  __shared__ int s[256];
  const int t = threadIdx.x;
  if (t >= n) return;
  s[t] = in[t];
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int i = 0; i < n; ++i) sum += s[i];
    *out = sum;
  }
}

// Every third thread (thread 0 among them) exits first; the others meet at two barriers.
__global__ void scattered_exit_sum(int* out) {
  __shared__ int s[256];
  const int t = threadIdx.x;
  if (t % 3 == 0) return;
  s[t] = t;
  __syncthreads();
  if (t == 1) {
    int sum = 0;
    for (int i = 0; i < static_cast<int>(blockDim.x); ++i) sum += i % 3 ? s[i] : 0;
    *out = sum;
  }
  __syncthreads();
}

__global__ void say_hello(int value) {
  if (threadIdx.x == 1 && blockIdx.x == 2) printf("hello from the emu device: %d\n", value);
}

__global__ void sync_predicates(const int* flags, int* count, int* all, int* any) {
  const int t = threadIdx.x;
  const int c = __syncthreads_count(flags[t]);
  const int a = __syncthreads_and(flags[t]);
  const int o = __syncthreads_or(flags[t]);
  if (t == 0) {
    *count = c;
    *all = a;
    *any = o;
  }
}

// Writes the full 3-D coordinates of every thread into its own slot.
__global__ void write_coords(int* out) {
  const unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned slot = bx * blockDim.x * blockDim.y * blockDim.z + tx;
  int* o = out + slot * 6;
  o[0] = blockIdx.x;
  o[1] = blockIdx.y;
  o[2] = blockIdx.z;
  o[3] = threadIdx.x;
  o[4] = threadIdx.y;
  o[5] = threadIdx.z;
}

// Per-block 2-D shared tile summed with a 2-D block barrier.
__global__ void block2d_sum(const int* in, int* out) {
  __shared__ int s[8][16];
  s[threadIdx.y][threadIdx.x] = in[blockIdx.x * 128 + threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    int sum = 0;
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 16; ++x) sum += s[y][x];
    out[blockIdx.x] = sum;
  }
}
