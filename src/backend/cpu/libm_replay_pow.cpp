// AVX2 loops for float64 pow and float32 powf that perform, in each lane, the operations of glibc's
// x86-64 __pow_fma and __powf_fma (the variants glibc picks on every CPU with AVX2 and FMA), in the
// same order, with the same fused multiply-adds and tables, so each result is the library's bit
// for bit. Lanes those functions send to a special path (x zero, subnormal, infinite, NaN, or
// negative with a y that is not an integer; y zero, infinite or NaN, for pow also |y| < 2^-65 or
// |y| >= 2^63; |y log|x|| too small or too large for the exp step's fast path) call the library.
// Built with -ffp-contract=off. Host only.
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <vector>

#include "libm_replay.h"

#if defined(__x86_64__)
#include "libm_avx2.h"

namespace gpupy::cpu {
namespace {

using namespace avx2;  // NOLINT(google-build-using-namespace): the lane vocabulary of this file

/// The kPowLogTable row {1/c, log c, the tail of log c} of each lane: four row loads, transposed.
struct PowLogRows {
  __m256d invc, logc, logctail;
};
GPUPY_AVX2 PowLogRows load_rows(__m256i i) {
  const Index4 index = lane_indices(i);
  const double* t = libm::kPowLogTable;
  const __m256d r0 = _mm256_loadu_pd(t + 4 * index.i[0]), r1 = _mm256_loadu_pd(t + 4 * index.i[1]);
  const __m256d r2 = _mm256_loadu_pd(t + 4 * index.i[2]), r3 = _mm256_loadu_pd(t + 4 * index.i[3]);
  const __m256d even01 = _mm256_unpacklo_pd(r0, r1), odd01 = _mm256_unpackhi_pd(r0, r1);
  const __m256d even23 = _mm256_unpacklo_pd(r2, r3), odd23 = _mm256_unpackhi_pd(r2, r3);
  return {_mm256_permute2f128_pd(even01, even23, 0x20), _mm256_permute2f128_pd(odd01, odd23, 0x20),
          _mm256_permute2f128_pd(even01, even23, 0x31)};
}

/// Lanes where y (finite, not zero) is an integer, and where it is an odd one: glibc's checkint,
/// which gives a negative x the sign of (-1)^y.
struct IntegerLanes64 {
  __m256i integer, odd;
};
struct IntegerLanes32 {
  __m128i integer, odd;
};
GPUPY_AVX2 IntegerLanes64 integer_lanes(__m256i iy) {
  const __m256i zero = _mm256_setzero_si256(), e = _mm256_srli_epi64(_mm256_slli_epi64(iy, 1), 53);
  // The bit of the units digit; 0 where it lies above the mantissa (y is then an even integer).
  const __m256i unit = _mm256_sllv_epi64(splat64(1), _mm256_sub_epi64(splat64(0x433), e));
  const __m256i fraction = _mm256_and_si256(iy, _mm256_sub_epi64(unit, splat64(1)));
  const __m256i whole =
      _mm256_or_si256(_mm256_cmpeq_epi64(fraction, zero), _mm256_cmpgt_epi64(e, splat64(0x433)));
  const __m256i integer = _mm256_andnot_si256(_mm256_cmpgt_epi64(splat64(0x3ff), e), whole);
  const __m256i even = _mm256_cmpeq_epi64(_mm256_and_si256(iy, unit), zero);
  return {integer, _mm256_andnot_si256(even, integer)};
}
GPUPY_AVX2 IntegerLanes32 integer_lanes(__m128i iy) {
  const __m128i zero = _mm_setzero_si128(), e = _mm_srli_epi32(_mm_slli_epi32(iy, 1), 24);
  const __m128i unit = _mm_sllv_epi32(splat32(1), _mm_sub_epi32(splat32(0x96), e));
  const __m128i fraction = _mm_and_si128(iy, _mm_sub_epi32(unit, splat32(1)));
  const __m128i whole =
      _mm_or_si128(_mm_cmpeq_epi32(fraction, zero), _mm_cmpgt_epi32(e, splat32(0x96)));
  const __m128i integer = _mm_andnot_si128(_mm_cmpgt_epi32(splat32(0x7f), e), whole);
  const __m128i even = _mm_cmpeq_epi32(_mm_and_si128(iy, unit), zero);
  return {integer, _mm_andnot_si128(even, integer)};
}

/// float64 pow: __pow_fma for normal x (negative only with an integer y), 2^-65 <= |y| < 2^63 and
/// 2^-54 <= |y log|x|| < 512 (log_inline, then exp_inline with the tail of y log|x|). Other lanes
/// go to the library.
struct Pow64 {
  using T = double;
  static constexpr int kExpRange = 10;  // the probe's |y log x| reaches 2^10, past 512
  static T library(T x, T y) { return ::pow(x, y); }

