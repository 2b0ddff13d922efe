// Exponential, logarithmic, trigonometric, rounding and classification functors. Host and device.
// Inputs reach the transcendental functors already promoted to a float or complex dtype.
#pragma once

#include "scalar_math.h"
#include "traits.h"

namespace gpupy::fn {

// Unary functions defined for float and complex with the same gmath name.
#define GPUPY_INEXACT_FUNCTOR(Name, fun) \
  struct Name {                          \
    template <Inexact T>                 \
    GPUPY_HD T operator()(T a) const {   \
      return gmath::fun(a);              \
    }                                    \
  };

GPUPY_INEXACT_FUNCTOR(Exp, exp)
GPUPY_INEXACT_FUNCTOR(Log, log)
GPUPY_INEXACT_FUNCTOR(Log10, log10)
GPUPY_INEXACT_FUNCTOR(Sqrt, sqrt)
GPUPY_INEXACT_FUNCTOR(Sin, sin)
GPUPY_INEXACT_FUNCTOR(Cos, cos)
GPUPY_INEXACT_FUNCTOR(Tan, tan)
GPUPY_INEXACT_FUNCTOR(Arcsin, asin)
GPUPY_INEXACT_FUNCTOR(Arccos, acos)
GPUPY_INEXACT_FUNCTOR(Arctan, atan)
GPUPY_INEXACT_FUNCTOR(Sinh, sinh)
GPUPY_INEXACT_FUNCTOR(Cosh, cosh)
GPUPY_INEXACT_FUNCTOR(Tanh, tanh)
GPUPY_INEXACT_FUNCTOR(Arcsinh, asinh)
GPUPY_INEXACT_FUNCTOR(Arccosh, acosh)
GPUPY_INEXACT_FUNCTOR(Arctanh, atanh)
#undef GPUPY_INEXACT_FUNCTOR

struct Exp2 {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::exp2(a);
  }
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    using R = real_t<T>;
    const R ln2 = R(0.693147180559945309417232121458176568);
    return gmath::exp(T(a.re * ln2, a.im * ln2));
  }
};
struct Expm1 {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::expm1(a);
  }
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    // expm1(x + iy) = (expm1(x) cos y - 2 sin^2(y/2)) + i exp(x) sin y, accurate near 0.
    using R = real_t<T>;
    R s = gmath::sin(a.im / R(2));
    return T(gmath::expm1(a.re) * gmath::cos(a.im) - R(2) * s * s,
             gmath::exp(a.re) * gmath::sin(a.im));
  }
};
struct Log2 {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::log2(a);
  }
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    using R = real_t<T>;
    const R inv_ln2 = R(1.44269504088896340735992468100189214);
    T l = gmath::log(a);
    return T(l.re * inv_ln2, l.im * inv_ln2);
  }
};
struct Log1p {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::log1p(a);
  }
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    using R = real_t<T>;
    R x = a.re, y = a.im;
    // Near zero, 0.5*log1p(2x + x^2 + y^2) keeps accuracy; elsewhere that sum overflows for
    // |z| above sqrt(max), so take log|1+z| through hypot.
    R re = gmath::fabs(x) < R(0.5) && gmath::fabs(y) < R(0.5)
               ? R(0.5) * gmath::log1p(x * (R(2) + x) + y * y)
               : gmath::log(gmath::hypot(R(1) + x, y));
    return T(re, gmath::atan2(y, R(1) + x));
  }
};
struct Cbrt {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::cbrt(a);
  }
};
struct LogAddExp {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    if (a == b) return a + T(0.693147180559945309417232121458176568);  // also handles +-inf
    T d = a - b;
    if (d > 0) return a + gmath::log1p(gmath::exp(-d));
    if (d <= 0) return b + gmath::log1p(gmath::exp(d));
    return d;  // NaN
  }
};
struct Arctan2 {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::atan2(a, b);
  }
};
struct Hypot {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::hypot(a, b);
  }
};
struct Copysign {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::copysign(a, b);
  }
};
struct Nextafter {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::nextafter(a, b);
  }
};
// frexp has two outputs and a table row has one, so each output is a row of its own.
struct FrexpMantissa {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    int e;
    return gmath::frexp(a, &e);
  }
};
struct FrexpExponent {
  template <Floating T>
  GPUPY_HD int32_t operator()(T a) const {
    int e;
    gmath::frexp(a, &e);
    return e;
  }
};
// The exponent arrives as an integer-valued float of x's dtype (rule ldexp). Past +-4000 every
// finite non-zero float64 over- or underflows: clamping there changes no result and keeps the
// conversion to int defined.
struct Ldexp {
  template <Floating T>
  GPUPY_HD T operator()(T a, T e) const {
    const T limit = T(4000);
    T clamped = e > limit ? limit : (e < -limit ? -limit : e);
    return gmath::ldexp(a, static_cast<int>(clamped));
  }
};

// Rounding: integers and bool pass through unchanged, as in NumPy 2.
#define GPUPY_ROUNDING_FUNCTOR(Name, fun) \
  struct Name {                           \
    template <IntegerOrBool T>            \
    GPUPY_HD T operator()(T a) const {    \
      return a;                           \
    }                                     \
    template <Floating T>                 \
    GPUPY_HD T operator()(T a) const {    \
      return gmath::fun(a);               \
    }                                     \
  };
GPUPY_ROUNDING_FUNCTOR(Floor, floor)
GPUPY_ROUNDING_FUNCTOR(Ceil, ceil)
GPUPY_ROUNDING_FUNCTOR(Trunc, trunc)
#undef GPUPY_ROUNDING_FUNCTOR

// Integers reach rint as floats (table rule promote_float); complex rounds both parts.
struct Rint {
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::rint(a);
  }
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    return T(gmath::rint(a.re), gmath::rint(a.im));
  }
};

struct IsNan {
  template <class T>
  GPUPY_HD bool operator()(T a) const {
    if constexpr (Complex<T>)
      return gmath::isnan(a.re) || gmath::isnan(a.im);
    else if constexpr (Floating<T>)
      return gmath::isnan(a);
    else
      return false;
  }
};
struct IsInf {
  template <class T>
  GPUPY_HD bool operator()(T a) const {
    if constexpr (Complex<T>)
      return gmath::isinf(a.re) || gmath::isinf(a.im);
    else if constexpr (Floating<T>)
      return gmath::isinf(a);
    else
      return false;
  }
};
struct IsFinite {
  template <class T>
  GPUPY_HD bool operator()(T a) const {
    if constexpr (Complex<T>)
      return gmath::isfinite(a.re) && gmath::isfinite(a.im);
    else if constexpr (Floating<T>)
      return gmath::isfinite(a);
    else
      return true;
  }
};
struct Signbit {
  template <Bool T>
  GPUPY_HD bool operator()(T) const {
    return false;
  }
  template <Integer T>
  GPUPY_HD bool operator()(T a) const {
    return is_negative(a);
  }
  template <Floating T>
  GPUPY_HD bool operator()(T a) const {
    return gmath::signbit(a);
  }
};

struct Conjugate {
  template <class T>
  GPUPY_HD T operator()(T a) const {
    if constexpr (Complex<T>)
      return T(a.re, -a.im);
    else
      return a;
  }
};
struct Real {
  template <class T>
  GPUPY_HD real_t<T> operator()(T a) const {
    if constexpr (Complex<T>)
      return a.re;
    else
      return a;
  }
};
struct Imag {
  template <class T>
  GPUPY_HD real_t<T> operator()(T a) const {
    if constexpr (Complex<T>)
      return a.im;
    else
      return real_t<T>(0);
  }
};

}  // namespace gpupy::fn
