// Thread-index macros for user CUDA kernels: global indices as long long (no int overflow on
// large arrays) and the usual early return for threads past the end.
#ifndef CUNUMPY_INDEX_CUH
#define CUNUMPY_INDEX_CUH

#define CUNUMPY_GLOBAL_INDEX_X() (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x)
#define CUNUMPY_GLOBAL_INDEX_Y() (static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y)
#define CUNUMPY_GLOBAL_INDEX_Z() (static_cast<long long>(blockIdx.z) * blockDim.z + threadIdx.z)

/// Declares `long long i` and returns from the kernel when i >= n.
#define CUNUMPY_THREAD_1D(i, n)           \
  long long i = CUNUMPY_GLOBAL_INDEX_X(); \
  if (i >= static_cast<long long>(n)) return

/// Declares i (x axis) and j (y axis); returns when either is past its size.
#define CUNUMPY_THREAD_2D(i, j, ni, nj)   \
  long long i = CUNUMPY_GLOBAL_INDEX_X(); \
  long long j = CUNUMPY_GLOBAL_INDEX_Y(); \
  if (i >= static_cast<long long>(ni) || j >= static_cast<long long>(nj)) return

/// Declares i, j, k (x, y, z axes); returns when any is past its size.
#define CUNUMPY_THREAD_3D(i, j, k, ni, nj, nk)                              \
  long long i = CUNUMPY_GLOBAL_INDEX_X();                                   \
  long long j = CUNUMPY_GLOBAL_INDEX_Y();                                   \
  long long k = CUNUMPY_GLOBAL_INDEX_Z();                                   \
  if (i >= static_cast<long long>(ni) || j >= static_cast<long long>(nj) || \
      k >= static_cast<long long>(nk))                                      \
  return

/// `CUNUMPY_GRID_STRIDE_1D(i, n) { ... }`: every i in [0, n) once, whatever the grid size.
#define CUNUMPY_GRID_STRIDE_1D(i, n)                                          \
  for (long long i = CUNUMPY_GLOBAL_INDEX_X(); i < static_cast<long long>(n); \
       i += static_cast<long long>(blockDim.x) * gridDim.x)

#endif  // CUNUMPY_INDEX_CUH
