// IEEE 754 binary16 storage type (NumPy's float16). Both compilers.
//
// gpupy stores float16 values as their 16 bits and computes with them in float32, as NumPy's
// float16 loops do: an operation widens its inputs to float (exact), computes in float and rounds
// the result back. The conversions below are written in integer arithmetic so that the host
// compiler, the emu build and nvcc give the same bits; rounding is to nearest, ties to even.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpupy/config.h"

namespace gpupy {

namespace half_bits {

GPUPY_HD uint64_t bits_of(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

GPUPY_HD float float_of(uint32_t b) {
  float v;
  memcpy(&v, &b, sizeof v);
  return v;
}

/// Rounds `m >> shift` to nearest, ties to even; `shift` in [1, 63].
GPUPY_HD uint32_t shift_round(uint64_t m, int shift) {
  const uint64_t kept = m >> shift;
  const uint64_t rest = m & ((uint64_t(1) << shift) - 1);
  const uint64_t halfway = uint64_t(1) << (shift - 1);
  return uint32_t(kept + (rest > halfway || (rest == halfway && (kept & 1))));
}

/// The float16 nearest to a double. Rounding once from double is what NumPy does (rounding
/// through float first could round twice).
GPUPY_HD uint16_t from_double(double v) {
  const uint64_t b = bits_of(v);
  const uint16_t sign = uint16_t(b >> 48) & 0x8000u;
  const int exponent = int(b >> 52) & 0x7ff;
  const uint64_t mantissa = b & ((uint64_t(1) << 52) - 1);
  if (exponent == 0x7ff)  // inf stays inf; NaN keeps its top payload bits and stays quiet
    return sign | (mantissa ? uint16_t(0x7e00u | (mantissa >> 42)) : uint16_t(0x7c00u));
  const int e = exponent - 1023;
  if (e >= 16) return sign | 0x7c00u;
  if (e >= -14)  // normal range; a carry out of the mantissa moves to the next exponent or inf
    return sign | uint16_t((uint32_t(e + 15) << 10) + shift_round(mantissa, 42));
  if (e < -25) return sign;  // below half the smallest subnormal (double subnormals included)
  // Subnormal: the value in units of 2^-24, rounded; 1 << 10 is the smallest normal.
  return sign | uint16_t(shift_round(mantissa | (uint64_t(1) << 52), 28 - e));
}

/// The float equal to a float16 (always exact).
GPUPY_HD float to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return float_of(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0) return float_of(sign);
    exponent = 113;  // normalise the subnormal: 2^-14 is float exponent 113
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      --exponent;
    }
    return float_of(sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13));
  }
  return float_of(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

}  // namespace half_bits

/// One float16 element. Conversions are explicit so that no arithmetic on float16 happens by
/// accident: kernels widen to float, compute, and narrow the result (see `widen_t`).
struct alignas(2) float16 {
  uint16_t bits = 0;

  float16() = default;
  GPUPY_HD explicit float16(double v) : bits(half_bits::from_double(v)) {}
  GPUPY_HD explicit float16(float v) : bits(half_bits::from_double(double(v))) {}
  template <class I>
  requires std::is_integral_v<I> GPUPY_HD explicit float16(I v)
      : bits(half_bits::from_double(double(v))) {}
  GPUPY_HD static float16 from_bits(uint16_t b) {
    float16 h;
    h.bits = b;
    return h;
  }

  GPUPY_HD explicit operator float() const { return half_bits::to_float(bits); }
  GPUPY_HD explicit operator double() const { return double(half_bits::to_float(bits)); }
  template <class I>
  requires std::is_integral_v<I> GPUPY_HD explicit operator I() const {
    return static_cast<I>(half_bits::to_float(bits));
  }
};

template <class T>
inline constexpr bool is_float16_v = false;
template <>
inline constexpr bool is_float16_v<float16> = true;

/// The type kernels compute a T in: float for float16, T itself otherwise.
template <class T>
struct widen {
  using type = T;
};
template <>
struct widen<float16> {
  using type = float;
};
template <class T>
using widen_t = typename widen<T>::type;

/// The storage type of a result computed as R for inputs stored as T: a float result of float16
/// inputs is narrowed back to float16; other results (bool, integers) are kept.
template <class T, class R>
struct narrow {
  using type = R;
};
template <>
struct narrow<float16, float> {
  using type = float16;
};
template <class T, class R>
using narrow_t = typename narrow<T, R>::type;

}  // namespace gpupy
