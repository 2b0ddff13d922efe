// A single typed value, and the "weak" Python scalars of NEP 50. Host only.
#pragma once

#include <cstdint>

#include "gpupy/complex.h"
#include "gpupy/dtype.h"

namespace gpupy {

/// One value with a dtype. A weak scalar (a Python bool/int/float/complex) takes the dtype of the
/// array it meets, as NumPy 2 does; its `dtype` is then only the kind of Python value it was.
class Scalar {
 public:
  Scalar() : Scalar(false) {}
  explicit Scalar(bool v, bool weak = false) : dtype_(DType::bool_), weak_(weak) { v_.i = v; }
  explicit Scalar(int64_t v, bool weak = false) : dtype_(DType::int64), weak_(weak) { v_.i = v; }
  explicit Scalar(uint64_t v, bool weak = false) : dtype_(DType::uint64), weak_(weak) { v_.u = v; }
  explicit Scalar(double v, bool weak = false) : dtype_(DType::float64), weak_(weak) { v_.f = v; }
  explicit Scalar(complex128 v, bool weak = false) : dtype_(DType::complex128), weak_(weak) {
    v_.c = v;
  }
  /// Reads one element of type `dt` from host memory.
  static Scalar from_memory(DType dt, const void* src);

  DType dtype() const { return dtype_; }
  bool weak() const { return weak_; }

  /// The value converted to `dt` (C++ conversion rules, wrapping for integers) and stored at `dst`.
  void store(DType dt, void* dst) const;
  /// The same value, now strongly typed as `dt`.
  Scalar cast(DType dt) const;
  /// True if the value is exactly representable in the integer dtype `dt`.
  bool fits_integer(DType dt) const;

  bool to_bool() const;
  int64_t to_int64() const;
  double to_double() const;
  complex128 to_complex() const;

 private:
  union Value {
    int64_t i;
    uint64_t u;
    double f;
    complex128 c;
    Value() : c() {}
  };
  DType dtype_;
  bool weak_;
  Value v_;
  // Values of narrower dtypes are kept widened: bool/signed in i, unsigned in u, floats in f.
};

}  // namespace gpupy
