// CUDA-style kernels that record the order in which the emu runtime runs blocks and threads, for
// the $GPUPY_EMU_SCHEDULE tests. Host only (compiled with g++ against cuda_emu.h).
#pragma once

#include <functional>
#include <thread>

#include "gpupy/emu/cuda_emu.h"

struct OrderLogEntry {
  unsigned block;      // linear block id
  unsigned thread;     // linear thread id
  unsigned phase;      // 0 before the barrier, 1 after it
  std::size_t worker;  // the OS thread that ran the block (blocks run on several)
};

__device__ void append_to_log(unsigned* count, OrderLogEntry* log, unsigned phase) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned k = atomicAdd(count, 1u);
  log[k] = {block, thread, phase, std::hash<std::thread::id>{}(std::this_thread::get_id())};
}

// Every thread appends its (block, thread) ids to a log; with_barrier appends again after a
// __syncthreads, so the order in which the barrier releases threads shows too.
__global__ void append_ids(unsigned* count, OrderLogEntry* log, int with_barrier) {
  append_to_log(count, log, 0);
  if (with_barrier) {
    __syncthreads();
    append_to_log(count, log, 1);
  }
}
