// An AVX2 loop for float64 cos that performs, in each lane, the operations of glibc's x86-64
// __cos_fma (IBM's s_sin.c built with -mfma -mavx2, which glibc picks on every CPU with AVX2 and
// FMA), in the same order, with the same fused multiply-adds and table, so each result is the
// library's bit for bit. The fusions were read off the library's machine code (objdump of Debian
// 12's glibc 2.36 libm). Lanes with |x| >= 105414350 (the multi-word reduction), infinite or NaN
// call the library. Built with -ffp-contract=off: the only fusions are the ones written here.
// Host only.
#include <cmath>

#include "libm_replay.h"

#if defined(__x86_64__)
#include "libm_avx2.h"

namespace gpupy::cpu {
namespace {

using namespace avx2;  // NOLINT(google-build-using-namespace): the lane vocabulary of this file

// s_sin.c's constants: pi/2 as hp0 + hp1 and, for the reduction, as mp1 + mp2 + pp3 + pp4.
constexpr double kHp0 = 0x1.921fb54442d18p0, kHp1 = 0x1.1a62633145c07p-54;
constexpr double kMp1 = 0x1.921fb58000000p0, kMp2 = -0x1.dde973c000000p-27;
constexpr double kPp3 = -0x1.cb3b398000000p-55, kPp4 = -0x1.d747f23e32ed7p-83;
constexpr double kHalfPiInv = 0x1.45f306dc9c883p-1, kToInt = 0x1.8p52;
// big + |x| rounds |x| to a multiple of 1/128, the table's step, whose index the low bits hold.
constexpr double kBig = 0x1.8p45;

GPUPY_AVX2 __m256d negate(__m256d v) { return _mm256_xor_pd(v, splat(-0.0)); }
GPUPY_AVX2 __m256d abs(__m256d v) { return _mm256_andnot_pd(splat(-0.0), v); }
/// Lanes where a < b (ordered).
GPUPY_AVX2 __m256d less(__m256d a, __m256d b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
/// if_set where mask, else if_clear.
GPUPY_AVX2 __m256d pick(__m256d mask, __m256d if_set, __m256d if_clear) {
  return _mm256_blendv_pd(if_clear, if_set, mask);
}

/// Lanes where the 64-bit integer k is below bound.
GPUPY_AVX2 __m256d below(__m256i k, int64_t bound) {
  return _mm256_castsi256_pd(_mm256_cmpgt_epi64(splat64(bound), k));
}

/// A number of the form a + da with |a| below about 0.86, as do_sin and do_cos take it, and the
/// table row {sin, its rest, cos, its rest} of the multiple of 1/128 nearest |a|.
struct Reduced {
  __m256d a, da;
  __m256d sn, ssn, cs, ccs;
  __m256d offset;  // |a| minus that multiple
};

GPUPY_AVX2 Reduced with_table_row(__m256d a, __m256d da) {
  // Every lane has |a| < 0.8556 (special lanes come with a = 0), so the row is at most 109.
  const __m256d big = splat(kBig), u = add(abs(a), big);
  const Index4 row = lane_indices(_mm256_and_si256(_mm256_castpd_si256(u), splat64(0xff)));
  const auto* table = reinterpret_cast<const double*>(libm::kSinCosTable);
  const __m256d r0 = _mm256_loadu_pd(table + 4 * row.i[0]),
                r1 = _mm256_loadu_pd(table + 4 * row.i[1]);
  const __m256d r2 = _mm256_loadu_pd(table + 4 * row.i[2]),
                r3 = _mm256_loadu_pd(table + 4 * row.i[3]);
  // 4x4 transpose: column j of the rows is entry j of the four lanes.
  const __m256d lo01 = _mm256_unpacklo_pd(r0, r1), hi01 = _mm256_unpackhi_pd(r0, r1);
  const __m256d lo23 = _mm256_unpacklo_pd(r2, r3), hi23 = _mm256_unpackhi_pd(r2, r3);
  return {a,
          da,
          _mm256_permute2f128_pd(lo01, lo23, 0x20),
          _mm256_permute2f128_pd(hi01, hi23, 0x20),
          _mm256_permute2f128_pd(lo01, lo23, 0x31),
          _mm256_permute2f128_pd(hi01, hi23, 0x31),
          sub(abs(a), sub(u, big))};
}

/// s_sin.c's sin and cos polynomials in x^2: sn3 + xx sn5 and cs2 + xx (cs4 + xx cs6).
GPUPY_AVX2 __m256d sin_poly(__m256d xx) {
  return fma(xx, 0x1.11110e829872fp-7, -0x1.5555555555515p-3);
}
GPUPY_AVX2 __m256d cos_poly(__m256d xx) {
  return fma(xx, fma(xx, 0x1.6c16bedd9e239p-10, -0x1.5555555555535p-5), splat(0.5));
}

/// do_cos(a, da) where use_cos, else do_sin(a, da) without its Taylor case. Their chains are one
/// with the table's sin and cos (and s's sign) swapped: cos is cs + (ccs - s ssn - c cs - s sn),
/// sin is sn + (ssn + s ccs - c sn + s cs); they differ in x (do_cos folds dx in) and in how s and
/// c take dx.
GPUPY_AVX2 __m256d sin_or_cos(const Reduced& r, __m256d use_cos) {
  // Where dx = -da: a < 0 for do_cos, a <= 0 for do_sin.
  const __m256d flip_dx =
      pick(use_cos, less(r.a, splat(0.0)), _mm256_cmp_pd(r.a, splat(0.0), _CMP_LE_OQ));
  const __m256d dx = pick(flip_dx, negate(r.da), r.da);
  const __m256d x = pick(use_cos, add(r.offset, dx), r.offset), xx = mul(x, x);
  const __m256d x3 = mul(x, xx), sp = sin_poly(xx), cp = mul(xx, cos_poly(xx));
  const __m256d s = pick(use_cos, fma(x3, sp, x), add(x, fma(x3, sp, dx)));
  const __m256d c = pick(use_cos, cp, fma(x, dx, cp));
  const __m256d main = pick(use_cos, r.cs, r.sn), main_rest = pick(use_cos, r.ccs, r.ssn);
  const __m256d other = pick(use_cos, r.sn, r.cs), other_rest = pick(use_cos, r.ssn, r.ccs);
  const __m256d signed_s = _mm256_xor_pd(s, _mm256_and_pd(use_cos, splat(-0.0)));
  __m256d cor = fma(signed_s, other_rest, main_rest);
  cor = _mm256_fnmadd_pd(c, main, cor);
  cor = fma(signed_s, other, cor);
  // do_sin returns copysign(sn + cor, a); do_cos's cs + cor is positive.
  const __m256d sign = _mm256_andnot_pd(use_cos, _mm256_and_pd(r.a, splat(-0.0)));
  return _mm256_or_pd(abs(add(main, cor)), sign);
}

/// do_sin's TAYLOR_SIN for |a| < 0.126: a + ((s1 + xx (s2 + xx (s3 + xx (s4 + xx s5)))) a - da / 2)
/// xx + da, with xx = a^2.
GPUPY_AVX2 __m256d taylor_sin(__m256d a, __m256d da) {
  const __m256d aa = mul(a, a);
  __m256d p = fma(aa, -0x1.addffc2fcdf59p-26, 0x1.71de27b9a7ed9p-19);
  p = fma(aa, p, splat(-0x1.a01a019db08b8p-13));
  p = fma(aa, p, splat(0x1.1111111110ecep-7));
  p = fma(aa, p, splat(-0x1.5555555555555p-3));
  return add(a, fma(aa, _mm256_fmsub_pd(p, a, mul(da, splat(0.5))), da));
}

/// float64 cos: __cos_fma for |x| < 105414350. Below 0.855469 it is do_cos(x, 0); below 2.426265
/// do_sin of pi/2 - |x|; beyond, x less the nearest multiple n of pi/2 (to 136 bits), whose
/// quadrant n + 1 picks do_cos or do_sin and the sign. |x| < 2^-27 gives 1.
struct Cos64 {
  using T = double;
  static constexpr int kProbeLo = -28, kProbeHi = 27;
  static T library(T x) { return ::cos(x); }
  GPUPY_AVX2 static int eval(const T* in, T* res) {
    const __m256d x = _mm256_loadu_pd(in);
    // The high word without the sign, which s_sin.c compares with its path bounds.
    const __m256i k = _mm256_srli_epi64(_mm256_castpd_si256(abs(x)), 32);
    const __m256d tiny = below(k, 0x3e400000), first = below(k, 0x3feb6000),
                  second = below(k, 0x400368fd);
    const __m256d special = _mm256_xor_pd(below(k, 0x419921fb), _mm256_castsi256_pd(splat64(-1)));
    // pi/2 - |x| as hp0 - |x| + hp1.
    const __m256d y = sub(splat(kHp0), abs(x)), a2 = add(y, splat(kHp1));
    const __m256d da2 = add(sub(y, a2), splat(kHp1));
    // reduce_sincos: x - xn pi/2, with t's low bits the quadrant.
    const __m256d t = fma(x, kHalfPiInv, kToInt), xn = sub(t, splat(kToInt));
    const __m256d nxn = negate(xn);
    const __m256d y3 = fma(nxn, splat(kMp2), fma(nxn, splat(kMp1), x));
    const __m256d t2 = fma(nxn, splat(kPp3), y3), db = fma(nxn, splat(kPp3), sub(y3, t2));
    const __m256d b = fma(nxn, splat(kPp4), t2);
    const __m256d da3 = add(db, fma(nxn, splat(kPp4), sub(t2, b)));
    const __m256i quadrant = _mm256_add_epi64(_mm256_castpd_si256(t), splat64(1));
    const __m256d odd =
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(quadrant, splat64(1)), splat64(1)));
    const __m256d flip =
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(quadrant, splat64(2)), splat64(2)));
    // Special lanes read table row 0 (their results are the library's).
    __m256d a = pick(first, x, pick(second, a2, _mm256_andnot_pd(special, b)));
    const __m256d da = pick(first, splat(0.0), pick(second, da2, da3));
    const Reduced r = with_table_row(a, da);
    const __m256d use_cos = _mm256_or_pd(first, _mm256_andnot_pd(second, odd));
    __m256d v = sin_or_cos(r, use_cos);
    const __m256d taylor = _mm256_andnot_pd(use_cos, less(abs(a), splat(0.126)));
    if (_mm256_movemask_pd(taylor) != 0) v = pick(taylor, taylor_sin(a, da), v);
    v = pick(_mm256_andnot_pd(second, flip), negate(v), v);
    _mm256_storeu_pd(res, pick(tiny, splat(1.0), v));
    return _mm256_movemask_pd(special);
  }
};

}  // namespace

bool libm_replay_trig64(FastOp op, const double* a, double* o, int64_t n) {
  return op == FastOp::cos && run_unary<Cos64>(a, o, n);
}

}  // namespace gpupy::cpu

#else  // not x86-64: glibc's x86-64 variants do not apply

namespace gpupy::cpu {
bool libm_replay_trig64(FastOp, const double*, double*, int64_t) { return false; }
}  // namespace gpupy::cpu

#endif
