// Vector loops for float32 exp and exp2, and float32/float64 floor, ceil, trunc and rint, that
// return the C library's results bit for bit, compiled for AVX2 (and AVX-512) and chosen at run
// time, and the dispatch to libm_replay.cpp's and libm_replay_pow.cpp's loops; other CPUs keep the
// scalar loops. Host only.
// The exp and exp2 loops here serve where libm_replay.cpp's faster ones do not apply.
//
// Why the results are the library's: each element gets a double approximation y of f(x) with
// relative error below kApproxError. glibc's expf and exp2f (glibc >= 2.28; 0.502 ulp) return a
// float within 0.5 + excess ulp of the exact value, so where the exact value lies more than
// `excess` ulp from every rounding midpoint, the library returns the correctly rounded float.
// Where every value within excess ulp + kApproxError |y| of y rounds to one float, that float is
// therefore the library's result. The rest (about 2 % of elements) and every input out of range
// call the library. (sinf and cosf, 0.5607 ulp, would defer 14 % of elements: libm_replay.cpp
// reproduces them instead, as it does float64 exp and log, whose bounds are too loose for this.)
#include "fast_math.h"

#include <array>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "libm_replay.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define GPUPY_FAST_INLINE inline __attribute__((always_inline))

namespace gpupy::cpu {
namespace {

constexpr double kApproxError = 0x1p-40;
// x + kShifter - kShifter rounds x to an integer (|x| < 2^51), whose low bits the sum holds.
constexpr double kShifter = 0x1.8p52;
constexpr double kLn2 = 0x1.62e42fefa39efp-1, kInvLn2 = 0x1.71547652b82fep0;

template <class To, class From>
GPUPY_FAST_INLINE To bits(From from) {
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

constexpr double inverse_factorial(int k) {
  double f = 1;
  for (int i = 2; i <= k; ++i) f *= i;  // exact up to 18!
  return 1 / f;
}

/// e^t = sum of t^j / j!, to j = 10.
constexpr auto kExpSeries = [] {
  std::array<double, 11> c{};
  for (int j = 0; j < 11; ++j) c[j] = inverse_factorial(j);
  return c;
}();

template <size_t N>
GPUPY_FAST_INLINE double horner(const std::array<double, N>& c, double t) {
  double p = c[N - 1];
#pragma GCC unroll 16
  for (int j = static_cast<int>(N) - 2; j >= 0; --j) p = p * t + c[j];
  return p;
}

/// 2^k where `shifted` is k + kShifter (|k| < 1023).
GPUPY_FAST_INLINE double pow2_of_shifted(double shifted) {
  return bits<double>((bits<uint64_t>(shifted) << 52) + (uint64_t(1023) << 52));
}

/// e^t for |t| <= 0.35: Taylor series to t^10, truncation error below 2^-42.
GPUPY_FAST_INLINE double exp_series(double t) { return horner(kExpSeries, t); }

struct ExpKernel {
  static constexpr double kLibExcess = 0.01;  // glibc's expf: 0.502 ulp
  static float library(float x) { return ::expf(x); }
  GPUPY_FAST_INLINE static bool in_range(float x) { return (x >= -100.0f) & (x <= 100.0f); }
  GPUPY_FAST_INLINE static double approx(double x) {
    const double shifted = x * kInvLn2 + kShifter, k = shifted - kShifter;
    return exp_series(x - k * kLn2) * pow2_of_shifted(shifted);
  }
};

struct Exp2Kernel {
  static constexpr double kLibExcess = 0.01;  // glibc's exp2f: 0.502 ulp
  static float library(float x) { return ::exp2f(x); }
  GPUPY_FAST_INLINE static bool in_range(float x) { return (x >= -150.0f) & (x <= 150.0f); }
  GPUPY_FAST_INLINE static double approx(double x) {
    const double shifted = x + kShifter, k = shifted - kShifter;
    return exp_series((x - k) * kLn2) * pow2_of_shifted(shifted);
  }
};

constexpr int kBlock = 256;

/// One block: the vector pass writes every element and marks those it cannot vouch for, which a
/// scalar pass then takes from the library. The inputs are kept, as `o` may be `a`.
template <class K>
GPUPY_FAST_INLINE void run_block(const float* a, float* o, int n) {
  float saved[kBlock];
  unsigned char defer[kBlock];
  unsigned any = 0;
  for (int i = 0; i < n; ++i) {
    const float x = a[i];
    const double y = K::approx(double(x));
    const float f = float(y);
    const uint32_t fb = bits<uint32_t>(f) & 0x7fffffffu;
    // The ulp of f's binade; meaningless below 2^-103 (fb < 24 << 23), which defers anyway.
    const float ulp = bits<float>((fb & 0x7f800000u) - (23u << 23));
    const double margin = K::kLibExcess * double(ulp) + kApproxError * std::fabs(y);
    // A power of two is deferred: the ulp differs on its two sides.
    const bool sure = K::in_range(x) & (float(y - margin) == float(y + margin)) &
                      ((fb & 0x7fffffu) != 0) & (fb >= (24u << 23)) & (fb < 0x7f800000u);
    saved[i] = x;
    o[i] = f;
    defer[i] = !sure;
    any |= !sure;
  }
  if (!any) return;
  // Gather the deferred positions without branches (a branch per flag mispredicts), then call.
  // Flags are read 8 at a time, and most words are clear.
  for (int i = n; i % 8 != 0; ++i) defer[i] = 0;
  int index[kBlock];
  int count = 0;
  for (int i = 0; i < n; i += 8) {
    uint64_t word;
    std::memcpy(&word, defer + i, 8);
    if (word == 0) continue;
    for (int j = 0; j < 8; ++j, word >>= 8) {
      index[count] = i + j;
      count += static_cast<int>(word & 1);
    }
  }
  for (int k = 0; k < count; ++k) o[index[k]] = K::library(saved[index[k]]);
}

template <class K>
GPUPY_FAST_INLINE void run_blocks(const float* a, float* o, int64_t n) {
  for (int64_t i = 0; i < n; i += kBlock)
    run_block<K>(a + i, o + i, static_cast<int>(n - i < kBlock ? n - i : kBlock));
}

template <class K>
__attribute__((target("avx2,fma"))) void run_avx2(const float* a, float* o, int64_t n) {
  run_blocks<K>(a, o, n);
}
template <class K>
__attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma"))) void run_avx512(const float* a,
                                                                              float* o, int64_t n) {
  run_blocks<K>(a, o, n);
}

/// floor, ceil, trunc and rint (Mode: the rounding instruction's immediate) with AVX's rounding
/// instructions. Exact operations, so the results are the library's.
template <int Mode>
__attribute__((target("avx2"))) void round_avx(const float* a, float* o, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, _mm256_round_ps(_mm256_loadu_ps(a + i), Mode));
  for (; i < n; ++i) o[i] = _mm_cvtss_f32(_mm_round_ss(_mm_setzero_ps(), _mm_set_ss(a[i]), Mode));
}
template <int Mode>
__attribute__((target("avx2"))) void round_avx(const double* a, double* o, int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(o + i, _mm256_round_pd(_mm256_loadu_pd(a + i), Mode));
  for (; i < n; ++i) o[i] = _mm_cvtsd_f64(_mm_round_sd(_mm_setzero_pd(), _mm_set_sd(a[i]), Mode));
}

}  // namespace

