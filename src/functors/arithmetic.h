// Arithmetic functors of the elementwise op table, NumPy semantics. Host and device.
#pragma once

#include "scalar_math.h"
#include "traits.h"

namespace gpupy::fn {

struct Add {
  GPUPY_HD bool operator()(bool a, bool b) const { return a || b; }
  template <Numeric T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(a + b);
  }
};

struct Subtract {
  template <Numeric T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(a - b);
  }
};

struct Multiply {
  GPUPY_HD bool operator()(bool a, bool b) const { return a && b; }
  template <Numeric T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(a * b);
  }
};

struct Divide {
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return a / b;
  }
  template <Complex T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::divide(a, b);
  }
};

/// Python's floor division; integer division by zero gives 0 as NumPy's does.
struct FloorDivide {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    if (b == 0) return 0;
    if constexpr (SignedInteger<T>) {
      if (b == T(-1)) return T(-a);  // avoids the trap of MIN / -1; wraps like NumPy
      T q = T(a / b);
      return (a % b != 0 && ((a < 0) != (b < 0))) ? T(q - 1) : q;
    } else {
      return T(a / b);
    }
  }
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    if (b == 0) return a / b;
    T mod = gmath::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
    if (div == 0) return gmath::copysign(T(0), a / b);
    T floordiv = gmath::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
    return floordiv;
  }
};

/// Python's modulo: the result has the sign of the divisor.
struct Remainder {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    if (b == 0) return 0;
    if constexpr (SignedInteger<T>) {
      if (b == T(-1)) return 0;
      T r = T(a % b);
      return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
    } else {
      return T(a % b);
    }
  }
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    if (b == 0) return gmath::fmod(a, b);
    T mod = gmath::fmod(a, b);
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) mod += b;
    } else {
      mod = gmath::copysign(T(0), b);
    }
    return mod;
  }
};

/// Integer powers by squaring (negative exponents are rejected by the front end).
struct Power {
  template <Integer T>
  GPUPY_HD T operator()(T base, T exponent) const {
    T result = 1;
    if constexpr (SignedInteger<T>) {
      if (exponent < 0) return 0;
    }
    while (exponent != 0) {
      if (exponent & 1) result = T(result * base);
      base = T(base * base);
      exponent = T(exponent >> 1);
    }
    return result;
  }
  template <Floating T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::pow(a, b);
  }
  template <Complex T>
  GPUPY_HD T operator()(T a, T b) const {
    return gmath::pow(a, b);
  }
};

struct Negative {
  template <Numeric T>
  GPUPY_HD T operator()(T a) const {
    return T(-a);
  }
};

struct Positive {
  template <Numeric T>
  GPUPY_HD T operator()(T a) const {
    return a;
  }
};

struct Absolute {
  GPUPY_HD bool operator()(bool a) const { return a; }
  template <SignedInteger T>
  GPUPY_HD T operator()(T a) const {
    return a < 0 ? T(-a) : a;
  }
  template <UnsignedInteger T>
  GPUPY_HD T operator()(T a) const {
    return a;
  }
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return gmath::fabs(a);
  }
  template <Complex T>
  GPUPY_HD real_t<T> operator()(T a) const {
    return gmath::abs(a);
  }
};

// Bool inputs compute as int8 (the table's promote_bool_as_int8 rule), as in NumPy.
struct Square {
  template <Numeric T>
  GPUPY_HD T operator()(T a) const {
    return T(a * a);
  }
};

/// 1/x; for integers this is integer division, so only 1 and -1 give non-zero results.
struct Reciprocal {
  template <Integer T>
  GPUPY_HD T operator()(T a) const {
    return a == 0 ? T(0) : T(T(1) / a);
  }
  template <Floating T>
  GPUPY_HD T operator()(T a) const {
    return T(1) / a;
  }
  // NumPy's complex reciprocal loop, a Smith division of 1 by a written out: its signs of zero
  // and its nan+nanj for 0 differ from those of 1 / a.
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    using R = real_t<T>;
    if (gmath::fabs(a.im) <= gmath::fabs(a.re)) {
      const R r = a.im / a.re, d = a.re + a.im * r;
      return T(R(1) / d, -r / d);
    }
    const R r = a.re / a.im, d = a.re * r + a.im;
    return T(r / d, R(-1) / d);
  }
};

/// -1, 0, +1 (NaN for NaN); for complex z/|z| as NumPy 2 defines it.
struct Sign {
  template <RealNumber T>
  GPUPY_HD T operator()(T a) const {
    if constexpr (Floating<T>) {
      // Quiet comparisons and selects only, so that the cpu loop vectorises. -0.0 gives +0.0.
      const T s = a == T(0) ? T(0) : gmath::copysign(T(1), a);
      return a != a ? a : s;
    } else {
      return T((a > T(0)) - is_negative(a));
    }
  }
  template <Complex T>
  GPUPY_HD T operator()(T a) const {
    using R = real_t<T>;
    if (gmath::isnan(a.re) || gmath::isnan(a.im)) {
      R nan = a.re + a.im;
      return T(nan, nan);
    }
    // One infinite part next to a finite one gives that axis' direction (NumPy), not inf/inf;
    // two infinite parts stay inf/inf = NaN, as in NumPy.
    if (gmath::isinf(a.re) != gmath::isinf(a.im)) {
      return gmath::isinf(a.re) ? T(gmath::copysign(R(1), a.re), R(0))
                                : T(R(0), gmath::copysign(R(1), a.im));
    }
    R mag = gmath::abs(a);
    if (mag == 0) return T(R(0), R(0));
    return T(a.re / mag, a.im / mag);
  }
};

}  // namespace gpupy::fn
