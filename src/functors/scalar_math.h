// Real and complex math primitives with one spelling for host and device code. Host and device.
// Host compilers use <cmath>/<complex> (what NumPy's loops call on Linux); nvcc uses CUDA's
// math library and libcu++'s complex functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "gpupy/complex.h"
#if defined(__CUDACC__)
#include <cuda/std/complex>
#else
#include <complex>
#endif

namespace gpupy::gmath {

#if defined(__CUDACC__)
template <class T>
using std_complex = ::cuda::std::complex<T>;
namespace cstd = ::cuda::std;
#else
template <class T>
using std_complex = ::std::complex<T>;
namespace cstd = ::std;
#endif

template <class T>
GPUPY_HD std_complex<T> to_std(complex<T> z) {
  return std_complex<T>(z.re, z.im);
}
template <class T>
GPUPY_HD complex<T> from_std(std_complex<T> z) {
  return complex<T>(z.real(), z.imag());
}

// Real functions: float and double overloads pick the single- or double-precision routine.
#define GPUPY_REAL_MATH_1(name)                         \
  GPUPY_HD float name(float x) { return ::name##f(x); } \
  GPUPY_HD double name(double x) { return ::name(x); }
#define GPUPY_REAL_MATH_2(name)                                     \
  GPUPY_HD float name(float x, float y) { return ::name##f(x, y); } \
  GPUPY_HD double name(double x, double y) { return ::name(x, y); }

GPUPY_REAL_MATH_1(exp)
GPUPY_REAL_MATH_1(exp2)
GPUPY_REAL_MATH_1(expm1)
GPUPY_REAL_MATH_1(log)
GPUPY_REAL_MATH_1(log2)
GPUPY_REAL_MATH_1(log10)
GPUPY_REAL_MATH_1(log1p)
GPUPY_REAL_MATH_1(sqrt)
GPUPY_REAL_MATH_1(cbrt)
GPUPY_REAL_MATH_1(sin)
GPUPY_REAL_MATH_1(cos)
GPUPY_REAL_MATH_1(tan)
GPUPY_REAL_MATH_1(asin)
GPUPY_REAL_MATH_1(acos)
GPUPY_REAL_MATH_1(atan)
GPUPY_REAL_MATH_1(sinh)
GPUPY_REAL_MATH_1(cosh)
GPUPY_REAL_MATH_1(tanh)
GPUPY_REAL_MATH_1(asinh)
GPUPY_REAL_MATH_1(acosh)
GPUPY_REAL_MATH_1(atanh)
GPUPY_REAL_MATH_1(floor)
GPUPY_REAL_MATH_1(ceil)
GPUPY_REAL_MATH_1(trunc)
GPUPY_REAL_MATH_1(rint)
GPUPY_REAL_MATH_1(fabs)
GPUPY_REAL_MATH_2(atan2)
GPUPY_REAL_MATH_2(hypot)
GPUPY_REAL_MATH_2(pow)
GPUPY_REAL_MATH_2(fmod)
GPUPY_REAL_MATH_2(copysign)
GPUPY_REAL_MATH_2(nextafter)
#undef GPUPY_REAL_MATH_1
#undef GPUPY_REAL_MATH_2

template <class T>
GPUPY_HD bool isnan(T x) {
  return x != x;
}
template <class T>
GPUPY_HD bool isinf(T x) {
  return x - x != x - x && x == x;
}
template <class T>
GPUPY_HD bool isfinite(T x) {
  return x - x == x - x;
}

template <class To, class From>
GPUPY_HD To bit_cast(From from) {
  To to;
  memcpy(&to, &from, sizeof(To));
  return to;
}

/// The IEEE 754 binary32 and binary64 layouts.
template <class T>
struct FloatBits;
template <>
struct FloatBits<float> {
  using U = uint32_t;
  static constexpr int digits = 24, bias = 127;
};
template <>
struct FloatBits<double> {
  using U = uint64_t;
  static constexpr int digits = 53, bias = 1023;
};

/// 2^k for k in the normal exponent range of T.
template <class T>
GPUPY_HD T pow2(int k) {
  using B = FloatBits<T>;
  return bit_cast<T>(typename B::U(k + B::bias) << (B::digits - 1));
}

// frexp and ldexp on the bits and by exact scaling: exact on every device, and vectorisable where
// a libm call per element is not. frexp gives ±0, ±inf and NaN back with exponent 0, as NumPy.
template <class T>
GPUPY_HD T frexp(T x, int* e) {
  using B = FloatBits<T>;
  using U = typename B::U;
  constexpr int mant = B::digits - 1;
  constexpr U exp_mask = U(2 * B::bias + 1);
  *e = 0;
  if (x == T(0) || !isfinite(x)) return x;
  int scale = 0;
  if (((bit_cast<U>(x) >> mant) & exp_mask) == 0) {  // subnormal: scale into the normal range
    x *= pow2<T>(B::digits);
    scale = B::digits;
  }
  U bits = bit_cast<U>(x);
  *e = static_cast<int>((bits >> mant) & exp_mask) - (B::bias - 1) - scale;
  return bit_cast<T>((bits & ~(exp_mask << mant)) | (U(B::bias - 1) << mant));
}

template <class T>
GPUPY_HD T ldexp(T x, int n) {
  using B = FloatBits<T>;
  constexpr int max_exp = B::bias, min_exp = 1 - B::bias;
  if (n > max_exp) {
    x *= pow2<T>(max_exp);
    n -= max_exp;
    if (n > max_exp) {
      x *= pow2<T>(max_exp);
      n -= max_exp;
      if (n > max_exp) n = max_exp;
    }
  } else if (n < min_exp) {
    // Steps of 2^(min_exp + digits) keep `digits` bits of headroom, so a subnormal result is
    // rounded once, by the last multiplication, never twice.
    constexpr int step = min_exp + B::digits;
    x *= pow2<T>(step);
    n -= step;
    if (n < min_exp) {
      x *= pow2<T>(step);
      n -= step;
      if (n < min_exp) n = min_exp;
    }
  }
  return x * pow2<T>(n);
}
#if defined(__CUDACC__)
GPUPY_HD bool signbit(float x) { return ::signbit(x); }
GPUPY_HD bool signbit(double x) { return ::signbit(x); }
#else
inline bool signbit(float x) { return std::signbit(x); }
inline bool signbit(double x) { return std::signbit(x); }
#endif

// Complex functions through the platform's complex library.
#define GPUPY_COMPLEX_MATH_1(name, impl)    \
  template <class T>                        \
  GPUPY_HD complex<T> name(complex<T> z) {  \
    return from_std(cstd::impl(to_std(z))); \
  }
GPUPY_COMPLEX_MATH_1(exp, exp)
GPUPY_COMPLEX_MATH_1(log, log)
GPUPY_COMPLEX_MATH_1(log10, log10)
GPUPY_COMPLEX_MATH_1(sqrt, sqrt)
GPUPY_COMPLEX_MATH_1(sin, sin)
GPUPY_COMPLEX_MATH_1(cos, cos)
GPUPY_COMPLEX_MATH_1(tan, tan)
GPUPY_COMPLEX_MATH_1(asin, asin)
GPUPY_COMPLEX_MATH_1(acos, acos)
GPUPY_COMPLEX_MATH_1(atan, atan)
GPUPY_COMPLEX_MATH_1(sinh, sinh)
GPUPY_COMPLEX_MATH_1(cosh, cosh)
GPUPY_COMPLEX_MATH_1(tanh, tanh)
GPUPY_COMPLEX_MATH_1(asinh, asinh)
GPUPY_COMPLEX_MATH_1(acosh, acosh)
GPUPY_COMPLEX_MATH_1(atanh, atanh)
#undef GPUPY_COMPLEX_MATH_1

/// 1 / z with Smith's scaling, in the order NumPy's complex power uses (a multiply by the
/// reciprocal of the denominator), so that z**-n matches NumPy bit for bit.
template <class T>
GPUPY_HD complex<T> reciprocal(complex<T> z) {
  if (fabs(z.re) >= fabs(z.im)) {
    if (z.re == 0 && z.im == 0) return complex<T>(T(1) / fabs(z.re), T(0) / fabs(z.im));
    T ratio = z.im / z.re, scale = T(1) / (z.re + z.im * ratio);
    return complex<T>(scale, -ratio * scale);
  }
  T ratio = z.re / z.im, scale = T(1) / (z.im + z.re * ratio);
  return complex<T>(ratio * scale, -scale);
}

/// Complex power with NumPy's rules. z**0 is 1 and 0**b is 0 when real(b) > 0, else nan. Integral
/// real exponents below 100 in magnitude multiply by squaring, as NumPy does: z**2 is z*z
/// exactly and z**-1 has no rounding residue in its imaginary part, which exp(b log a) leaves.
template <class T>
GPUPY_HD complex<T> pow(complex<T> a, complex<T> b) {
  if (b.re == 0 && b.im == 0) return complex<T>(T(1), T(0));
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) return complex<T>(T(0), T(0));
    return complex<T>(T(NAN), T(NAN));
  }
  if (b.im == 0 && b.re > T(-100) && b.re < T(100) && b.re == trunc(b.re)) {
    int n = int(b.re);
    if (n == 1) return a;
    if (n == 2) return a * a;
    if (n == 3) return a * (a * a);
    int magnitude = n < 0 ? -n : n;
    complex<T> result(T(1), T(0)), square = a;
    for (int mask = 1;; mask <<= 1) {
      if (magnitude & mask) result = result * square;
      if (magnitude < (mask << 1)) break;
      square = square * square;
    }
    return n < 0 ? reciprocal(result) : result;
  }
  return from_std(cstd::pow(to_std(a), to_std(b)));
}
template <class T>
GPUPY_HD T abs(complex<T> z) {
  return hypot(z.re, z.im);
}
/// Complex division with Smith's scaling, which avoids overflow for large components.
template <class T>
GPUPY_HD complex<T> divide(complex<T> a, complex<T> b) {
  // fabs, not a sign test: |-0.0| must be +0.0 so that x / (-0+0j) is +inf as in NumPy.
  T abs_re = fabs(b.re), abs_im = fabs(b.im);
  if (abs_re >= abs_im) {
    if (abs_re == 0 && abs_im == 0) return complex<T>(a.re / abs_re, a.im / abs_im);
    T ratio = b.im / b.re, denom = b.re + b.im * ratio;
    return complex<T>((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom);
  }
  T ratio = b.re / b.im, denom = b.re * ratio + b.im;
  return complex<T>((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom);
}

}  // namespace gpupy::gmath