  /// log(x) = result + *tail, for positive normal x, as __pow_fma's log_inline computes them.
  GPUPY_AVX2 static __m256d log_inline(__m256i ix, __m256d* tail) {
    constexpr double kLn2Hi = 0x1.62e42fefa3800p-1, kLn2Lo = 0x1.ef35793c76730p-45;
    constexpr double kA[7] = {-0x1p-1,
                              -0x1.555555555556p-1,
                              0x1.0000000000006p-1,
                              0x1.999999959554ep-1,
                              -0x1.555555529a47ap-1,
                              -0x1.2495b9b4845e9p+0,
                              0x1.0002b8b263fc3p+0};
    // x = 2^k z with z in [0x1.69555p-1, 0x1.69555p0); the table row is picked by z's top bits.
    const __m256i tmp = _mm256_sub_epi64(ix, splat64(0x3fe6955500000000));
    const auto [invc, logc, logctail] =
        load_rows(_mm256_and_si256(_mm256_srli_epi64(tmp, 45), splat64(127)));
    const __m256d kd = shift52_to_double(tmp);
    const __m256i iz =
        _mm256_sub_epi64(ix, _mm256_and_si256(tmp, splat64(int64_t(0xfff0000000000000))));
    const __m256d r = fma(_mm256_castsi256_pd(iz), invc, splat(-1.0));
    const __m256d t1 = fma(kd, kLn2Hi, logc), lo1 = fma(kd, kLn2Lo, logctail);
    const __m256d t2 = add(r, t1), ar = mul(r, splat(kA[0]));
    const __m256d ar2 = mul(r, ar), ar3 = mul(r, ar2);
    const __m256d lo2 = add(sub(t1, t2), r), lo3 = _mm256_fmsub_pd(ar, r, ar2);
    const __m256d hi = add(t2, ar2), lo4 = add(sub(t2, hi), ar2);
    const __m256d p34 = fma(r, kA[4], kA[3]), p56 = fma(r, kA[6], kA[5]);
    const __m256d q = fma(ar2, fma(p56, ar2, p34), fma(r, kA[2], kA[1]));
    const __m256d lo = fma(ar3, q, add(add(add(lo1, lo2), lo3), lo4));
    const __m256d y = add(hi, lo);
    *tail = add(sub(hi, y), lo);
    return y;
  }

  GPUPY_AVX2 static int eval(const T* xp, int64_t sx, const T* yp, int64_t sy, T* res) {
    const __m256d x = load4(xp, sx), y = load4(yp, sy);
    const __m256i ix = _mm256_castpd_si256(x), sign = splat64(INT64_MIN);
    // A negative x with an integer y is |x| ** y with the sign of (-1)^y, as there.
    const __m256i ax = _mm256_andnot_si256(sign, ix), topx = _mm256_srli_epi64(ax, 52);
    __m256i special = _mm256_or_si256(_mm256_cmpgt_epi64(splat64(0x001), topx),
                                      _mm256_cmpgt_epi64(topx, splat64(0x7fe)));
    special = _mm256_or_si256(special, exponent_outside(y, 0x3be, 0x43d));
    __m256i flip = _mm256_setzero_si256();
    if (_mm256_movemask_pd(x) != 0) {  // only then is y's parity needed
      const __m256i negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), ix);
      const auto [integer, odd] = integer_lanes(_mm256_castpd_si256(y));
      special = _mm256_or_si256(special, _mm256_andnot_si256(integer, negative));
      flip = _mm256_and_si256(_mm256_and_si256(negative, odd), sign);
    }
    __m256d tail;
    const __m256d hi = log_inline(ax, &tail);
    const __m256d ehi = mul(y, hi), elo = fma(y, tail, _mm256_fmsub_pd(hi, y, ehi));
    special = _mm256_or_si256(special, exp_special(ehi));
    const auto [k, r] = exp_reduce(ehi);
    _mm256_storeu_pd(res, _mm256_xor_pd(exp_finish(k, add(elo, r)), _mm256_castsi256_pd(flip)));
    return _mm256_movemask_pd(_mm256_castsi256_pd(special));
  }
};

