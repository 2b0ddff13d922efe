// Element-type categories that functors use to say which dtypes they accept. Host and device.
#pragma once

#include <concepts>
#include <type_traits>

#include "gpupy/complex.h"

namespace gpupy::fn {

template <class T>
concept Bool = std::is_same_v<T, bool>;
template <class T>
concept Integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
concept SignedInteger = Integer<T> && std::is_signed_v<T>;
template <class T>
concept UnsignedInteger = Integer<T> && std::is_unsigned_v<T>;
template <class T>
concept Floating = std::is_floating_point_v<T>;
template <class T>
concept Complex = is_complex_v<T>;
/// Integers and floats (ordered, non-bool).
template <class T>
concept RealNumber = Integer<T> || Floating<T>;
/// Every element type except bool.
template <class T>
concept Numeric = RealNumber<T> || Complex<T>;
/// Floats and complex.
template <class T>
concept Inexact = Floating<T> || Complex<T>;
/// Integer types including bool (bitwise ops).
template <class T>
concept IntegerOrBool = std::is_integral_v<T>;

/// a < 0, written so that unsigned types compile to `false` without nvcc's "pointless
/// comparison of unsigned integer with zero" warning in templates.
template <class T>
GPUPY_HD constexpr bool is_negative(T a) {
  if constexpr (std::is_signed_v<T>)
    return a < T(0);
  else
    return false;
}

/// The real type of T (float for complex<float>, T otherwise).
template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

}  // namespace gpupy::fn
