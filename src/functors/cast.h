// Value conversion between gpupy's element types, as NumPy's unsafe casts do. Host and device.
#pragma once

#include <type_traits>

#include "gpupy/complex.h"

namespace gpupy {

/// Converts one element: complex -> real drops the imaginary part, anything -> bool tests != 0.
template <class To, class From>
GPUPY_HD To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_v<From>) {
    if constexpr (std::is_same_v<To, bool>) {
      return v.re != 0 || v.im != 0;
    } else if constexpr (is_complex_v<To>) {
      return To(v);
    } else {
      return static_cast<To>(v.re);
    }
  } else if constexpr (is_complex_v<To>) {
    using R = decltype(To{}.re);
    return To(static_cast<R>(v), R(0));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace gpupy
