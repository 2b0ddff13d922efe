// AVX2 loops for float64 expm1, log1p and tanh that perform, in each lane, the operations of
// glibc's x86-64 __expm1_fma and __log1p_fma (the fdlibm-derived sysdeps/ieee754/dbl-64 code built
// with -mfma -mavx2, which glibc picks on every CPU with AVX2 and FMA) and of tanh (built for SSE2,
// calling expm1 through its ifunc), in the same order, with the same fused multiply-adds, so each
// result is the library's bit for bit. The fusions were read off the library's machine code
// (objdump of Debian 12's glibc 2.36 libm). Lanes whose input is infinite, NaN, out of the
// function's domain or past its overflow threshold call the library. Built with -ffp-contract=off:
// the only fusions are the ones written here. Host only.
#include "libm_replay.h"

#if defined(__x86_64__)
#include "libm_avx2.h"

namespace gpupy::cpu {
namespace {

using namespace avx2;  // NOLINT(google-build-using-namespace): the lane vocabulary of this file

/// The high 32 bits of each lane's double (the word fdlibm's tests read), as four int32 lanes.
GPUPY_AVX2 __m128i high_words(__m256d x) {
  const __m256i h = _mm256_permutevar8x32_epi32(_mm256_castpd_si256(x),
                                                _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7));
  return _mm256_castsi256_si128(h);
}
GPUPY_AVX2 __m128i greater(__m128i a, int32_t b) { return _mm_cmpgt_epi32(a, splat32(b)); }
GPUPY_AVX2 __m128i less(__m128i a, int32_t b) { return _mm_cmpgt_epi32(splat32(b), a); }
GPUPY_AVX2 __m128i equal(__m128i a, int32_t b) { return _mm_cmpeq_epi32(a, splat32(b)); }
/// if_set where the 32-bit lane mask is set, else if_clear.
GPUPY_AVX2 __m256d pick(__m128i mask, __m256d if_set, __m256d if_clear) {
  return _mm256_blendv_pd(if_clear, if_set, lanes(mask));
}
GPUPY_AVX2 __m256d pick(__m128i mask, double if_set, __m256d if_clear) {
  return pick(mask, splat(if_set), if_clear);
}
/// y with k added to its exponent field (fdlibm's add to the high word).
GPUPY_AVX2 __m256d add_exponent(__m256d y, __m128i k) {
  const __m256i shift = _mm256_slli_epi64(_mm256_cvtepi32_epi64(k), 52);
  return _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(y), shift));
}
/// The double whose high word is h (per lane) and low word 0.
GPUPY_AVX2 __m256d from_high(__m128i h) {
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_cvtepu32_epi64(h), 32));
}
GPUPY_AVX2 int bits_of(__m128i mask) { return _mm_movemask_ps(_mm_castsi128_ps(mask)); }

