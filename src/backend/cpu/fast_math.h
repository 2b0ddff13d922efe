// Vector loops for float32 exp and exp2 and float32/float64 rounding whose results equal the C
// library's scalar calls bit for bit, and a trait that routes a functor's contiguous cpu loop to
// them. Host only.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../../functors/math.h"

namespace gpupy::cpu {

enum class FastOp { none, exp, exp2, floor, ceil, trunc, rint };

template <class T>
concept FloatOrDouble = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// The fast loop of functor F on element type T, or FastOp::none.
template <class F, class T>
inline constexpr FastOp fast_op_v = FastOp::none;
template <>
inline constexpr FastOp fast_op_v<fn::Exp, float> = FastOp::exp;
template <>
inline constexpr FastOp fast_op_v<fn::Exp2, float> = FastOp::exp2;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Floor, T> = FastOp::floor;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Ceil, T> = FastOp::ceil;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Trunc, T> = FastOp::trunc;
template <FloatOrDouble T>
inline constexpr FastOp fast_op_v<fn::Rint, T> = FastOp::rint;

/// o[i] = op(a[i]) for i < n, exactly as the C library computes it (o may be a). Returns false
/// and writes nothing where no fast loop applies: an op without one for the type, a CPU without
/// AVX2 and FMA, for exp and exp2 a C library older than glibc 2.28 (whose error bounds the loops
/// rely on), or GPUPY_FAST_MATH=0 in the environment.
bool fast_unary(FastOp op, const float* a, float* o, int64_t n);
bool fast_unary(FastOp op, const double* a, double* o, int64_t n);

}  // namespace gpupy::cpu
