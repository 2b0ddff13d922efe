// The portability layer of gpupy's CUDA kernels: the same .cu files compile with nvcc for the cuda
// backend and with the host compiler (GPUPY_EMU_BUILD) for the emu backend. Both compilers.
#pragma once

#if defined(GPUPY_EMU_BUILD)
#include "gpupy/emu/cuda_emu.h"
#include "gpupy/emu/runtime.h"
/// Namespace of everything compiled from the .cu files, so both builds link into one module.
#define GPUPY_KERNEL_NS emu
namespace gpupy::emu {
using Stream = void*;
}
// Named launch: emu errors (a trap, a bad configuration) then name the kernel.
#define GPUPY_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  GPUPY_EMU_LAUNCH(kernel, grid, block, shared_bytes, __VA_ARGS__)
#define GPUPY_DYNAMIC_SHARED_ARRAY(T, name) GPUPY_DYNAMIC_SHARED(T, name)
#else
#include <cuda_runtime.h>
#define GPUPY_KERNEL_NS cuda
namespace gpupy::cuda {
using Stream = cudaStream_t;
}
#define GPUPY_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  kernel<<<grid, block, shared_bytes, stream>>>(__VA_ARGS__)
#define GPUPY_DYNAMIC_SHARED_ARRAY(T, name) extern __shared__ T name[]
#endif
