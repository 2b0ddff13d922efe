// AVX2 loops for float64 exp, exp2 and log, float32 exp, exp2, log, log2, sin and cos that
// perform, in each lane, the operations glibc's x86-64 code performs (the FMA variants __exp_fma,
// __log_fma, __expf_fma, __exp2f_fma, __logf_fma, __log2f_fma, __sinf_fma and __cosf_fma, which
// glibc picks on every CPU with AVX2 and FMA, and exp2, which has none), in the same order, with
// the same fused multiply-adds and tables, so each result is the library's bit for bit. Lanes those
// functions send to a slow or special path (out of range, subnormal, NaN, ...) call the library.
// Built with -ffp-contract=off: the only fusions are the ones written here. Host only.
#include "libm_replay.h"

#include <cmath>

#if defined(__x86_64__)
#include "libm_avx2.h"

namespace gpupy::cpu {
namespace {

using namespace avx2;  // NOLINT(google-build-using-namespace): the lane vocabulary of this file
using libm::kLog2fTable;
using libm::kLogfTable;
using libm::kLogTable;

/// float64 exp: __exp_fma. Lanes with |x| < 2^-54 or |x| >= 512 (or NaN) go to the library.
struct Exp64 {
  using T = double;
  static constexpr int kProbeLo = -54, kProbeHi = 8;
  static T library(T x) { return ::exp(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    const __m256d x = _mm256_loadu_pd(a);
    const auto [k, r] = exp_reduce(x);
    _mm256_storeu_pd(res, exp_finish(k, r));
    return _mm256_movemask_pd(_mm256_castsi256_pd(exp_special(x)));
  }
};

/// float64 exp2: glibc's exp2, which x86-64 builds without FMA (no fused operations here), on the
/// same table as exp. Lanes with |x| < 2^-54 or |x| >= 512 (or NaN) go to the library.
struct Exp2F64 {
  using T = double;
  static constexpr int kProbeLo = -54, kProbeHi = 8;
  static T library(T x) { return ::exp2(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    constexpr double kShift = 0x1.8p+45;  // 0x1.8p52 / 128
    constexpr double kC1 = 0x1.62e42fefa39efp-1, kC2 = 0x1.ebfbdff82c424p-3;
    constexpr double kC3 = 0x1.c6b08d70cf4b5p-5, kC4 = 0x1.3b2abd24650ccp-7;
    constexpr double kC5 = 0x1.5d7e09b4e3a84p-10;
    const __m256d x = _mm256_loadu_pd(a);
    const __m256i special = exp_special(x);
    __m256d kd = add(x, splat(kShift));
    const __m256i ki = _mm256_castpd_si256(kd);
    kd = sub(kd, splat(kShift));
    const __m256d r = sub(x, kd), r2 = mul(r, r);
    const auto [tail, scale] = exp_tail_scale(ki);
    const __m256d p23 = mul(r2, add(mul(r, splat(kC3)), splat(kC2)));
    const __m256d p45 = mul(mul(r2, r2), add(mul(r, splat(kC5)), splat(kC4)));
    const __m256d tmp = add(add(add(tail, mul(r, splat(kC1))), p23), p45);
    _mm256_storeu_pd(res, add(scale, mul(scale, tmp)));
    return _mm256_movemask_pd(_mm256_castsi256_pd(special));
  }
};

/// float64 log: __log_fma, both its path for x within about 1/16 of 1 and its table path.
/// Subnormal, negative, zero, infinite and NaN lanes go to the library.
struct Log64 {
  using T = double;
  static constexpr int kProbeLo = -2, kProbeHi = 1;  // the band around 1 and the tables about it
  static T library(T x) { return ::log(x); }
  GPUPY_AVX2 static __m256d near_one(__m256d x) {
    constexpr double kB[11] = {-0x1p-1,
                               0x1.5555555555577p-2,
                               -0x1.ffffffffffdcbp-3,
                               0x1.999999995dd0cp-3,
                               -0x1.55555556745a7p-3,
                               0x1.24924a344de30p-3,
                               -0x1.fffffa4423d65p-4,
                               0x1.c7184282ad6cap-4,
                               -0x1.999eb43b068ffp-4,
                               0x1.78182f7afd085p-4,
                               -0x1.5521375d145cdp-4};
    const __m256d r = sub(x, splat(1.0)), r2 = mul(r, r), r3 = mul(r, r2);
    const __m256d p123 = fma(r2, kB[3], fma(r, kB[2], kB[1]));
    const __m256d p456 = fma(r2, kB[6], fma(r, kB[5], kB[4]));
    const __m256d p7to10 = fma(r3, kB[10], fma(r2, kB[9], fma(r, kB[8], kB[7])));
    const __m256d q = fma(fma(p7to10, r3, p456), r3, p123);
    // r = rhi + rlo with rhi of 26 bits, so that rhi * rhi is exact.
    const __m256d c27 = splat(0x1p27);
    const __m256d rhi = _mm256_fnmadd_pd(c27, r, fma(r, c27, r)), rlo = sub(r, rhi);
    const __m256d rhi2 = mul(rhi, rhi), b0 = splat(kB[0]);
    const __m256d hi = fma(rhi2, b0, r);
    __m256d lo = fma(rhi2, b0, sub(r, hi));
    lo = fma(mul(b0, rlo), add(r, rhi), lo);
    return add(hi, fma(q, r3, lo));
  }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    constexpr double kLn2Hi = 0x1.62e42fefa3800p-1, kLn2Lo = 0x1.ef35793c76730p-45;
    constexpr double kA[5] = {-0x1.0000000000001p-1, 0x1.555555551305bp-2, -0x1.fffffffeb4590p-3,
                              0x1.999b324f10111p-3, -0x1.55575e506c89fp-3};
    const __m256d x = _mm256_loadu_pd(a);
    const __m256i ix = _mm256_castpd_si256(x);
    const __m256i far =
        greater_u64(_mm256_sub_epi64(ix, splat64(0x3fee000000000000)), 0x308ffffffffff);
    const __m256i top = _mm256_srli_epi64(ix, 48);
    const __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi64(splat64(0x10), top),
                                        _mm256_cmpgt_epi64(top, splat64(0x7fef)));
    const __m256i tmp = _mm256_sub_epi64(ix, splat64(0x3fe6000000000000));
    const __m256i idx = _mm256_and_si256(_mm256_srli_epi64(tmp, 45), splat64(127));
    const __m256d kd = shift52_to_double(tmp);  // tmp >> 52, arithmetic
    const __m256i iz =
        _mm256_sub_epi64(ix, _mm256_and_si256(tmp, splat64(int64_t(0xfff0000000000000))));
    const auto [invc, logc] = load_pairs(kLogTable, idx);
    const __m256d r = fma(_mm256_castsi256_pd(iz), invc, splat(-1.0));
    const __m256d w = fma(kd, kLn2Hi, logc);
    const __m256d p12 = fma(r, kA[2], kA[1]), hi = add(r, w), r2 = mul(r, r);
    __m256d lo = fma(kd, kLn2Lo, add(sub(w, hi), r));
    const __m256d p34 = fma(r, kA[4], kA[3]);
    lo = fma(r2, kA[0], lo);
    __m256d y = add(fma(mul(r, r2), fma(p34, r2, p12), lo), hi);
    if (_mm256_movemask_pd(_mm256_castsi256_pd(far)) != 0xf)
      y = _mm256_blendv_pd(near_one(x), y, _mm256_castsi256_pd(far));
    _mm256_storeu_pd(res, y);
    return _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_and_si256(bad, far)));
  }
};

