// dtype properties, NumPy 2 promotion and casting rules. Host only.
#include "gpupy/dtype.h"

#include <array>
#include <cfloat>
#include <cmath>
#include <limits>

#include "gpupy/error.h"

namespace gpupy {
namespace {

struct DTypeInfo {
  const char* name;
  const char* typestr;
  size_t itemsize;
  DTypeKind kind;
};

constexpr std::array<DTypeInfo, kNumDTypes> kInfo = {{
    {"bool", "|b1", 1, DTypeKind::boolean},
    {"int8", "|i1", 1, DTypeKind::signed_int},
    {"int16", "<i2", 2, DTypeKind::signed_int},
    {"int32", "<i4", 4, DTypeKind::signed_int},
    {"int64", "<i8", 8, DTypeKind::signed_int},
    {"uint8", "|u1", 1, DTypeKind::unsigned_int},
    {"uint16", "<u2", 2, DTypeKind::unsigned_int},
    {"uint32", "<u4", 4, DTypeKind::unsigned_int},
    {"uint64", "<u8", 8, DTypeKind::unsigned_int},
    {"float32", "<f4", 4, DTypeKind::floating},
    {"float64", "<f8", 8, DTypeKind::floating},
    {"complex64", "<c8", 8, DTypeKind::complex},
    {"complex128", "<c16", 16, DTypeKind::complex},
    {"float16", "<f2", 2, DTypeKind::floating},
}};

const DTypeInfo& info(DType dt) { return kInfo[static_cast<int>(dt)]; }

// Smallest-first order in which promotion looks for a common safe target.
constexpr std::array<DType, kNumDTypes> kPromotionOrder = {
    DType::bool_,   DType::int8,    DType::uint8,     DType::int16,     DType::uint16,
    DType::int32,   DType::uint32,  DType::int64,     DType::uint64,    DType::float16,
    DType::float32, DType::float64, DType::complex64, DType::complex128};

// Kind order used by same_kind casting: b < u < i < f < c.
int kind_rank(DTypeKind k) {
  switch (k) {
    case DTypeKind::boolean:
      return 0;
    case DTypeKind::unsigned_int:
      return 1;
    case DTypeKind::signed_int:
      return 2;
    case DTypeKind::floating:
      return 3;
    case DTypeKind::complex:
      return 4;
  }
  return 0;
}

// Whether a float type holds every value of an integer type, as NumPy counts it: the float needs
// twice the integer's size (int8 -> float16, int16 -> float32), and every integer casts safely
// to float64.
bool int_fits_float(DType from, DType to_real) {
  return to_real == DType::float64 || 2 * itemsize(from) <= itemsize(to_real);
}

bool safe_cast(DType from, DType to) {
  if (from == to) return true;
  DTypeKind fk = dtype_kind(from), tk = dtype_kind(to);
  size_t fs = itemsize(from), ts = itemsize(to);
  switch (fk) {
    case DTypeKind::boolean:
      return true;
    case DTypeKind::signed_int:
      if (tk == DTypeKind::signed_int) return ts >= fs;
      if (tk == DTypeKind::floating) return int_fits_float(from, to);
      if (tk == DTypeKind::complex) return int_fits_float(from, real_dtype(to));
      return false;
    case DTypeKind::unsigned_int:
      if (tk == DTypeKind::unsigned_int) return ts >= fs;
      if (tk == DTypeKind::signed_int) return ts > fs;
      if (tk == DTypeKind::floating) return int_fits_float(from, to);
      if (tk == DTypeKind::complex) return int_fits_float(from, real_dtype(to));
      return false;
    case DTypeKind::floating:
      if (tk == DTypeKind::floating) return ts >= fs;
      if (tk == DTypeKind::complex) return ts >= 2 * fs;
      return false;
    case DTypeKind::complex:
      return tk == DTypeKind::complex && ts >= fs;
  }
  return false;
}

}  // namespace

size_t itemsize(DType dt) { return info(dt).itemsize; }
std::string_view dtype_name(DType dt) { return info(dt).name; }
std::string_view dtype_typestr(DType dt) { return info(dt).typestr; }
DTypeKind dtype_kind(DType dt) { return info(dt).kind; }

DType dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DTypeInfo& d = kInfo[i];
    std::string_view ts = d.typestr;
    if (name == d.name || name == ts || name == ts.substr(1) ||
        (name.size() > 1 && (name[0] == '=' || name[0] == '<') && name.substr(1) == ts.substr(1)))
      return static_cast<DType>(i);
  }
  if (name == "bool_" || name == "?") return DType::bool_;
  throw TypeError("[dtype] data type '" + std::string(name) + "' is not supported by gpupy");
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  for (DType candidate : kPromotionOrder)
    if (safe_cast(a, candidate) && safe_cast(b, candidate)) return candidate;
  throw TypeError("[promote_types] no common dtype for " + std::string(dtype_name(a)) + " and " +
                  std::string(dtype_name(b)));
}

bool can_cast(DType from, DType to, Casting casting) {
  switch (casting) {
    case Casting::no:
    case Casting::equiv:
      return from == to;
    case Casting::safe:
      return safe_cast(from, to);
    case Casting::same_kind:
      return safe_cast(from, to) || kind_rank(dtype_kind(to)) >= kind_rank(dtype_kind(from));
    case Casting::unsafe:
      return true;
  }
  return false;
}

DType real_dtype(DType dt) {
  if (dt == DType::complex64) return DType::float32;
  if (dt == DType::complex128) return DType::float64;
  return dt;
}

DType complex_dtype(DType dt) {
  if (dt == DType::float16 || dt == DType::float32 || dt == DType::complex64)
    return DType::complex64;
  return DType::complex128;
}

DType float_dtype_for(DType dt) {
  if (is_inexact(dt)) return dt;
  if (itemsize(dt) == 1) return DType::float16;
  return itemsize(dt) == 2 ? DType::float32 : DType::float64;
}

IntInfo iinfo(DType dt) {
  switch (dt) {
    case DType::int8:
      return {8, INT8_MIN, INT8_MAX};
    case DType::int16:
      return {16, INT16_MIN, INT16_MAX};
    case DType::int32:
      return {32, INT32_MIN, INT32_MAX};
    case DType::int64:
      return {64, INT64_MIN, INT64_MAX};
    case DType::uint8:
      return {8, 0, UINT8_MAX};
    case DType::uint16:
      return {16, 0, UINT16_MAX};
    case DType::uint32:
      return {32, 0, UINT32_MAX};
    case DType::uint64:
      return {64, 0, UINT64_MAX};
    default:
      throw ValueError("[iinfo] invalid integer data type '" + std::string(dtype_name(dt)) + "'");
  }
}

FloatInfo finfo(DType dt) {
  DType r = real_dtype(dt);
  if (r == DType::float16)
    return {16,
            std::ldexp(1.0, -10),
            65504.0,
            -65504.0,
            std::ldexp(1.0, -14),
            std::ldexp(1.0, -24),
            1e-3,
            3};
  if (r == DType::float32)
    return {32, FLT_EPSILON, FLT_MAX, -FLT_MAX, FLT_MIN, std::ldexp(1.0, -149), 1e-6, 6};
  if (r == DType::float64)
    return {64, DBL_EPSILON, DBL_MAX, -DBL_MAX, DBL_MIN, std::ldexp(1.0, -1074), 1e-15, 15};
  throw ValueError("[finfo] data type '" + std::string(dtype_name(dt)) + "' not inexact");
}

}  // namespace gpupy