int fast_math_level() {
  static const int level = [] {
    const char* env = std::getenv("GPUPY_FAST_MATH");
    if (env && std::string_view(env) == "0") return 0;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl"))
      return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
    return 0;
  }();
  return level;
}

bool glibc_at_least_2_28() {
  static const bool hold = [] {
#if defined(__GLIBC__)
    // The bound is that of the float routines glibc 2.28 introduced.
    const char* version = gnu_get_libc_version();
    const int major = std::atoi(version);
    const char* dot = std::strchr(version, '.');
    const int minor = dot ? std::atoi(dot + 1) : 0;
    return major > 2 || (major == 2 && minor >= 28);
#else
    return false;
#endif
  }();
  return hold;
}

namespace {

template <class K>
bool run(const float* a, float* o, int64_t n) {
  // The argument above holds for round-to-nearest, the mode the library's bounds are given for.
  if (!glibc_at_least_2_28() || std::fegetround() != FE_TONEAREST) return false;
  switch (fast_math_level()) {
    case 2:
      return run_avx512<K>(a, o, n), true;
    case 1:
      return run_avx2<K>(a, o, n), true;
    default:  // two doubles per SSE2 vector: slower than the library's scalar calls
      return false;
  }
}

constexpr bool is_rounding(FastOp op) {
  return op == FastOp::floor || op == FastOp::ceil || op == FastOp::trunc || op == FastOp::rint;
}

template <class T>
bool round(FastOp op, const T* a, T* o, int64_t n) {
  if (fast_math_level() == 0) return false;
  switch (op) {
    case FastOp::floor:
      return round_avx<_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC>(a, o, n), true;
    case FastOp::ceil:
      return round_avx<_MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC>(a, o, n), true;
    case FastOp::trunc:
      return round_avx<_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC>(a, o, n), true;
    case FastOp::rint:
      return round_avx<_MM_FROUND_CUR_DIRECTION>(a, o, n), true;
    default:
      return false;
  }
}

}  // namespace

bool fast_unary_bounded(FastOp op, const float* a, float* o, int64_t n) {
  switch (op) {
    case FastOp::exp:
      return run<ExpKernel>(a, o, n);
    case FastOp::exp2:
      return run<Exp2Kernel>(a, o, n);
    default:
      return false;
  }
}

bool fast_unary(FastOp op, const float* a, float* o, int64_t n) {
  if (is_rounding(op)) return round(op, a, o, n);
  // exp and exp2: the replay loop is twice as fast; the other needs only the error bound.
  return libm_replay(op, a, o, n) || fast_unary_bounded(op, a, o, n);
}

bool fast_unary(FastOp op, const double* a, double* o, int64_t n) {
  return is_rounding(op) ? round(op, a, o, n) : libm_replay(op, a, o, n);
}

}  // namespace gpupy::cpu

#else  // not x86-64: no fast loops

namespace gpupy::cpu {
bool fast_unary_bounded(FastOp, const float*, float*, int64_t) { return false; }
bool fast_unary(FastOp, const float*, float*, int64_t) { return false; }
bool fast_unary(FastOp, const double*, double*, int64_t) { return false; }
}  // namespace gpupy::cpu

#endif

namespace gpupy::cpu {

bool fast_binary(FastOp op, const float* a, int64_t sa, const float* b, int64_t sb, float* o,
                 int64_t n) {
  if (op == FastOp::arctan2) return libm_replay_atan2(a, sa, b, sb, o, n);
  return op == FastOp::pow && libm_replay_pow(a, sa, b, sb, o, n);
}

bool fast_binary(FastOp op, const double* a, int64_t sa, const double* b, int64_t sb, double* o,
                 int64_t n) {
  return op == FastOp::pow && libm_replay_pow(a, sa, b, sb, o, n);
}

}  // namespace gpupy::cpu