/// __expm1_fma(x) for every lane but those with |x| >= 0x1.62e42p9 (overflow, -1 past it,
/// infinite or NaN), which `*special` marks. x < -56 ln 2 gives -1 (tiny - one), |x| < 2^-54
/// gives x.
GPUPY_AVX2 __m256d expm1_lanes(__m256d x, __m128i* special) {
  constexpr double kLn2Hi = 0x1.62e42feep-1, kLn2Lo = 0x1.a39ef35793c76p-33;
  constexpr double kInvLn2 = 0x1.71547652b82fep+0;
  constexpr double kQ1 = -0x1.11111111110f4p-5, kQ2 = 0x1.a01a019fe5585p-10;
  constexpr double kQ3 = -0x1.4ce199eaadbb7p-14, kQ4 = 0x1.0cfca86e65239p-18;
  constexpr double kQ5 = -0x1.afdb76e09c32dp-23;
  const __m128i hi_word = high_words(x), hx = _mm_and_si128(hi_word, splat32(0x7fffffff));
  const __m128i negative = _mm_srai_epi32(hi_word, 31);
  *special = greater(hx, 0x40862e41);
  const __m128i minus_one = _mm_and_si128(negative, greater(hx, 0x40436879));
  const __m128i tiny = less(hx, 0x3c900000);
  // k = 0 for |x| <= ln2 / 2, +-1 below 1.5 ln2 (x -+ ln2_hi is then what the fused t ln2_hi
  // step gives), else the truncated x / ln2 +- 1/2.
  const __m128i reduce = greater(hx, 0x3fd62e42), one_step = less(hx, 0x3ff0a2b2);
  const __m256d half = pick(negative, -0.5, splat(0.5));
  __m128i k = _mm256_cvttpd_epi32(add(half, mul(x, splat(kInvLn2))));
  k = _mm_blendv_epi8(k, _mm_or_si128(negative, splat32(1)), one_step);
  k = _mm_and_si128(reduce, k);
  const __m256d t = _mm256_cvtepi32_pd(k);
  const __m256d hi = _mm256_fnmadd_pd(t, splat(kLn2Hi), x), lo = mul(t, splat(kLn2Lo));
  const __m256d xr = sub(hi, lo), c = sub(sub(hi, xr), lo);
  const __m256d hfx = mul(xr, splat(0.5)), hxs = mul(xr, hfx);
  const __m256d r1_ = fma(hxs, kQ1, 1.0), r2 = fma(hxs, kQ3, kQ2), r3 = fma(hxs, kQ5, kQ4);
  const __m256d h2 = mul(hxs, hxs), h4 = mul(h2, h2);
  const __m256d r1 = fma(h4, r3, fma(h2, r2, r1_));
  const __m256d t3 = _mm256_fnmadd_pd(r1, hfx, splat(3.0));
  const __m256d e = mul(_mm256_div_pd(sub(r1, t3), _mm256_fnmadd_pd(xr, t3, splat(6.0))), hxs);
  const __m256d k0 = sub(xr, _mm256_fmsub_pd(e, xr, hxs));
  const __m256d ek = sub(_mm256_fmsub_pd(sub(e, c), xr, c), hxs);
  const __m256d minus1 = fma(splat(0.5), sub(xr, ek), splat(-0.5));
  const __m256d below = mul(sub(ek, add(xr, splat(0.5))), splat(-2.0));
  const __m256d plus1 = _mm256_blendv_pd(fma(sub(xr, ek), 2.0, 1.0), below,
                                         _mm256_cmp_pd(xr, splat(-0.25), _CMP_LT_OQ));
  const __m256d e_minus_x = sub(ek, xr);
  // k < -1 or k > 56: 1 - (e - x) scaled by 2^k, less one.
  const __m256d far = sub(add_exponent(sub(splat(1.0), e_minus_x), k), splat(1.0));
  // 2 <= k <= 19: 1 - 2^-k, 20 <= k <= 56: 2^-k, each scaled by 2^k.
  const __m128i low_t = _mm_sub_epi32(splat32(0x3ff00000), _mm_srlv_epi32(splat32(0x200000), k));
  const __m256d low = add_exponent(sub(from_high(low_t), e_minus_x), k);
  const __m256d high_t = from_high(_mm_slli_epi32(_mm_sub_epi32(splat32(0x3ff), k), 20));
  const __m256d high = add_exponent(add(sub(xr, add(ek, high_t)), splat(1.0)), k);
  __m256d y = pick(greater(k, 19), high, low);
  y = pick(_mm_or_si128(less(k, -1), greater(k, 56)), far, y);
  y = pick(equal(k, 1), plus1, y);
  y = pick(equal(k, -1), minus1, y);
  y = pick(equal(k, 0), k0, y);
  y = pick(tiny, x, y);
  return pick(minus_one, -1.0, y);
}

