// AVX2 loops for float32 expm1, log1p, tanh and arctan2 that perform, in each of eight lanes, the
// float operations of glibc's expm1f, log1pf, tanhf and atan2f (with its atanf): the fdlibm-derived
// sysdeps/ieee754/flt-32 code, which x86-64 builds for SSE2 only (no fused operations, one variant
// on every CPU), in the same order, so each result is the library's bit for bit. The order was
// read off the library's machine code (objdump of Debian 12's glibc 2.36 libm), which follows the
// C source operation for operation. Lanes whose input is infinite, NaN, out of the function's
// domain or past its overflow threshold (atan2f: a zero argument) call the library. Built with
// -ffp-contract=off. Host only.
#include <bit>
#include <cmath>
#include <iterator>
#include <vector>

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
    // One division for both rows: 2 / (t + 2) from 1 on, -t / (t + 2) below.
    const __m256 q = div(pick(large, splat(2.0f), _mm256_xor_ps(t, splat(-0.0f))), t2);
    __m256 z = pick(large, sub(splat(1.0f), q), q);
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

/// atanf(v) as glibc's atanf computes it, for every v but NaN: v itself below 2^-29 (and the
/// series below 7/16), atan(c) plus the series in (|v| - c) / (1 + c |v|) for c = 1/2, 1, 3/2,
/// inf up to 2^26, pi/2 from there on, each with the sign of v.
GPUPY_AVX2_F32 __m256 atanf_lanes(__m256 v) {
  constexpr float kAtanHi[4] = {0x1.dac67p-2f, 0x1.921fb4p-1f, 0x1.f730bcp-1f, 0x1.921fb4p+0f};
  constexpr float kAtanLo[4] = {0x1.586ed2p-28f, 0x1.4442d0p-25f, 0x1.281f68p-25f, 0x1.4442d0p-24f};
  constexpr float kOdd[6] = {0x1.0ad3aep-6f, 0x1.97b4b2p-5f, 0x1.10d66ap-4f,
                             0x1.745cdcp-4f, 0x1.24924ap-3f, 0x1.555556p-2f};
  constexpr float kEven[5] = {-0x1.2b4442p-5f, -0x1.dde2d6p-5f, -0x1.3b0f2ap-4f, -0x1.c71c70p-4f,
                              -0x1.99999ap-3f};
  const __m256i iv = as_int(v), ix = magnitude(iv);
  const __m256 sign = as_float(_mm256_andnot_si256(splat(0x7fffffff), iv)), a = as_float(ix);
  const __m256 one = splat(1.0f), three_halves = splat(1.5f);
  const __m256i id_ge0 = greater(ix, 0x3edfffff), id_ge1 = greater(ix, 0x3f2fffff);
  const __m256i id_ge2 = greater(ix, 0x3f97ffff), id_ge3 = greater(ix, 0x401bffff);
  // One division for every row: (2a - 1) / (2 + a), (a - 1) / (a + 1), (a - 1.5) / (1 + 1.5 a),
  // -1 / a.
  __m256 num = pick(id_ge1, sub(a, one), sub(add(a, a), one));
  __m256 den = pick(id_ge1, add(a, one), add(a, splat(2.0f)));
  num = pick(id_ge2, sub(a, three_halves), num);
  den = pick(id_ge2, add(mul(a, three_halves), one), den);
  num = pick(id_ge3, splat(-1.0f), num);
  den = pick(id_ge3, a, den);
  const __m256 t = pick(id_ge0, div(num, den), v);
  const __m256 z = mul(t, t), w = mul(z, z);
  __m256 s1 = splat(kOdd[0]);
  for (int j = 1; j < 6; ++j) s1 = add(mul(s1, w), splat(kOdd[j]));
  __m256 s2 = splat(kEven[0]);
  for (int j = 1; j < 5; ++j) s2 = add(mul(s2, w), splat(kEven[j]));
  const __m256 q = mul(add(mul(s1, z), mul(s2, w)), t);
  const __m256i id = _mm256_add_epi32(_mm256_add_epi32(id_ge1, id_ge2), id_ge3);  // -row
  const __m256i row = _mm256_sub_epi32(_mm256_setzero_si256(), id);
  const __m256 hi =
      _mm256_permutevar_ps(_mm256_broadcast_ps(reinterpret_cast<const __m128*>(kAtanHi)), row);
  const __m256 lo =
      _mm256_permutevar_ps(_mm256_broadcast_ps(reinterpret_cast<const __m128*>(kAtanLo)), row);
  __m256 r = pick(id_ge0, _mm256_xor_ps(sub(hi, sub(sub(q, lo), t)), sign), sub(t, q));
  r = pick(greater(splat(0x31000000), ix), v, r);
  return pick(greater(ix, 0x4bffffff),
              _mm256_xor_ps(add(splat(kAtanHi[3]), splat(kAtanLo[3])), sign), r);
}

