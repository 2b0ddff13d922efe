// Compiler portability macros shared by host (g++) and device (nvcc) code. Seen by both compilers.
#pragma once

#if defined(__CUDACC__)
#define GPUPY_HD __host__ __device__ __forceinline__
#define GPUPY_DEVICE_CODE 1
#else
#define GPUPY_HD inline
#endif

#if defined(__CUDA_ARCH__)
#define GPUPY_ON_DEVICE 1
#endif