/// float64 expm1: __expm1_fma.
struct Expm1F64 {
  using T = double;
  static constexpr int kProbeLo = -55, kProbeHi = 9;
  static T library(T x) { return ::expm1(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    __m128i special;
    _mm256_storeu_pd(res, expm1_lanes(_mm256_loadu_pd(a), &special));
    return bits_of(special);
  }
};

/// float64 tanh: glibc's tanh (SSE2 code) on __expm1_fma: 1 - 2 / (expm1(2|x|) + 2) for
/// |x| >= 1 and -t / (t + 2), t = expm1(-2|x|), below, with the sign of x; 1 from 22 on,
/// x (1 + x) below 2^-55. Infinite and NaN lanes go to the library.
struct TanhF64 {
  using T = double;
  static constexpr int kProbeLo = -56, kProbeHi = 4;
  static T library(T x) { return ::tanh(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    const __m256d x = _mm256_loadu_pd(a);
    const __m128i ax = _mm_and_si128(high_words(x), splat32(0x7fffffff));
    const __m256d sign = _mm256_and_pd(x, splat(-0.0)), abs_x = _mm256_andnot_pd(splat(-0.0), x);
    const __m128i large = greater(ax, 0x3fefffff);
    const __m256d arg = pick(large, add(abs_x, abs_x), mul(abs_x, splat(-2.0)));
    __m128i unused;
    const __m256d t = expm1_lanes(arg, &unused), t2 = add(t, splat(2.0));
    // One division for both rows: 2 / (t + 2) from 1 on, -t / (t + 2) below.
    const __m256d q = _mm256_div_pd(pick(large, 2.0, _mm256_xor_pd(t, splat(-0.0))), t2);
    __m256d z = pick(large, sub(splat(1.0), q), q);
    z = pick(greater(ax, 0x4035ffff), 1.0, z);
    z = _mm256_xor_pd(z, sign);
    z = pick(less(ax, 0x3c800000), mul(add(splat(1.0), x), x), z);
    _mm256_storeu_pd(res, z);
    return bits_of(greater(ax, 0x7fefffff));
  }
};

/// float64 log1p: __log1p_fma for -1 < x < 2^53 (f = 1 + x normalised to [sqrt(2)/2, sqrt(2))
/// with a correction term c, or f = x for -0.29 < x < 0.41; then the series in s = f / (2 + f),
/// or a shorter one where the top mantissa bits of 1 + x are 0). Lanes at or below -1, NaN and
/// from 2^53 on (+inf included) go to the library.
struct Log1pF64 {
  using T = double;
  static constexpr int kProbeLo = -30, kProbeHi = 2;
  static T library(T x) { return ::log1p(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    constexpr double kLn2Hi = 0x1.62e42feep-1, kLn2Lo = 0x1.a39ef35793c76p-33;
    constexpr double kLp[8] = {0,
                               0x1.5555555555593p-1,
                               0x1.999999997fa04p-2,
                               0x1.2492494229359p-2,
                               0x1.c71c51d8e78afp-3,
                               0x1.7466496cb03dep-3,
                               0x1.39a09d078c69fp-3,
                               0x1.2f112df3e5244p-3};
    const __m256d x = _mm256_loadu_pd(a), one = splat(1.0);
    const __m128i hx = high_words(x), ax = _mm_and_si128(hx, splat32(0x7fffffff));
    const __m128i upper = greater(hx, 0x3fda8279);  // x >= sqrt(2) - 1 (roughly)
    const __m128i special =
        _mm_blendv_epi8(greater(ax, 0x3fefffff), greater(hx, 0x433fffff), upper);
    const __m128i tiny = _mm_andnot_si128(upper, less(ax, 0x3e200000));
    // -0.29 < x < sqrt(2) - 1 (not tiny): k = 0, f = x.
    const __m128i direct =
        _mm_andnot_si128(upper, greater_u32(_mm_add_epi32(hx, splat32(0x402d413c)), 0x402d413c));
    // Elsewhere u = 1 + x = 2^k (1 + f) with c the rounding error of 1 + x, over u.
    const __m256d u = add(x, one);
    const __m128i hu = high_words(u);
    __m128i k = _mm_sub_epi32(_mm_srai_epi32(hu, 20), splat32(1023));
    const __m256d c =
        _mm256_div_pd(pick(greater(k, 0), sub(one, sub(u, x)), sub(x, sub(u, one))), u);
    __m128i m = _mm_and_si128(hu, splat32(0xfffff));
    const __m128i upper_half = greater(m, 0x6a09d);
    k = _mm_sub_epi32(k, upper_half);
    const __m128i top =
        _mm_or_si128(m, _mm_blendv_epi8(splat32(0x3ff00000), splat32(0x3fe00000), upper_half));
    const __m256i low_bits = _mm256_and_si256(_mm256_castpd_si256(u), splat64(0xffffffff));
    const __m256d un = _mm256_or_pd(from_high(top), _mm256_castsi256_pd(low_bits));
    m = _mm_blendv_epi8(m, _mm_srai_epi32(_mm_sub_epi32(splat32(0x100000), m), 2), upper_half);
    k = _mm_andnot_si128(direct, k);
    const __m256d f = pick(direct, x, sub(un, one));
    const __m128i short_series = _mm_andnot_si128(direct, equal(m, 0));
    const __m256d hfsq = mul(mul(f, splat(0.5)), f);
    const __m256d kf = _mm256_cvtepi32_pd(k), k_lo = fma(kf, kLn2Lo, c);
    const __m256d s = _mm256_div_pd(f, add(f, splat(2.0))), z = mul(s, s);
    const __m256d r2 = fma(z, kLp[3], kLp[2]), r3 = fma(z, kLp[5], kLp[4]);
    const __m256d r4 = fma(z, kLp[7], kLp[6]);
    const __m256d z2 = mul(z, z), z4 = mul(z2, z2), z6 = mul(z2, z4);
    const __m256d r = fma(z6, r4, fma(z4, r3, fma(z, splat(kLp[1]), mul(z2, r2))));
    const __m256d w = mul(add(r, hfsq), s);
    const __m128i k_zero = equal(k, 0);
    const __m256d k_rest = sub(sub(hfsq, add(k_lo, w)), f);
    __m256d y = pick(k_zero, sub(f, sub(hfsq, w)), _mm256_fmsub_pd(kf, splat(kLn2Hi), k_rest));
    // Where the mantissa bits glibc tests (hu) are 0: a shorter series, or k ln2 + c where f = 0.
    const __m256d rp = mul(_mm256_fnmadd_pd(f, splat(0x1.5555555555555p-1), one), hfsq);
    __m256d yp =
        pick(k_zero, sub(f, rp), _mm256_fmsub_pd(kf, splat(kLn2Hi), sub(sub(rp, k_lo), f)));
    const __m256d at_one = fma(kf, splat(kLn2Hi), k_lo);
    yp = _mm256_blendv_pd(yp, pick(k_zero, 0.0, at_one),
                          _mm256_cmp_pd(f, _mm256_setzero_pd(), _CMP_EQ_OQ));
    y = pick(short_series, yp, y);
    const __m256d x_sq = mul(x, x);
    y = pick(tiny, pick(greater(ax, 0x3c8fffff), _mm256_fnmadd_pd(x_sq, splat(0.5), x), x), y);
    _mm256_storeu_pd(res, y);
    return bits_of(special);
  }
};

}  // namespace

bool libm_replay_fdlibm(FastOp op, const double* a, double* o, int64_t n) {
  switch (op) {
    case FastOp::expm1:
      return run_unary<Expm1F64>(a, o, n);
    case FastOp::log1p:
      return run_unary<Log1pF64>(a, o, n);
    case FastOp::tanh:
      return run_unary<TanhF64>(a, o, n);
    default:
      return false;
  }
}

}  // namespace gpupy::cpu

#else  // not x86-64: glibc's x86-64 variants do not apply

namespace gpupy::cpu {
bool libm_replay_fdlibm(FastOp, const double*, double*, int64_t) { return false; }
}  // namespace gpupy::cpu

#endif
