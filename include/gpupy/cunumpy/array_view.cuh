// Array views for user CUDA kernels launched by gpupy.cunumpy.CudaKernel: ArrayND<T> (strided,
// strides in elements) and CArrayND<T> (C-contiguous), N = 1..16, laid out as the launch packs
// them. Seen by nvcc/NVRTC (cuda) and by the host compiler (emu).
#pragma once

#ifndef GPUPY_VIEW_HD
#if defined(__CUDACC__) || defined(GPUPY_EMU)
#define GPUPY_VIEW_HD __host__ __device__
#else
#define GPUPY_VIEW_HD
#endif
#endif

#if defined(CUNUMPY_BOUNDS_CHECK) && defined(GPUPY_EMU)
#include <cstdio>
#include <stdexcept>
#elif defined(CUNUMPY_BOUNDS_CHECK) && !defined(__CUDACC_RTC__)
#include <cstdio>  // printf in device code under nvcc (NVRTC has it built in)
#endif

namespace gpupy_view {

/// Checks every index against its axis (only with -DCUNUMPY_BOUNDS_CHECK): an out-of-range index
/// reports "cunumpy: index I is out of bounds for axis A with size S" and stops the kernel.
template <int N>
GPUPY_VIEW_HD inline void check_bounds(const long long* ix, const long long* shape) {
#ifdef CUNUMPY_BOUNDS_CHECK
  for (int k = 0; k < N; ++k) {
    if (ix[k] >= 0 && ix[k] < shape[k]) continue;
#ifdef GPUPY_EMU
    char msg[128];
    std::snprintf(msg, sizeof msg,
                  "cunumpy: index %lld is out of bounds for axis %d with size %lld", ix[k], k,
                  shape[k]);
    throw std::out_of_range(msg);  // the emu launch raises it with the thread's position
#elif defined(__CUDA_ARCH__)
    printf("cunumpy: index %lld is out of bounds for axis %d with size %lld\n", ix[k], k,
           shape[k]);
    __trap();
#endif
  }
#else
  (void)ix;
  (void)shape;
#endif
}

/// {data, shape[N], strides[N]}: any strided array (a non-contiguous slice too).
template <class T, int N>
struct Strided {
  T* data;
  long long shape[N];
  long long strides[N];  // in elements, not bytes

  template <class... I>
  GPUPY_VIEW_HD T& operator()(I... idx) const {
    static_assert(sizeof...(I) == N, "an ArrayND<T> takes N indices");
    const long long ix[] = {static_cast<long long>(idx)...};
    check_bounds<N>(ix, shape);
    long long off = 0;
    for (int k = 0; k < N; ++k) off += ix[k] * strides[k];
    return data[off];
  }
  GPUPY_VIEW_HD long long size() const {
    long long n = 1;
    for (int k = 0; k < N; ++k) n *= shape[k];
    return n;
  }
};

/// {data, shape[N]}: a C-contiguous array; row-major offsets computed from the shape.
template <class T, int N>
struct Contiguous {
  T* data;
  long long shape[N];

  template <class... I>
  GPUPY_VIEW_HD T& operator()(I... idx) const {
    static_assert(sizeof...(I) == N, "a CArrayND<T> takes N indices");
    const long long ix[] = {static_cast<long long>(idx)...};
    check_bounds<N>(ix, shape);
    long long off = 0;
    for (int k = 0; k < N; ++k) off = off * shape[k] + ix[k];
    return data[off];
  }
  GPUPY_VIEW_HD long long size() const {
    long long n = 1;
    for (int k = 0; k < N; ++k) n *= shape[k];
    return n;
  }
};

}  // namespace gpupy_view

#define GPUPY_VIEW_ALIASES(N)                    \
  template <class T>                             \
  using Array##N##D = gpupy_view::Strided<T, N>; \
  template <class T>                             \
  using CArray##N##D = gpupy_view::Contiguous<T, N>;
GPUPY_VIEW_ALIASES(1)
GPUPY_VIEW_ALIASES(2)
GPUPY_VIEW_ALIASES(3)
GPUPY_VIEW_ALIASES(4)
GPUPY_VIEW_ALIASES(5)
GPUPY_VIEW_ALIASES(6)
GPUPY_VIEW_ALIASES(7)
GPUPY_VIEW_ALIASES(8)
GPUPY_VIEW_ALIASES(9)
GPUPY_VIEW_ALIASES(10)
GPUPY_VIEW_ALIASES(11)
GPUPY_VIEW_ALIASES(12)
GPUPY_VIEW_ALIASES(13)
GPUPY_VIEW_ALIASES(14)
GPUPY_VIEW_ALIASES(15)
GPUPY_VIEW_ALIASES(16)
#undef GPUPY_VIEW_ALIASES
