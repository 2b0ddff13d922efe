// CUDA-style kernels that fail (trap, assert, throw, deadlock), for the emu runtime's error tests.
// Host only (compiled with g++ against cuda_emu.h).
#pragma once

#include <stdexcept>

#include "gpupy/emu/cuda_emu.h"

__global__ void trapping(int bad_block, int bad_thread) {
  if (static_cast<int>(blockIdx.x) == bad_block && static_cast<int>(threadIdx.x) == bad_thread)
    __trap();
}

__global__ void trapping_after_barrier(int bad_thread) {
  __syncthreads();
  if (static_cast<int>(threadIdx.x) == bad_thread) __trap();
  __syncthreads();
}

__global__ void asserting(int limit) { assert(static_cast<int>(threadIdx.x) < limit); }

__global__ void throwing() {
  if (threadIdx.x == 3) throw std::runtime_error("bad value");
}

// Lane 0 waits for lane 1 at __syncwarp while lane 1 waits for lane 0 at __syncthreads.
__global__ void deadlocking() {
  if (threadIdx.x == 0) {
    __syncwarp(0x3u);
  } else {
    __syncthreads();
  }
}

__global__ void noop() {}

__global__ void count_threads(unsigned* counter) { atomicAdd(counter, 1u); }