/// float32 log and log2: __logf_fma and __log2f_fma. Lanes outside the positive normal floats go
/// to the library; x = 1 gives +0, as there.
template <bool kBase2>
struct LogF32 {
  using T = float;
  static constexpr int kProbeLo = -2, kProbeHi = 1;
  static T library(T x) { return kBase2 ? ::log2f(x) : ::logf(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    const __m128i ix = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
    const __m128i special = greater_u32(_mm_sub_epi32(ix, splat32(0x00800000)), 0x7effffff);
    const __m128i one = _mm_cmpeq_epi32(ix, splat32(0x3f800000));
    const __m128i tmp = _mm_sub_epi32(ix, splat32(0x3f330000));
    const __m128i idx = _mm_and_si128(_mm_srli_epi32(tmp, 19), splat32(15));
    const __m256d kd = _mm256_cvtepi32_pd(_mm_srai_epi32(tmp, 23));
    const __m128i iz = _mm_sub_epi32(ix, _mm_and_si128(tmp, splat32(int32_t(0xff800000u))));
    const double* table = kBase2 ? kLog2fTable : kLogfTable;
    const auto [invc, logc] = load_pairs(table, idx);
    const __m256d r = fma(_mm256_cvtps_pd(_mm_castsi128_ps(iz)), invc, splat(-1.0)), r2 = mul(r, r);
    __m256d y;
    if constexpr (kBase2) {
      constexpr double kA[4] = {-0x1.712b6f70a7e4dp-2, 0x1.ecabf496832e0p-2, -0x1.715479ffae3dep-1,
                                0x1.715475f35c8b8p+0};
      const __m256d p = fma(r2, kA[0], fma(r, kA[1], kA[2]));
      y = fma(r2, p, fma(r, kA[3], add(kd, logc)));
    } else {
      constexpr double kLn2 = 0x1.62e42fefa39efp-1;
      constexpr double kA[3] = {-0x1.00ea348b88334p-2, 0x1.5575b0be00b6ap-2, -0x1.ffffef20a4123p-2};
      const __m256d p = fma(r2, kA[0], fma(r, kA[1], kA[2]));
      y = fma(r2, p, add(r, fma(kd, kLn2, logc)));
    }
    const __m128 yf = _mm_andnot_ps(_mm_castsi128_ps(one), _mm256_cvtpd_ps(y));
    _mm_storeu_ps(res, yf);
    return _mm_movemask_ps(_mm_castsi128_ps(special));
  }
};

/// float32 exp and exp2: __expf_fma (|x| < 88) and __exp2f_fma (|x| < 128). Larger, infinite and
/// NaN lanes go to the library.
template <bool kBase2>
struct ExpF32 {
  using T = float;
  static constexpr int kProbeLo = -30, kProbeHi = 6;
  static T library(T x) { return kBase2 ? ::exp2f(x) : ::expf(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    constexpr double kShift = kBase2 ? 0x1.8p+47 : 0x1.8p+52, kInvLn2N = 0x1.71547652b82fep+5;
    constexpr double kC0 = kBase2 ? 0x1.c6af84b912394p-5 : 0x1.c6af84b912394p-20;
    constexpr double kC1 = kBase2 ? 0x1.ebfce50fac4f3p-3 : 0x1.ebfce50fac4f3p-13;
    constexpr double kC2 = kBase2 ? 0x1.62e42ff0c52d6p-1 : 0x1.62e42ff0c52d6p-6;
    const __m128 xf = _mm_loadu_ps(a);
    const __m128i top = _mm_and_si128(_mm_srli_epi32(_mm_castps_si128(xf), 20), splat32(0x7ff));
    const __m128i special = _mm_cmpgt_epi32(top, splat32(kBase2 ? 0x42f : 0x42a));
    const __m256d x = _mm256_cvtps_pd(xf);
    // x = (k + r) / 32 (exp2) or (k + r) ln2 / 32 (exp), with integer k.
    __m256d kd, r;
    if constexpr (kBase2) {
      kd = add(x, splat(kShift));
      r = sub(x, sub(kd, splat(kShift)));
    } else {
      kd = fma(x, kInvLn2N, kShift);
      r = _mm256_fmsub_pd(splat(kInvLn2N), x, sub(kd, splat(kShift)));
    }
    _mm_storeu_ps(res, _mm256_cvtpd_ps(exp2f_finish(kd, r, kC0, kC1, kC2)));
    return _mm_movemask_ps(_mm_castsi128_ps(special));
  }
};

/// The coefficients of __sincosf_table: [0] for quadrants 0 and 1, [1] (some signs flipped) for
/// 2 and 3.
struct SinCosCoefficients {
  double c0, c1, s1, c2, s2, c3, s3, c4;
};
constexpr SinCosCoefficients kSinCos[2] = {
    {0x1p0, -0x1.ffffffd0c621cp-2, -0x1.555545995a603p-3, 0x1.55553e1068f19p-5,
     0x1.1107605230bc4p-7, -0x1.6c087e89a359dp-10, -0x1.994eb3774cf24p-13, 0x1.99343027bf8c3p-16},
    {-0x1p0, 0x1.ffffffd0c621cp-2, -0x1.555545995a603p-3, -0x1.55553e1068f19p-5,
     0x1.1107605230bc4p-7, 0x1.6c087e89a359dp-10, -0x1.994eb3774cf24p-13, -0x1.99343027bf8c3p-16},
};

GPUPY_AVX2 __m128i bit_set(__m128i v, int bit) {
  return _mm_cmpeq_epi32(_mm_and_si128(v, splat32(bit)), splat32(bit));
}
/// if_set where mask, else if_clear.
GPUPY_AVX2 __m256d select(__m256d mask, double if_set, double if_clear) {
  return _mm256_blendv_pd(splat(if_clear), splat(if_set), mask);
}

/// Coefficient c of kSinCos[1] where `second`, else of kSinCos[0].
GPUPY_AVX2 __m256d coef(__m256d second, double SinCosCoefficients::*c) {
  return select(second, kSinCos[1].*c, kSinCos[0].*c);
}

/// float32 sin and cos: __sinf_fma and __cosf_fma for |x| < 120. |x| < pi/4 is quadrant 0
/// without reduction; |x| < 2^-12 returns x (sin) or 1 (cos). Larger, infinite and NaN lanes go
/// to the library.
template <bool kCos>
struct SinCosF32 {
  using T = float;
  static constexpr int kProbeLo = -12, kProbeHi = 6;
  static T library(T x) { return kCos ? ::cosf(x) : ::sinf(x); }
  GPUPY_AVX2 static int eval(const T* a, T* res) {
    constexpr double kHalfPiInv = 0x1.45f306dc9c883p+23, kHalfPi = 0x1.921fb54442d18p+0;
    const __m128 xf = _mm_loadu_ps(a);
    const __m128i top = _mm_and_si128(_mm_srli_epi32(_mm_castps_si128(xf), 20), splat32(0x7ff));
    const __m128i special = _mm_cmpgt_epi32(top, splat32(0x42e));
    const __m128i tiny = _mm_cmpgt_epi32(splat32(0x398), top);
    const __m128i small = _mm_cmpgt_epi32(splat32(0x3f4), top);
    const __m256d x = _mm256_cvtps_pd(xf);
    // n = round(x / (pi/2)) through a shift of 2^24 (0 where |x| < pi/4), and x - n pi/2.
    __m128i n = _mm256_cvttpd_epi32(mul(x, splat(kHalfPiInv)));
    n = _mm_andnot_si128(small, _mm_srai_epi32(_mm_add_epi32(n, splat32(0x800000)), 24));
    const __m256d xr = _mm256_fnmadd_pd(_mm256_cvtepi32_pd(n), splat(kHalfPi), x);
    const __m256d second = lanes(bit_set(n, 2));  // quadrants 2 and 3 use kSinCos[1]
    const __m256d negative = lanes(bit_set(_mm_add_epi32(n, splat32(1)), 2));
    const __m256d odd = lanes(bit_set(n, 1));  // sin of an odd quadrant is a cos, and vice versa
    using C = SinCosCoefficients;
    const __m256d x2 = mul(xr, xr);
    const __m256d xs = mul(xr, select(negative, -1.0, 1.0));
    const __m256d x3 = mul(x2, xs), x7 = mul(x2, x3);
    const __m256d sin = fma(fma(x2, coef(second, &C::s3), coef(second, &C::s2)), x7,
                            fma(x3, coef(second, &C::s1), xs));
    const __m256d x4 = mul(x2, x2), x6 = mul(x2, x4);
    const __m256d c01 = fma(x2, coef(second, &C::c1), coef(second, &C::c0));
    const __m256d c34 = fma(x2, coef(second, &C::c4), coef(second, &C::c3));
    const __m256d cos = fma(c34, x6, fma(x4, coef(second, &C::c2), c01));
    const __m256d y = kCos ? _mm256_blendv_pd(cos, sin, odd) : _mm256_blendv_pd(sin, cos, odd);
    const __m128 tiny_value = kCos ? _mm_set1_ps(1.0f) : xf;
    _mm_storeu_ps(res, _mm_blendv_ps(_mm256_cvtpd_ps(y), tiny_value, _mm_castsi128_ps(tiny)));
    return _mm_movemask_ps(_mm_castsi128_ps(special));
  }
};

}  // namespace

bool libm_replay(FastOp op, const float* a, float* o, int64_t n) {
  switch (op) {
    case FastOp::exp:
      return run_unary<ExpF32<false>>(a, o, n);
    case FastOp::exp2:
      return run_unary<ExpF32<true>>(a, o, n);
    case FastOp::log:
      return run_unary<LogF32<false>>(a, o, n);
    case FastOp::log2:
      return run_unary<LogF32<true>>(a, o, n);
    case FastOp::sin:
      return run_unary<SinCosF32<false>>(a, o, n);
    case FastOp::cos:
      return run_unary<SinCosF32<true>>(a, o, n);
    default:
      return libm_replay_fdlibm(op, a, o, n);
  }
}

bool libm_replay(FastOp op, const double* a, double* o, int64_t n) {
  switch (op) {
    case FastOp::exp:
      return run_unary<Exp64>(a, o, n);
    case FastOp::exp2:
      return run_unary<Exp2F64>(a, o, n);
    case FastOp::log:
      return run_unary<Log64>(a, o, n);
    case FastOp::cos:
      return libm_replay_trig64(op, a, o, n);
    default:
      return libm_replay_fdlibm(op, a, o, n);
  }
}

}  // namespace gpupy::cpu

#else  // not x86-64: glibc's x86-64 variants do not apply

namespace gpupy::cpu {
bool libm_replay(FastOp, const float*, float*, int64_t) { return false; }
bool libm_replay(FastOp, const double*, double*, int64_t) { return false; }
}  // namespace gpupy::cpu

#endif
