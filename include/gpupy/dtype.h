// Data types and NumPy 2 type promotion (NEP 50). Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpupy {

/// The 13 Array API dtypes and NumPy's float16. The order is part of the ABI of the promotion
/// table; float16 came last, so the codes of the others did not change.
enum class DType : uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  complex64,
  complex128,
  float16,
};
inline constexpr int kNumDTypes = 14;

/// Broad category of a dtype, as NumPy's `dtype.kind` ('b', 'i', 'u', 'f', 'c').
enum class DTypeKind : uint8_t { boolean, signed_int, unsigned_int, floating, complex };

/// How permissive a cast may be; NumPy's `casting=` argument.
enum class Casting : uint8_t { no, equiv, safe, same_kind, unsafe };

/// Size in bytes of one element.
size_t itemsize(DType dt);
/// NumPy's name ("float32", "bool", ...).
std::string_view dtype_name(DType dt);
/// NumPy's array-interface type string ("<f4", "|b1", ...).
std::string_view dtype_typestr(DType dt);
/// Parses a NumPy name or type string; throws TypeError for unknown names.
DType dtype_from_name(std::string_view name);
DTypeKind dtype_kind(DType dt);
inline bool is_bool(DType dt) { return dt == DType::bool_; }
inline bool is_integer(DType dt) {
  auto k = dtype_kind(dt);
  return k == DTypeKind::signed_int || k == DTypeKind::unsigned_int;
}
inline bool is_floating(DType dt) { return dtype_kind(dt) == DTypeKind::floating; }
inline bool is_complex(DType dt) { return dtype_kind(dt) == DTypeKind::complex; }
inline bool is_inexact(DType dt) { return is_floating(dt) || is_complex(dt); }
/// Order of the kinds in promotion and in casting Python scalars: bool 0 < integer 1 < float 2 <
/// complex 3 (signed and unsigned integers share a rank).
inline int kind_rank(DType dt) {
  return is_complex(dt) ? 3 : is_floating(dt) ? 2 : is_bool(dt) ? 0 : 1;
}

/// NumPy 2 `promote_types` for two array dtypes; throws TypeError where NumPy does (never for these
/// 14).
DType promote_types(DType a, DType b);
/// NumPy 2 `can_cast(from, to, casting)`.
bool can_cast(DType from, DType to, Casting casting = Casting::safe);
/// Real counterpart of a complex dtype (complex64 -> float32); identity otherwise.
DType real_dtype(DType dt);
/// Complex counterpart of a float dtype (float32 -> complex64).
DType complex_dtype(DType dt);
/// Default float dtype that integers and bools become in math functions, as NumPy's loop order
/// gives: bool and 8-bit integers -> float16, 16-bit -> float32, wider -> float64.
DType float_dtype_for(DType dt);

/// The dtype reductions, scans, sorts, searches and matmul compute `dt` in: float32 for float16
/// (NumPy's float16 loops accumulate in float), `dt` itself otherwise.
inline DType kernel_dtype(DType dt) { return dt == DType::float16 ? DType::float32 : dt; }

/// Limits of an integer dtype (`iinfo`).
struct IntInfo {
  int bits;
  int64_t min;
  uint64_t max;
};
IntInfo iinfo(DType dt);

/// Limits of a float dtype (`finfo`); complex dtypes report their real part.
struct FloatInfo {
  int bits;
  double eps, max, min, smallest_normal, smallest_subnormal, resolution;
  int precision;
};
FloatInfo finfo(DType dt);

}  // namespace gpupy
