// cunumpy_atomic_add for user CUDA kernels: one name for every scalar type an accumulation
// kernel needs, on cuda and on gpupy's emu device. Returns the old value.
#ifndef CUNUMPY_ATOMIC_CUH
#define CUNUMPY_ATOMIC_CUH

__device__ inline float cunumpy_atomic_add(float* p, float v) { return atomicAdd(p, v); }
__device__ inline int cunumpy_atomic_add(int* p, int v) { return atomicAdd(p, v); }
__device__ inline unsigned int cunumpy_atomic_add(unsigned int* p, unsigned int v) {
  return atomicAdd(p, v);
}
__device__ inline unsigned long long cunumpy_atomic_add(unsigned long long* p,
                                                        unsigned long long v) {
  return atomicAdd(p, v);
}
// CUDA has no signed 64-bit atomicAdd; two's complement makes the unsigned one add modulo 2^64.
__device__ inline long long cunumpy_atomic_add(long long* p, long long v) {
  return static_cast<long long>(
      atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}

__device__ inline double cunumpy_atomic_add(double* p, double v) {
#if defined(GPUPY_EMU) || !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
  return atomicAdd(p, v);
#else
  // Before sm_60 there is no double atomicAdd: compare-and-swap on the bit pattern.
  auto* a = reinterpret_cast<unsigned long long*>(p);
  unsigned long long old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
#endif
}

/// data[i, j] += v for a C-contiguous 2D array with n1 columns.
template <class T>
__device__ inline T cunumpy_atomic_add_2d(T* data, long long n1, long long i, long long j, T v) {
  return cunumpy_atomic_add(data + i * n1 + j, v);
}

/// data[i, j, k] += v for a C-contiguous 3D array of shape (., n1, n2).
template <class T>
__device__ inline T cunumpy_atomic_add_3d(T* data, long long n1, long long n2, long long i,
                                          long long j, long long k, T v) {
  return cunumpy_atomic_add(data + (i * n1 + j) * n2 + k, v);
}

#endif  // CUNUMPY_ATOMIC_CUH