/// float32 powf: __powf_fma for normal x (negative only with an integer y), y neither zero,
/// infinite nor NaN, and |y log2|x|| < 126 (log2_inline, then exp2_inline). Other lanes go to the
/// library.
struct PowF32 {
  using T = float;
  static constexpr int kExpRange = 7;  // |y ln x| reaches 2^7, so |y log2 x| passes 126
  static T library(T x, T y) { return ::powf(x, y); }

  /// log2(x) for positive normal x, as __powf_fma's log2_inline computes it.
  GPUPY_AVX2 static __m256d log2_inline(__m128i ix) {
    constexpr double kA[5] = {0x1.27616c9496e0bp-2, -0x1.71969a075c67ap-2, 0x1.ec70a6ca7baddp-2,
                              -0x1.7154748bef6c8p-1, 0x1.71547652ab82bp+0};
    const __m128i tmp = _mm_sub_epi32(ix, splat32(0x3f330000));
    const __m128i idx = _mm_and_si128(_mm_srli_epi32(tmp, 19), splat32(15));
    const __m256d kd = _mm256_cvtepi32_pd(_mm_srai_epi32(tmp, 23));
    const __m128i iz = _mm_sub_epi32(ix, _mm_and_si128(tmp, splat32(int32_t(0xff800000u))));
    const auto [invc, logc] = load_pairs(libm::kLog2fTable, idx);
    const __m256d r = fma(_mm256_cvtps_pd(_mm_castsi128_ps(iz)), invc, splat(-1.0));
    const __m256d r2 = mul(r, r), q = fma(r, kA[4], add(kd, logc));
    const __m256d p01 = fma(r, kA[0], kA[1]), p23 = fma(r, kA[2], kA[3]);
    return fma(p01, mul(r2, r2), fma(r2, p23, q));
  }

  GPUPY_AVX2 static int eval(const T* xp, int64_t sx, const T* yp, int64_t sy, T* res) {
    constexpr double kShift = 0x1.8p+47;
    constexpr double kC0 = 0x1.c6af84b912394p-5, kC1 = 0x1.ebfce50fac4f3p-3;
    constexpr double kC2 = 0x1.62e42ff0c52d6p-1;
    const __m128 yf = load4(yp, sy);
    const __m128i sx_bits = _mm_castps_si128(load4(xp, sx)), iy = _mm_castps_si128(yf);
    // A negative x with an integer y is |x| ** y with the sign of (-1)^y, as there.
    const __m128i sign = splat32(INT32_MIN), ix = _mm_andnot_si128(sign, sx_bits);
    __m128i special = greater_u32(_mm_sub_epi32(ix, splat32(0x00800000)), 0x7effffff);
    __m128i flip = _mm_setzero_si128();
    if (_mm_movemask_ps(_mm_castsi128_ps(sx_bits)) != 0) {  // only then is y's parity needed
      const __m128i negative = _mm_srai_epi32(sx_bits, 31);
      const auto [integer, odd] = integer_lanes(iy);
      special = _mm_or_si128(special, _mm_andnot_si128(integer, negative));
      flip = _mm_and_si128(_mm_and_si128(negative, odd), sign);
    }
    // y is 0, infinite or NaN: 2 iy - 1 wraps or reaches 2 * 0x7f800000 - 1.
    const __m128i twice = _mm_sub_epi32(_mm_add_epi32(iy, iy), splat32(1));
    special = _mm_or_si128(special, greater_u32(twice, 0xfefffffe));
    const __m256d ylogx = mul(_mm256_cvtps_pd(yf), log2_inline(ix));
    // |y log2 x| >= 126: the top 16 bits below the sign reach those of 126.
    const __m256i top16 =
        _mm256_and_si256(_mm256_srli_epi64(_mm256_castpd_si256(ylogx), 47), splat64(0xffff));
    const __m256i big = _mm256_cmpgt_epi64(top16, splat64(0x80be));
    const __m256d kd = add(ylogx, splat(kShift));
    const __m256d r = sub(ylogx, sub(kd, splat(kShift)));
    const __m128 result = _mm256_cvtpd_ps(exp2f_finish(kd, r, kC0, kC1, kC2));
    _mm_storeu_ps(res, _mm_xor_ps(result, _mm_castsi128_ps(flip)));
    return _mm_movemask_ps(_mm_castsi128_ps(special)) |
           _mm256_movemask_pd(_mm256_castsi256_pd(big));
  }
};

