// Vector loops for float32 exp, exp2, log, log2, sin, cos, expm1, log1p, tanh and pow, float64
// exp, exp2, log, cos, expm1, log1p, tanh and pow, and float32/float64 rounding whose results equal
// the C library's scalar calls bit for bit, and traits that route a functor's cpu loop to them
// (directly for contiguous runs, through buffered_math.h's chunks otherwise). Host only.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../../functors/arithmetic.h"
#include "../../functors/math.h"
#include "../../functors/numpy_extras.h"

namespace gpupy::cpu {

enum class FastOp {
  none,
  exp,
  exp2,
  log,
  log2,
  sin,
  cos,
  expm1,
  log1p,
  tanh,
  floor,
  ceil,
  trunc,
  rint,
  pow,
  arctan2
};

template <class T>
concept FloatOrDouble = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// The fast loop of functor F on element type T, or FastOp::none.
template <class F, class T>
inline constexpr FastOp fast_op_v = FastOp::none;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Exp, T> = FastOp::exp;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Exp2, T> = FastOp::exp2;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Log, T> = FastOp::log;
template <>
inline constexpr FastOp fast_op_v<fn::Log2, float> = FastOp::log2;
template <>
inline constexpr FastOp fast_op_v<fn::Sin, float> = FastOp::sin;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Cos, T> = FastOp::cos;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Expm1, T> = FastOp::expm1;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Log1p, T> = FastOp::log1p;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Tanh, T> = FastOp::tanh;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Floor, T> = FastOp::floor;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Ceil, T> = FastOp::ceil;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Trunc, T> = FastOp::trunc;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Rint, T> = FastOp::rint;

/// The fast loop of the binary functor F on element type T, or FastOp::none.
template <class F, class T>
inline constexpr FastOp fast_binary_op_v = FastOp::none;
template <FloatOrDouble T>
inline constexpr FastOp fast_binary_op_v<fn::Power, T> = FastOp::pow;
template <>
inline constexpr FastOp fast_binary_op_v<fn::Arctan2, float> = FastOp::arctan2;
template <>  // float_power computes in float64
inline constexpr FastOp fast_binary_op_v<fn::FloatPower, double> = FastOp::pow;

/// The vector level fast_math.cpp dispatches on: 2 AVX-512, 1 AVX2 and FMA, 0 neither (or
/// GPUPY_FAST_MATH=0).
int fast_math_level();

/// Whether the C library is glibc 2.28 or later (the new exp, log, sinf family).
bool glibc_at_least_2_28();

/// o[i] = op(a[i]) for i < n, exactly as the C library computes it (o may be a). Returns false
/// and writes nothing where no fast loop applies: an op without one for the type, a CPU without
/// AVX2 and FMA, for the transcendental functions a C library other than glibc 2.28 or later
/// (see libm_replay.h), or GPUPY_FAST_MATH=0 in the environment.
bool fast_unary(FastOp op, const float* a, float* o, int64_t n);
bool fast_unary(FastOp op, const double* a, double* o, int64_t n);

/// o[i] = op(a[i * sa], b[i * sb]) for i < n (strides in elements; 0 is one value for every
/// element), exactly as the C library computes it (o may be a or b where it is the same elements).
/// Returns false and writes nothing where fast_unary would.
bool fast_binary(FastOp op, const float* a, int64_t sa, const float* b, int64_t sb, float* o,
                 int64_t n);
bool fast_binary(FastOp op, const double* a, int64_t sa, const double* b, int64_t sb, double* o,
                 int64_t n);

/// fast_unary's float32 exp and exp2 loops for where libm_replay's do not apply: they rely only
/// on the error bound of glibc's expf and exp2f. Returns false like fast_unary.
bool fast_unary_bounded(FastOp op, const float* a, float* o, int64_t n);

}  // namespace gpupy::cpu
