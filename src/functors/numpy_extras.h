// Functors for NumPy's ufuncs beyond the Array API: fmod, gcd/lcm, heaviside, logaddexp2, fabs,
// deg2rad/rad2deg, spacing, bitwise_count and float_power. Host and device.
#pragma once

#include <type_traits>

#include "scalar_math.h"
#include "traits.h"

namespace gpupy::fn {

namespace detail {
/// |a| as the unsigned type of the same width, exact also for the most negative value.
template <class T>
GPUPY_HD std::make_unsigned_t<T> unsigned_magnitude(T a) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) return a < 0 ? U(U(0) - U(a)) : U(a);
  return U(a);
}
template <class U>
GPUPY_HD U euclid_gcd(U a, U b) {
  while (b != 0) {
    U r = U(a % b);
    a = b;
    b = r;
  }
  return a;
}
inline constexpr double kPi = 3.141592653589793238462643383279502884;
inline constexpr double kLog2E = 1.442695040888963407359924681001892137;
}  // namespace detail

/// C's fmod: the remainder takes the dividend's sign; integer division by zero gives 0 as NumPy's.
struct FMod {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    if (b == 0) return 0;
    if constexpr (SignedInteger<T>) {
      if (b == T(-1)) return 0;  // avoids the trap of MIN % -1
    }
    return T(a % b);
  }
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::fmod(a, b);
  }
};

/// Greatest common divisor of the magnitudes (never negative), as numpy.gcd.
struct Gcd {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(detail::euclid_gcd(detail::unsigned_magnitude(a), detail::unsigned_magnitude(b)));
  }
};

/// Least common multiple of the magnitudes; 0 when either is 0, as numpy.lcm.
struct Lcm {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    auto ua = detail::unsigned_magnitude(a), ub = detail::unsigned_magnitude(b);
    auto g = detail::euclid_gcd(ua, ub);
    return g == 0 ? T(0) : T(ua / g * ub);
  }
};

/// 0 below zero, `h` at zero (either sign), 1 above; NaN stays NaN.
struct Heaviside {
  template <Floating T>
  GPUPY_HD T operator()(T x, T h) const {
    if (gmath::isnan(x)) return x;
    if (x < 0) return T(0);
    return x == 0 ? h : T(1);
  }
};

/// log2(2^a + 2^b) without overflow, the base-2 twin of LogAddExp.
struct LogAddExp2 {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    if (a == b) return a + T(1);  // also handles equal infinities
    T d = a - b;
    if (d > 0) return a + gmath::log1p(gmath::exp2(-d)) * T(detail::kLog2E);
    if (d <= 0) return b + gmath::log1p(gmath::exp2(d)) * T(detail::kLog2E);
    return d;  // NaN
  }
};

struct FAbs {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::fabs(a);
  }
};

// The conversion factors are formed in the input's precision, as NumPy's loops form them, so
// float32 results match NumPy's bit for bit.
struct Deg2Rad {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return a * (T(detail::kPi) / T(180));
  }
};
struct Rad2Deg {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return a * (T(180) / T(detail::kPi));
  }
};

/// Distance to the next representable value away from zero (positive for ±0, NaN for ±inf).
struct Spacing {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    if (gmath::isinf(a)) return a - a;  // NaN
    if (a == 0) return gmath::nextafter(T(0), T(1));
    return gmath::nextafter(a, gmath::copysign(T(1) / T(0), a)) - a;
  }
};

/// Number of 1 bits in |a|, as uint8 (numpy.bitwise_count).
struct BitwiseCount {
  template <IntegerOrBool T>
  GPUPY_HD uint8_t operator()(T a) const {
    if constexpr (Bool<T>) {
      return a ? 1 : 0;
    } else {
      auto bits = detail::unsigned_magnitude(a);
      uint8_t count = 0;
      for (; bits != 0; bits &= decltype(bits)(bits - 1)) ++count;
      return count;
    }
  }
};

/// Power computed in double (complex128 for complex input), as numpy.float_power.
struct FloatPower {
  template <Floating T>
  GPUPY_HD double operator()(T a, T b) const {
    return gmath::pow(double(a), double(b));
  }
  template <Complex T>
  GPUPY_HD complex<double> operator()(T a, T b) const {
    complex<double> x(double(a.re), double(a.im)), y(double(b.re), double(b.im));
    return gmath::pow(x, y);
  }
};

}  // namespace gpupy::fn
