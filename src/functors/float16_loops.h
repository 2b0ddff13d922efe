// float16 loops of the op table: inputs widened to float, the float functor applied, float results
// rounded back to float16, as NumPy's float16 loops compute. Host and device.
#pragma once

#include <type_traits>

#include "gpupy/float16.h"
#include "math.h"
#include "numpy_extras.h"

namespace gpupy::fn {

/// F applied to float16 inputs through float. Invocable exactly when F has a float loop, so an
/// op without one (bitwise ops) still reports that it has no loop for float16.
template <class F>
struct ViaFloat {
  template <class... A>
  requires(std::is_invocable_v<F, widen_t<A>...>) GPUPY_HD auto operator()(A... x) const {
    auto r = F{}(static_cast<widen_t<A>>(x)...);
    if constexpr (std::is_same_v<decltype(r), float>)
      return float16(r);
    else
      return r;
  }
};

namespace half_steps {

GPUPY_HD bool isnan(float16 a) { return (a.bits & 0x7fffu) > 0x7c00u; }

/// The float16 next to `a` in the direction of `b` (NumPy returns `a` when they are equal).
GPUPY_HD float16 next_toward(float16 a, float16 b) {
  if (isnan(a) || isnan(b)) return float16::from_bits(0x7e00u);
  const float x = static_cast<float>(a), y = static_cast<float>(b);
  if (x == y) return a;
  if (x == 0) return float16::from_bits(uint16_t((b.bits & 0x8000u) | 1u));
  // Away from zero is one more in the magnitude bits, towards zero one less.
  const bool away = (y > x) == (x > 0);
  return float16::from_bits(uint16_t(away ? a.bits + 1 : a.bits - 1));
}

}  // namespace half_steps

// nextafter and spacing step by one float16, which a float computation cannot see.
template <>
struct ViaFloat<Nextafter> {
  GPUPY_HD float16 operator()(float16 a, float16 b) const { return half_steps::next_toward(a, b); }
};
// NumPy's float16 spacing is the step towards +inf for either sign (positive, and for -2^k the
// smaller step), unlike its float32 and float64 spacing, which step away from zero.
template <>
struct ViaFloat<Spacing> {
  GPUPY_HD float16 operator()(float16 a) const {
    if ((a.bits & 0x7fffu) >= 0x7c00u) return float16::from_bits(0x7e00u);  // inf, NaN -> NaN
    const float16 next = half_steps::next_toward(a, float16::from_bits(0x7c00u));
    return float16(static_cast<float>(next) - static_cast<float>(a));  // exact: a power of two
  }
};

/// The functor a loop over elements of type T runs.
template <class F, class T>
using loop_functor_t = std::conditional_t<is_float16_v<T>, ViaFloat<F>, F>;

}  // namespace gpupy::fn