/// (x, y) pairs on which a loop must agree with the library before it is used: every binade of x
/// (both signs) against exponents of every kind (zero, infinite, NaN, integers, halves, tiny and
/// huge), and ~24k pairs of positive x and y = t / log(x) with |t| log-uniform up to past the end
/// of the fast path, so that y log x crosses every table row and path boundary. A guard against
/// another build of the library, not a proof (see tools/check_libm_replay.cpp).
template <class K>
void probe_inputs(std::vector<typename K::T>& xs, std::vector<typename K::T>& ys) {
  using T = typename K::T;
  constexpr int kMantissaBits = sizeof(T) == 8 ? 52 : 23, kBias = sizeof(T) == 8 ? 1023 : 127;
  const T kExponents[] = {0,     -0.0f,  INFINITY, -INFINITY, NAN,         1,
                          -1,    2,      -2,       3,         -3,          0.5f,
                          -0.5f, 2.5f,   -1.5f,    1e-20f,    -1e-20f,     1e10f,
                          1e30f, -1e30f, 0x1p-70f, T(0x1p63), T(-0x1p-60), 117};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  auto unit = [&next] { return double(next() >> 11) * 0x1p-53; };
  using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  size_t e = 0;
  for (U exponent = 0; exponent <= 2 * kBias + 1; ++exponent) {
    for (int m = 0; m < 4; ++m) {
      const U bits =
          U(exponent << kMantissaBits) | (U(next() >> 11) & ((U(1) << kMantissaBits) - 1));
      const U pattern = m < 2 ? bits : bits | (U(1) << (sizeof(T) * 8 - 1));
      xs.push_back(std::bit_cast<T>(pattern));
      ys.push_back(kExponents[e++ % std::size(kExponents)]);
    }
  }
  for (int i = 0; i < 24576; ++i) {
    const double x = std::exp2(-8 + 16 * unit()), t = std::exp2(-60 + (60 + K::kExpRange) * unit());
    xs.push_back(T(x));
    ys.push_back(T((next() & 1 ? -t : t) / std::log(double(T(x)))));
  }
}

template <class K>
bool agrees_with_library() {
  std::vector<typename K::T> x, y;
  probe_inputs<K>(x, y);
  return binary_agrees_with_library<K>(x, y);
}

}  // namespace

bool libm_replay_pow(const float* x, int64_t sx, const float* y, int64_t sy, float* o, int64_t n) {
  return run_binary<PowF32>(agrees_with_library<PowF32>, x, sx, y, sy, o, n);
}

bool libm_replay_pow(const double* x, int64_t sx, const double* y, int64_t sy, double* o,
                     int64_t n) {
  return run_binary<Pow64>(agrees_with_library<Pow64>, x, sx, y, sy, o, n);
}

}  // namespace gpupy::cpu

#else  // not x86-64: glibc's x86-64 variants do not apply

namespace gpupy::cpu {
bool libm_replay_pow(const float*, int64_t, const float*, int64_t, float*, int64_t) {
  return false;
}
bool libm_replay_pow(const double*, int64_t, const double*, int64_t, double*, int64_t) {
  return false;
}
}  // namespace gpupy::cpu

#endif
