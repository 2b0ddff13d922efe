// Order-preserving unsigned keys for sorting and searching: unsigned comparison of the keys is
// NumPy's sort order (NaN last, -0.0 == 0.0, complex lexicographic with NaNs last). Both compilers.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpupy/complex.h"
#include "gpupy/config.h"

namespace gpupy::sort_keys {

/// Key of complex128: real part's key, then imaginary part's.
struct Key128 {
  uint64_t hi, lo;
};
GPUPY_HD bool operator<(Key128 a, Key128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
GPUPY_HD Key128 invert(Key128 k) { return {~k.hi, ~k.lo}; }
GPUPY_HD uint64_t invert(uint64_t k) { return ~k; }

// Negative floats have all bits flipped, positive ones only the sign bit: the integer order then
// follows the float order. Every NaN becomes the largest key so that NaNs compare equal and last.
GPUPY_HD uint64_t float_bits(double v) {
  if (v != v) return ~uint64_t(0);
  if (v == 0) v = 0;  // -0.0 and 0.0 are equal, as NumPy's comparisons say
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
}
GPUPY_HD uint32_t float_bits(float v) {
  if (v != v) return ~uint32_t(0);
  if (v == 0) v = 0;
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  return (u >> 31) ? ~u : (u | (uint32_t(1) << 31));
}

/// (high, low) key halves of a complex number in NumPy's order: finite parts lexicographically,
/// then R+nanj by real part, then nan+Rj by imaginary part, then nan+nanj (keys of non-NaN
/// parts never reach the three largest values).
template <class U, class F>
GPUPY_HD void complex_halves(F re, F im, U& hi, U& lo) {
  const bool nr = re != re, ni = im != im;
  const U m = ~U(0);
  if (!nr && !ni) {
    hi = float_bits(re), lo = float_bits(im);
  } else if (!nr) {
    hi = U(m - 2), lo = float_bits(re);
  } else if (!ni) {
    hi = U(m - 1), lo = float_bits(im);
  } else {
    hi = m, lo = m;
  }
}

/// The key type of element type T.
template <class T>
using KeyOf = std::conditional_t<std::is_same_v<T, complex<double>>, Key128, uint64_t>;

template <class T>
GPUPY_HD KeyOf<T> key(T v) {
  if constexpr (std::is_same_v<T, complex<double>>) {
    Key128 k;
    complex_halves(v.re, v.im, k.hi, k.lo);
    return k;
  } else if constexpr (std::is_same_v<T, complex<float>>) {
    uint32_t hi, lo;
    complex_halves(v.re, v.im, hi, lo);
    return (uint64_t(hi) << 32) | lo;
  } else if constexpr (std::is_floating_point_v<T>) {
    return float_bits(v);
  } else if constexpr (std::is_signed_v<T>) {
    return uint64_t(int64_t(v)) ^ (uint64_t(1) << 63);
  } else {
    return uint64_t(v);
  }
}

/// key(a) < key(b) without building the keys: NaN after every number, -0.0 equal to 0.0.
/// Bitwise operators keep it branch-free (twice as fast as || in a selection loop).
template <class T>
GPUPY_HD bool less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (a < b) | ((b != b) & (a == a));
  else if constexpr (std::is_arithmetic_v<T>)
    return a < b;
  else
    return key(a) < key(b);
}

/// First position in [lo, hi) whose key is >= v (`right`: > v); keys[] ascending.
template <class Key, class Get>
GPUPY_HD int64_t bound(const Get& get, int64_t lo, int64_t hi, Key v, bool right) {
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    Key m = get(mid);
    if (right ? !(v < m) : (m < v))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace gpupy::sort_keys
