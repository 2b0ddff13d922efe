// AVX2 loops for float32 expm1, log1p and tanh that perform, in each of eight lanes, the float
// operations of glibc's expm1f, log1pf and tanhf (the fdlibm-derived sysdeps/ieee754/flt-32 code,
// which x86-64 builds for SSE2 only: no fused operations, one variant on every CPU), in the same
// order, so each result is the library's bit for bit. The order was read off the library's machine
// code (objdump of Debian 12's glibc 2.36 libm), which follows the C source operation for
// operation. Lanes whose input is infinite, NaN, out of the function's domain or past its
// overflow threshold call the library. Built with -ffp-contract=off. Host only.
#include "libm_replay.h"

#if defined(__x86_64__)
#include "libm_avx2.h"

namespace gpupy::cpu {
namespace {

using avx2::run_unary;

#define GPUPY_AVX2_F32 __attribute__((target("avx2,fma"), always_inline)) inline

GPUPY_AVX2_F32 __m256 splat(float v) { return _mm256_set1_ps(v); }
GPUPY_AVX2_F32 __m256i splat(int32_t v) { return _mm256_set1_epi32(v); }
GPUPY_AVX2_F32 __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
GPUPY_AVX2_F32 __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
GPUPY_AVX2_F32 __m256 mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
GPUPY_AVX2_F32 __m256 div(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
GPUPY_AVX2_F32 __m256 as_float(__m256i v) { return _mm256_castsi256_ps(v); }
GPUPY_AVX2_F32 __m256i as_int(__m256 v) { return _mm256_castps_si256(v); }
/// if_set where mask, else if_clear.
GPUPY_AVX2_F32 __m256 pick(__m256i mask, __m256 if_set, __m256 if_clear) {
  return _mm256_blendv_ps(if_clear, if_set, as_float(mask));
}
GPUPY_AVX2_F32 __m256i pick_int(__m256i mask, __m256i if_set, __m256i if_clear) {
  return _mm256_blendv_epi8(if_clear, if_set, mask);
}
GPUPY_AVX2_F32 __m256i greater(__m256i a, __m256i b) { return _mm256_cmpgt_epi32(a, b); }
GPUPY_AVX2_F32 __m256i greater(__m256i a, int32_t b) { return greater(a, splat(b)); }
/// a > b as unsigned 32-bit integers.
GPUPY_AVX2_F32 __m256i greater_unsigned(__m256i a, uint32_t b) {
  return _mm256_cmpgt_epi32(_mm256_xor_si256(a, splat(INT32_MIN)), splat(int32_t(b ^ (1u << 31))));
}
GPUPY_AVX2_F32 __m256i equal(__m256i a, int32_t b) { return _mm256_cmpeq_epi32(a, splat(b)); }
GPUPY_AVX2_F32 __m256i magnitude(__m256i ix) { return _mm256_and_si256(ix, splat(0x7fffffff)); }
GPUPY_AVX2_F32 int bits_of(__m256i mask) { return _mm256_movemask_ps(as_float(mask)); }
GPUPY_AVX2_F32 __m256 add_exponent(__m256 y, __m256i k) {
  return as_float(_mm256_add_epi32(as_int(y), _mm256_slli_epi32(k, 23)));
}

/// expm1f(x) for every lane but those with |x| >= 0x1.62e43p6 (overflow, -1 past it, infinite or
/// NaN), which `*special` marks. x < -27 ln 2 gives -1 (tiny - one), |x| < 2^-25 gives x.
GPUPY_AVX2_F32 __m256 expm1f_lanes(__m256 x, __m256i* special) {
  constexpr float kLn2Hi = 0x1.62e3p-1f, kLn2Lo = 0x1.2fefa2p-17f, kInvLn2 = 0x1.715476p+0f;
  constexpr float kQ1 = -0x1.111112p-5f, kQ2 = 0x1.a01a02p-10f, kQ3 = -0x1.4ce19ap-14f;
  constexpr float kQ4 = 0x1.0cfca8p-18f, kQ5 = -0x1.afdb76p-23f;
  const __m256i ix = as_int(x), hx = magnitude(ix), negative = _mm256_srai_epi32(ix, 31);
  *special = greater(hx, 0x42b17217);
  const __m256i minus_one = _mm256_and_si256(negative, greater(hx, 0x4195b843));
  const __m256i tiny = _mm256_cmpgt_epi32(splat(0x33000000), hx);
  // k = 0 for |x| <= ln2 / 2, +-1 below 1.5 ln2 (x -+ ln2_hi is then what t ln2_hi gives), else
  // the truncated x / ln2 +- 1/2.
  const __m256i reduce = greater(hx, 0x3eb17218), one_step = greater(splat(0x3f851592), hx);
  const __m256 half = pick(negative, splat(-0.5f), splat(0.5f));
  __m256i k = _mm256_cvttps_epi32(add(mul(splat(kInvLn2), x), half));
  k = pick_int(one_step, _mm256_or_si256(negative, splat(1)), k);
  k = _mm256_and_si256(reduce, k);
  const __m256 t = _mm256_cvtepi32_ps(k);
  const __m256 hi = sub(x, mul(t, splat(kLn2Hi))), lo = mul(t, splat(kLn2Lo));
  const __m256 xr = sub(hi, lo), c = sub(sub(hi, xr), lo);
  const __m256 hfx = mul(xr, splat(0.5f)), hxs = mul(xr, hfx);
  __m256 r1 = add(mul(splat(kQ5), hxs), splat(kQ4));
  r1 = add(mul(r1, hxs), splat(kQ3));
  r1 = add(mul(r1, hxs), splat(kQ2));
  r1 = add(mul(r1, hxs), splat(kQ1));
  r1 = add(mul(r1, hxs), splat(1.0f));
  const __m256 t3 = sub(splat(3.0f), mul(hfx, r1));
  const __m256 e = mul(div(sub(r1, t3), sub(splat(6.0f), mul(t3, xr))), hxs);
  const __m256 k0 = sub(xr, sub(mul(e, xr), hxs));
  const __m256 ek = sub(sub(mul(sub(e, c), xr), c), hxs);
  const __m256 minus1 = sub(mul(sub(xr, ek), splat(0.5f)), splat(0.5f));
  const __m256 below = mul(splat(-2.0f), sub(ek, add(splat(0.5f), xr)));
  const __m256 twice = sub(xr, ek);
  const __m256 plus1 = pick(as_int(_mm256_cmp_ps(xr, splat(-0.25f), _CMP_LT_OQ)), below,
                            add(add(twice, twice), splat(1.0f)));
  const __m256 e_minus_x = sub(ek, xr);
  // k < -1 or k > 56: 1 - (e - x) scaled by 2^k, less one.
  const __m256 far = sub(add_exponent(sub(splat(1.0f), e_minus_x), k), splat(1.0f));
  // 2 <= k <= 22: 1 - 2^-k, 23 <= k <= 56: 2^-k, each scaled by 2^k.
  const __m256 low_t =
      as_float(_mm256_sub_epi32(splat(0x3f800000), _mm256_srlv_epi32(splat(0x1000000), k)));
  const __m256 low = add_exponent(sub(low_t, e_minus_x), k);
  const __m256 high_t = as_float(_mm256_slli_epi32(_mm256_sub_epi32(splat(0x7f), k), 23));
  const __m256 high = add_exponent(add(sub(xr, add(ek, high_t)), splat(1.0f)), k);
  __m256 y = pick(greater(k, 22), high, low);
  y = pick(_mm256_or_si256(greater(splat(-1), k), greater(k, 56)), far, y);
  y = pick(equal(k, 1), plus1, y);
  y = pick(equal(k, -1), minus1, y);
  y = pick(equal(k, 0), k0, y);
  y = pick(tiny, x, y);
  return pick(minus_one, splat(-1.0f), y);
}

/// float32 expm1: glibc's expm1f.
struct Expm1F32 {
  using T = float;
  static constexpr int kLanes = 8, kProbeLo = -26, kProbeHi = 6;
  static T library(T x) { return ::expm1f(x); }
  GPUPY_AVX2_F32 static int eval(const T* a, T* res) {
    __m256i special;
    _mm256_storeu_ps(res, expm1f_lanes(_mm256_loadu_ps(a), &special));
    return bits_of(special);
  }
};

/// float32 tanh: glibc's tanhf, 1 - 2 / (expm1f(2|x|) + 2) for |x| >= 1 and
/// -t / (t + 2), t = expm1f(-2|x|), below, with the sign of x; 1 from 22 on, x (1 + x) below
/// 2^-55. Infinite and NaN lanes go to the library.
struct TanhF32 {
  using T = float;
  static constexpr int kLanes = 8, kProbeLo = -56, kProbeHi = 4;
  static T library(T x) { return ::tanhf(x); }
  GPUPY_AVX2_F32 static int eval(const T* a, T* res) {
    const __m256 x = _mm256_loadu_ps(a);
    const __m256i ix = as_int(x), ax = magnitude(ix);
    const __m256 sign = as_float(_mm256_andnot_si256(splat(0x7fffffff), ix));
    const __m256 abs_x = as_float(ax);
    const __m256i large = greater(ax, 0x3f7fffff);
    const __m256 arg = pick(large, add(abs_x, abs_x), mul(abs_x, splat(-2.0f)));
    __m256i unused;
    const __m256 t = expm1f_lanes(arg, &unused), t2 = add(t, splat(2.0f));
    const __m256 below = div(_mm256_xor_ps(t, splat(-0.0f)), t2);
    __m256 z = pick(large, sub(splat(1.0f), div(splat(2.0f), t2)), below);
    z = pick(greater(ax, 0x41afffff), splat(1.0f), z);
    z = _mm256_xor_ps(z, sign);
    z = pick(greater(splat(0x24000000), ax), mul(add(splat(1.0f), x), x), z);
    _mm256_storeu_ps(res, z);
    return bits_of(greater(ax, 0x7f7fffff));
  }
};

/// float32 log1p: glibc's log1pf for -1 < x < 2^53 (f = 1 + x normalised to [sqrt(2)/2, sqrt(2))
/// with a correction term c, or f = x for -0.29 < x < 0.41; then the series in s = f / (2 + f),
/// or a shorter one where 1 + x is a power of two). Lanes at or below -1, NaN and from 2^53 on
/// (+inf included) go to the library.
struct Log1pF32 {
  using T = float;
  static constexpr int kLanes = 8, kProbeLo = -30, kProbeHi = 2;
  static T library(T x) { return ::log1pf(x); }
  GPUPY_AVX2_F32 static int eval(const T* a, T* res) {
    constexpr float kLn2Hi = 0x1.62e3p-1f, kLn2Lo = 0x1.2fefa2p-17f;
    constexpr float kLp[8] = {0,
                              0x1.555556p-1f,
                              0x1.99999ap-2f,
                              0x1.24924ap-2f,
                              0x1.c71c52p-3f,
                              0x1.74664ap-3f,
                              0x1.39a09ep-3f,
                              0x1.2f112ep-3f};
    const __m256 x = _mm256_loadu_ps(a), one = splat(1.0f);
    const __m256i hx = as_int(x), ax = magnitude(hx);
    const __m256i upper = greater(hx, 0x3ed413d6);  // x >= sqrt(2) - 1
    const __m256i special = pick_int(upper, greater(hx, 0x59ffffff), greater(ax, 0x3f7fffff));
    const __m256i tiny = _mm256_andnot_si256(upper, greater(splat(0x31000000), ax));
    // -0.29 < x < sqrt(2) - 1 (not tiny): k = 0, f = x.
    const __m256i shifted = _mm256_add_epi32(hx, splat(0x416a09e0));
    const __m256i direct = _mm256_andnot_si256(upper, greater_unsigned(shifted, 0x416a09e0));
    // Elsewhere u = 1 + x = 2^k (1 + f) with c the rounding error of 1 + x, over u.
    const __m256 u = add(x, one);
    const __m256i hu = as_int(u);
    __m256i k = _mm256_sub_epi32(_mm256_srai_epi32(hu, 23), splat(127));
    const __m256 c = div(pick(greater(k, 0), sub(one, sub(u, x)), sub(x, sub(u, one))), u);
    __m256i m = _mm256_and_si256(hu, splat(0x7fffff));
    const __m256i upper_half = greater(m, 0x3504f6);
    k = _mm256_sub_epi32(k, upper_half);
    const __m256 un =
        as_float(_mm256_or_si256(m, pick_int(upper_half, splat(0x3f000000), splat(0x3f800000))));
    m = pick_int(upper_half, _mm256_srai_epi32(_mm256_sub_epi32(splat(0x800000), m), 2), m);
    k = _mm256_andnot_si256(direct, k);
    const __m256 f = pick(direct, x, sub(un, one));
    const __m256i short_series = _mm256_andnot_si256(direct, equal(m, 0));
    const __m256 hfsq = mul(mul(splat(0.5f), f), f);
    const __m256 kf = _mm256_cvtepi32_ps(k);
    const __m256 k_hi = mul(kf, splat(kLn2Hi)), k_lo = add(mul(kf, splat(kLn2Lo)), c);
    const __m256 s = div(f, add(splat(2.0f), f)), z = mul(s, s);
    __m256 r = add(mul(splat(kLp[7]), z), splat(kLp[6]));
    for (int j = 5; j >= 1; --j) r = add(mul(r, z), splat(kLp[j]));
    const __m256 w = mul(add(mul(r, z), hfsq), s);
    const __m256i k_zero = equal(k, 0);
    __m256 y = pick(k_zero, sub(f, sub(hfsq, w)), sub(k_hi, sub(sub(hfsq, add(k_lo, w)), f)));
    // Where the mantissa bits glibc tests (hu) are 0: a shorter series, or k ln2 + c where f = 0.
    const __m256 rp = mul(sub(one, mul(splat(kLp[1]), f)), hfsq);
    __m256 yp = pick(k_zero, sub(f, rp), sub(k_hi, sub(sub(rp, k_lo), f)));
    const __m256 at_one = add(k_lo, k_hi);
    yp = pick(as_int(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_EQ_OQ)),
              _mm256_andnot_ps(as_float(k_zero), at_one), yp);
    y = pick(short_series, yp, y);
    const __m256 x_sq = mul(x, x);
    y = pick(tiny, pick(greater(ax, 0x247fffff), sub(x, mul(x_sq, splat(0.5f))), x), y);
    _mm256_storeu_ps(res, y);
    return bits_of(special);
  }
};

}  // namespace

bool libm_replay_fdlibm(FastOp op, const float* a, float* o, int64_t n) {
  switch (op) {
    case FastOp::expm1:
      return run_unary<Expm1F32>(a, o, n);
    case FastOp::log1p:
      return run_unary<Log1pF32>(a, o, n);
    case FastOp::tanh:
      return run_unary<TanhF32>(a, o, n);
    default:
      return false;
  }
}

}  // namespace gpupy::cpu

#else  // not x86-64: glibc's x86-64 build does not apply

namespace gpupy::cpu {
bool libm_replay_fdlibm(FastOp, const float*, float*, int64_t) { return false; }
}  // namespace gpupy::cpu

#endif
