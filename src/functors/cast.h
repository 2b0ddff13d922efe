// Value conversion between gpupy's element types, as NumPy's unsafe casts do. Host and device.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "gpupy/complex.h"
#include "gpupy/float16.h"

namespace gpupy {

/// Float -> integer with the results NumPy gives on x86-64 for every input: a truncating 32- or
/// 64-bit signed conversion whose NaN and out-of-range results are the minimum, narrower types
/// wrapped from int32, unsigned ones through the signed type offset by half its range.
template <class To, class F>
GPUPY_HD To float_to_int_as_numpy(F v) {
  if constexpr (sizeof(To) < 4) {
    return static_cast<To>(float_to_int_as_numpy<int32_t>(v));
  } else if constexpr (std::is_signed_v<To>) {
    const F limit = F(sizeof(To) == 4 ? 2147483648.0 : 9223372036854775808.0);
    return v >= -limit && v < limit ? static_cast<To>(v) : std::numeric_limits<To>::min();
  } else {
    using S = std::make_signed_t<To>;
    const To top = To(1) << (8 * sizeof(To) - 1);
    const F half = F(sizeof(To) == 4 ? 2147483648.0 : 9223372036854775808.0);
    if (v >= half) return To(float_to_int_as_numpy<S>(v - half)) ^ top;
    return To(float_to_int_as_numpy<S>(v));
  }
}

// cast_value converts floats to integers with float_to_int_as_numpy on the device, whose
// conversions saturate (NaN -> 0, -1.0 -> 0 for unsigned), and in the emu build of the same
// kernels; host loops keep the compiler's conversion, which agrees with NumPy on x86-64. The
// choice is a template argument so that the two kinds of instantiation never share a symbol.
#if defined(__CUDA_ARCH__) || defined(GPUPY_EMU_BUILD)
#define GPUPY_CAST_FLOATS_AS_NUMPY true
#else
#define GPUPY_CAST_FLOATS_AS_NUMPY false
#endif

/// A real value as integer type To.
template <class To, bool kAsNumpy, class From>
GPUPY_HD To real_to(From v) {
  if constexpr (kAsNumpy && std::is_floating_point_v<From> && std::is_integral_v<To>)
    return float_to_int_as_numpy<To>(v);
  else
    return static_cast<To>(v);
}

/// Converts one element: complex -> real drops the imaginary part, anything -> bool tests != 0.
/// float16 goes through float (exact) on the way out and is rounded once from double on the way
/// in (exact for every other source whose value is finite in float16).
template <class To, class From, bool kAsNumpy = GPUPY_CAST_FLOATS_AS_NUMPY>
GPUPY_HD To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_float16_v<From>) {
    // NumPy converts float16 to uint32 through a 64-bit signed integer (NaN and out-of-range
    // values give 0, where its float32 and float64 casts give 2^31).
    if constexpr (kAsNumpy && std::is_same_v<To, uint32_t>)
      return To(float_to_int_as_numpy<int64_t>(static_cast<float>(v)));
    else
      return cast_value<To, float, kAsNumpy>(static_cast<float>(v));
  } else if constexpr (is_float16_v<To>) {
    return To(cast_value<double, From, kAsNumpy>(v));
  } else if constexpr (is_complex_v<From>) {
    if constexpr (std::is_same_v<To, bool>) {
      return v.re != 0 || v.im != 0;
    } else if constexpr (is_complex_v<To>) {
      return To(v);
    } else {
      return real_to<To, kAsNumpy>(v.re);
    }
  } else if constexpr (is_complex_v<To>) {
    using R = decltype(To{}.re);
    return To(static_cast<R>(v), R(0));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else {
    return real_to<To, kAsNumpy>(v);
  }
}

/// Element i of the range first, first + delta, ... computed in T (bool: first, then first | delta;
/// float16 in float, as NumPy fills float16 ranges).
template <class T>
GPUPY_HD T range_value(T first, T delta, int64_t i) {
  if constexpr (std::is_same_v<T, bool>)
    return i == 0 ? first : (first || delta);
  else if constexpr (is_float16_v<T>)
    return T(static_cast<float>(first) + float(i) * static_cast<float>(delta));
  else
    return T(first + T(cast_value<T>(i) * delta));
}

}  // namespace gpupy
