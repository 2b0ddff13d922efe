// One output of the sliding dot product behind convolve and correlate, shared by the cpu loop and
// the CUDA kernel so that every device sums the same products in the same order. Both compilers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpupy/complex.h"
#include "gpupy/config.h"

namespace gpupy::sliding {

/// The accumulator of T: integers add and multiply as unsigned (at least 32 bits, so no promotion
/// to int) and wrap modulo 2^bits exactly as NumPy's integer dot does, without signed overflow;
/// floats and complex accumulate in T, as NumPy's dot does for float32/float64/complex.
template <class T>
using Acc = std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                               std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>, T>;

/// acc + x * y in Acc<T>; bool is NumPy's: true when any product is true.
template <class T>
GPUPY_HD Acc<T> mul_add(Acc<T> acc, T x, T y) {
  if constexpr (std::is_same_v<T, bool>)
    return acc || (x && y);
  else if constexpr (std::is_integral_v<T>)  // sign-extended, then modulo 2^bits
    return acc + static_cast<Acc<T>>(static_cast<int64_t>(x)) *
                     static_cast<Acc<T>>(static_cast<int64_t>(y));
  else
    return acc + x * y;
}

/// Lowest and one-past-highest j with 0 <= s + j < n and 0 <= j < m.
GPUPY_HD void overlap(int64_t n, int64_t m, int64_t s, int64_t& lo, int64_t& hi) {
  lo = s < 0 ? -s : 0;
  hi = n - s < m ? n - s : m;
}

/// sum over the overlapping j, in ascending order, of a[s + j] * v[j] (0 when nothing overlaps).
/// Only overlapping products are formed, so an inf at an end never meets a padding zero.
template <class T>
GPUPY_HD T one_output(const T* a, int64_t n, const T* v, int64_t m, int64_t s) {
  int64_t lo, hi;
  overlap(n, m, s, lo, hi);
  Acc<T> acc = Acc<T>(0);
  for (int64_t j = lo; j < hi; ++j) acc = mul_add<T>(acc, a[s + j], v[j]);
  return static_cast<T>(acc);
}

}  // namespace gpupy::sliding
