// Vector loops that replay, lane by lane, the instructions of glibc's x86-64 exp, exp2, log and pow
// (float64), expf, exp2f, logf, log2f, sinf, cosf and powf, and the float operations of expm1,
// log1p and tanh (float32 and float64), so that their results are the
// library's bit for bit; and the tables those functions read. Host only.
#pragma once

#include <cstdint>

#include "fast_math.h"

namespace gpupy::cpu {

/// o[i] = op(a[i]) for i < n, exactly as this process's C library computes it (o may be a).
/// Returns false and writes nothing where the op has no replay loop, the CPU lacks AVX2 and FMA,
/// the library is not glibc >= 2.28, a first-use probe found a result that differs from the
/// library's, the rounding mode is not to nearest, or GPUPY_FAST_MATH=0 is set.
bool libm_replay(FastOp op, const float* a, float* o, int64_t n);
bool libm_replay(FastOp op, const double* a, double* o, int64_t n);

/// libm_replay's loops for expm1, log1p and tanh (libm_replay_fdlibm32.cpp,
/// libm_replay_fdlibm64.cpp).
bool libm_replay_fdlibm(FastOp op, const float* a, float* o, int64_t n);
bool libm_replay_fdlibm(FastOp op, const double* a, double* o, int64_t n);

/// libm_replay's loop for float64 cos (libm_replay_trig64.cpp).
bool libm_replay_trig64(FastOp op, const double* a, double* o, int64_t n);

/// o[i] = atan2(y[i * sy], x[i * sx]) for i < n, as glibc's atan2f computes it, under libm_replay's
/// conditions (libm_replay_fdlibm32.cpp).
bool libm_replay_atan2(const float* y, int64_t sy, const float* x, int64_t sx, float* o, int64_t n);

/// o[i] = pow(x[i * sx], y[i * sy]) for i < n (strides in elements, any sign; 0 is one value for
/// every element), exactly as this process's C library computes it (o may be x or y where it is
/// the same elements). Returns false and writes nothing where libm_replay would.
bool libm_replay_pow(const float* x, int64_t sx, const float* y, int64_t sy, float* o, int64_t n);
bool libm_replay_pow(const double* x, int64_t sx, const double* y, int64_t sy, double* o,
                     int64_t n);

namespace libm {
extern const uint64_t kExpTable[256];
extern const double kLogTable[256];
extern const double kLogfTable[32];
extern const double kLog2fTable[32];
extern const uint64_t kExp2fTable[32];
extern const double kPowLogTable[512];
extern const uint64_t kSinCosTable[440];
}  // namespace libm

}  // namespace gpupy::cpu
