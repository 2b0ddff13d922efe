// Scalar storage and conversion. Host only.
#include "gpupy/scalar.h"

#include <cmath>

#include "../functors/cast.h"
#include "dispatch.h"

namespace gpupy {

Scalar Scalar::from_memory(DType dt, const void* src) {
  return dispatch_dtype(dt, [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    T v = *static_cast<const T*>(src);
    Scalar s;
    if constexpr (std::is_same_v<T, bool>)
      s = Scalar(v);
    else if constexpr (is_complex_v<T>)
      s = Scalar(complex128(v.re, v.im));
    else if constexpr (std::is_floating_point_v<T> || is_float16_v<T>)
      s = Scalar(static_cast<double>(v));
    else if constexpr (std::is_unsigned_v<T>)
      s = Scalar(static_cast<uint64_t>(v));
    else
      s = Scalar(static_cast<int64_t>(v));
    s.dtype_ = dt;
    return s;
  });
}

void Scalar::store(DType dt, void* dst) const {
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = static_cast<T*>(dst);
    switch (dtype_kind(dtype_)) {
      case DTypeKind::boolean:
      case DTypeKind::signed_int:
        *out = cast_value<T>(v_.i);
        break;
      case DTypeKind::unsigned_int:
        *out = cast_value<T>(v_.u);
        break;
      case DTypeKind::floating:
        *out = cast_value<T>(v_.f);
        break;
      case DTypeKind::complex:
        *out = cast_value<T>(v_.c);
        break;
    }
  });
}

Scalar Scalar::cast(DType dt) const {
  alignas(16) unsigned char bytes[16];
  store(dt, bytes);
  return from_memory(dt, bytes);
}

bool Scalar::fits_integer(DType dt) const {
  IntInfo lim = iinfo(dt);
  switch (dtype_kind(dtype_)) {
    case DTypeKind::boolean:
      return true;
    case DTypeKind::signed_int:
      return v_.i >= lim.min && (v_.i < 0 || static_cast<uint64_t>(v_.i) <= lim.max);
    case DTypeKind::unsigned_int:
      return v_.u <= lim.max;
    default:
      return false;
  }
}

bool Scalar::to_bool() const {
  bool b;
  store(DType::bool_, &b);
  return b;
}
int64_t Scalar::to_int64() const {
  int64_t v;
  store(DType::int64, &v);
  return v;
}
double Scalar::to_double() const {
  double v;
  store(DType::float64, &v);
  return v;
}
complex128 Scalar::to_complex() const {
  complex128 v;
  store(DType::complex128, &v);
  return v;
}

}  // namespace gpupy