/// float32 arctan2: glibc's atan2f, atanf(|y / x|) moved to the quadrant of (x, y) (pi/2 where
/// |y / x| passes 2^60, 0 where it is below 2^-60 for negative x), atanf(y) where x = 1. Lanes
/// with a zero, infinite or NaN argument go to the library.
struct Atan2F32 {
  using T = float;
  static constexpr int kLanes = 8;
  static T library(T y, T x) { return ::atan2f(y, x); }
  GPUPY_AVX2_F32 static int eval(const T* yp, int64_t sy, const T* xp, int64_t sx, T* res) {
    constexpr float kPi = 0x1.921fb6p+1f, kPiLo = -0x1.777a5cp-24f;
    const __m256 y = avx2::load8(yp, sy), x = avx2::load8(xp, sx);
    const __m256i hy = as_int(y), hx = as_int(x), iy = magnitude(hy), ix = magnitude(hx);
    const __m256i special =
        _mm256_or_si256(_mm256_or_si256(greater(ix, 0x7f7fffff), greater(iy, 0x7f7fffff)),
                        _mm256_or_si256(equal(ix, 0), equal(iy, 0)));
    const __m256i x_one = equal(hx, 0x3f800000);
    const __m256 ratio = _mm256_andnot_ps(splat(-0.0f), div(y, x));
    const __m256 atan = atanf_lanes(pick(x_one, y, ratio));
    // |y / x| past 2^60: pi/2 + pi_lo / 2; below 2^-60 with x negative: 0.
    const __m256i d = _mm256_sub_epi32(iy, ix);
    __m256 z =
        _mm256_andnot_ps(as_float(_mm256_and_si256(_mm256_srai_epi32(hx, 31),
                                                   greater(splat(-60), _mm256_srai_epi32(d, 23)))),
                         atan);
    z = pick(greater(d, 0x1e7fffff), sub(splat(0x1.921fb6p+0f), splat(-0.5f * kPiLo)), z);
    const __m256 z_lo = sub(z, splat(kPiLo));
    __m256 r = _mm256_xor_ps(z, as_float(_mm256_andnot_si256(splat(0x7fffffff), hy)));
    const __m256 left =
        pick(_mm256_srai_epi32(hy, 31), sub(z_lo, splat(kPi)), sub(splat(kPi), z_lo));
    r = pick(_mm256_srai_epi32(hx, 31), left, r);
    _mm256_storeu_ps(res, pick(x_one, atan, r));
    return bits_of(special);
  }
};

/// (y, x) pairs on which the loop must agree with the library before it is used: every binade of
/// y (both signs) against x of every sign and size (1 and tiny and huge ratios among them), and
/// ~16k pairs with ratios log-uniform in [2^-70, 2^70] in all four quadrants.
bool atan2_agrees_with_library() {
  std::vector<float> ys, xs;
  const float kX[] = {1.0f,   -1.0f,  2.0f, -0.5f,    3.0f,  -7.5f,
                      1e-30f, -1e30f, 0.0f, INFINITY, 1e-40f};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  size_t e = 0;
  for (uint32_t exponent = 0; exponent < 256; ++exponent)
    for (int m = 0; m < 4; ++m) {
      const uint32_t bits = (exponent << 23) | uint32_t(next() >> 41) | (m < 2 ? 0 : 0x80000000u);
      ys.push_back(std::bit_cast<float>(bits));
      xs.push_back(kX[e++ % std::size(kX)]);
    }
  for (int i = 0; i < 16384; ++i) {
    const double x = std::exp2(-20 + 40 * double(next() >> 11) * 0x1p-53);
    const double ratio = std::exp2(-70 + 140 * double(next() >> 11) * 0x1p-53);
    xs.push_back(float(next() & 1 ? -x : x));
    ys.push_back(float(next() & 1 ? -x * ratio : x * ratio));
  }
  return avx2::binary_agrees_with_library<Atan2F32>(ys, xs);
}

}  // namespace

bool libm_replay_atan2(const float* y, int64_t sy, const float* x, int64_t sx, float* o,
                       int64_t n) {
  return avx2::run_binary<Atan2F32>(atan2_agrees_with_library, y, sy, x, sx, o, n);
}

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
bool libm_replay_atan2(const float*, int64_t, const float*, int64_t, float*, int64_t) {
  return false;
}
}  // namespace gpupy::cpu

#endif
