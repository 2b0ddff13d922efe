// Comparison, extremum, logical and bitwise functors. Host and device.
#pragma once

#include "scalar_math.h"
#include "traits.h"

namespace gpupy::fn {

/// NumPy orders complex numbers lexicographically (real part first).
template <class T>
GPUPY_HD bool lt(T a, T b) {
  if constexpr (Complex<T>)
    return a.re < b.re || (a.re == b.re && a.im < b.im);
  else
    return a < b;
}
template <class T>
GPUPY_HD bool has_nan(T a) {
  if constexpr (Complex<T>)
    return a.re != a.re || a.im != a.im;
  else if constexpr (Floating<T>)
    return a != a;
  else
    return false;
}

struct Equal {
  template <class T>
  GPUPY_HD bool operator()(T a, T b) const {
    return a == b;
  }
};
struct NotEqual {
  template <class T>
  GPUPY_HD bool operator()(T a, T b) const {
    return a != b;
  }
};
// Real compares are IEEE's (false with a NaN operand), written without branches so that
// contiguous loops vectorise; complex ones order lexicographically with the NaN checks.
struct Less {
  template <class T>
  GPUPY_HD bool operator()(T a, T b) const {
    if constexpr (Complex<T>)
      return !has_nan(a) && !has_nan(b) && lt(a, b);
    else
      return a < b;
  }
};
struct LessEqual {
  template <class T>
  GPUPY_HD bool operator()(T a, T b) const {
    if constexpr (Complex<T>)
      return !has_nan(a) && !has_nan(b) && !lt(b, a);
    else
      return a <= b;
  }
};
struct Greater {
  template <class T>
  GPUPY_HD bool operator()(T a, T b) const {
    if constexpr (Complex<T>)
      return !has_nan(a) && !has_nan(b) && lt(b, a);
    else
      return a > b;
  }
};
struct GreaterEqual {
  template <class T>
  GPUPY_HD bool operator()(T a, T b) const {
    if constexpr (Complex<T>)
      return !has_nan(a) && !has_nan(b) && !lt(a, b);
    else
      return a >= b;
  }
};

/// NaN-propagating maximum/minimum (NumPy's maximum, minimum).
struct Maximum {
  template <class T>
  GPUPY_HD T operator()(T a, T b) const {
    if (has_nan(a)) return a;
    if (has_nan(b)) return b;
    return lt(a, b) ? b : a;
  }
};
struct Minimum {
  template <class T>
  GPUPY_HD T operator()(T a, T b) const {
    if (has_nan(a)) return a;
    if (has_nan(b)) return b;
    return lt(b, a) ? b : a;
  }
};
/// NumPy's clip: minimum(maximum(x, lo), hi), so NaN anywhere propagates and hi wins over lo.
struct Clip {
  template <class T>
  GPUPY_HD T operator()(T x, T lo, T hi) const {
    if constexpr (Complex<T>) {
      return Minimum{}(Maximum{}(x, lo), hi);
    } else {
      // Minimum(Maximum(x, lo), hi) as selects whose NaN tests on the bounds are loop-invariant:
      // with scalar bounds the compiler unswitches them and the loop becomes maxpd/minpd.
      const T m = lo != lo ? (x == x ? lo : x) : (x < lo ? lo : x);
      return hi != hi ? (m == m ? hi : m) : (hi < m ? hi : m);
    }
  }
};
/// NaN-ignoring maximum/minimum (NumPy's fmax, fmin).
struct FMax {
  template <class T>
  GPUPY_HD T operator()(T a, T b) const {
    if (has_nan(b)) return a;
    if (has_nan(a)) return b;
    return lt(a, b) ? b : a;
  }
};
struct FMin {
  template <class T>
  GPUPY_HD T operator()(T a, T b) const {
    if (has_nan(b)) return a;
    if (has_nan(a)) return b;
    return lt(b, a) ? b : a;
  }
};

// Logical ops run on inputs already cast to bool (rule as_bool).
struct LogicalAnd {
  GPUPY_HD bool operator()(bool a, bool b) const { return a && b; }
};
struct LogicalOr {
  GPUPY_HD bool operator()(bool a, bool b) const { return a || b; }
};
struct LogicalXor {
  GPUPY_HD bool operator()(bool a, bool b) const { return a != b; }
};
struct LogicalNot {
  GPUPY_HD bool operator()(bool a) const { return !a; }
};

struct BitwiseAnd {
  template <IntegerOrBool T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(a & b);
  }
};
struct BitwiseOr {
  template <IntegerOrBool T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(a | b);
  }
};
struct BitwiseXor {
  template <IntegerOrBool T>
  GPUPY_HD T operator()(T a, T b) const {
    return T(a ^ b);
  }
};
struct Invert {
  // A template, so that floats do not reach the bool loop through an implicit conversion.
  template <Bool T>
  GPUPY_HD bool operator()(T a) const {
    return !a;
  }
  template <Integer T>
  GPUPY_HD T operator()(T a) const {
    return T(~a);
  }
};
/// Shifts by at least the bit width give 0 (or -1 for negative values shifted right), as NumPy.
struct LeftShift {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    if (is_negative(b) || b >= T(sizeof(T) * 8)) return 0;
    using U = std::make_unsigned_t<T>;
    return T(U(a) << b);
  }
};
struct RightShift {
  template <Integer T>
  GPUPY_HD T operator()(T a, T b) const {
    if (is_negative(b) || b >= T(sizeof(T) * 8)) return is_negative(a) ? T(-1) : T(0);
    return T(a >> b);
  }
};

}  // namespace gpupy::fn
