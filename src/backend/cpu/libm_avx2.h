// AVX2 building blocks of the loops that replay glibc's x86-64 math functions (libm_replay.cpp,
// libm_replay_pow.cpp, libm_replay_fdlibm*.cpp): lane helpers, table loads, the exp tails that exp,
// exp2f and pow share, the loop of a one-argument kernel and its once-per-loop check against the
// library. Include only from files built with
// -ffp-contract=off (the only fusions are the ones written). Host only, x86-64 only.
#pragma once

#include <cfenv>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "libm_replay.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define GPUPY_AVX2 __attribute__((target("avx2,fma"), always_inline)) inline

namespace gpupy::cpu::avx2 {

constexpr int kLanes = 4;

GPUPY_AVX2 __m256d splat(double v) { return _mm256_set1_pd(v); }
GPUPY_AVX2 __m256d fma(__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); }
GPUPY_AVX2 __m256d fma(__m256d a, double b, double c) { return fma(a, splat(b), splat(c)); }
GPUPY_AVX2 __m256d fma(__m256d a, double b, __m256d c) { return fma(a, splat(b), c); }
GPUPY_AVX2 __m256d mul(__m256d a, __m256d b) { return _mm256_mul_pd(a, b); }
GPUPY_AVX2 __m256d add(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
GPUPY_AVX2 __m256d sub(__m256d a, __m256d b) { return _mm256_sub_pd(a, b); }
GPUPY_AVX2 __m256i splat64(int64_t v) { return _mm256_set1_epi64x(v); }
GPUPY_AVX2 __m128i splat32(int32_t v) { return _mm_set1_epi32(v); }

/// The indices of the four lanes, in memory for scalar table loads.
struct Index4 {
  alignas(32) int64_t i[4];
};
GPUPY_AVX2 Index4 lane_indices(__m256i i) {
  Index4 out;
  _mm256_store_si256(reinterpret_cast<__m256i*>(out.i), i);
  return out;
}
GPUPY_AVX2 Index4 lane_indices(__m128i i) { return lane_indices(_mm256_cvtepi32_epi64(i)); }

/// {table[2 i], table[2 i + 1]} for the i in each lane: four 16-byte loads, faster than gathers.
struct Pairs {
  __m256d first, second;
};
GPUPY_AVX2 Pairs load_pairs(const double* table, const Index4& i) {
  const __m128d p0 = _mm_loadu_pd(table + 2 * i.i[0]), p1 = _mm_loadu_pd(table + 2 * i.i[1]);
  const __m128d p2 = _mm_loadu_pd(table + 2 * i.i[2]), p3 = _mm_loadu_pd(table + 2 * i.i[3]);
  const __m256d a = _mm256_insertf128_pd(_mm256_castpd128_pd256(p0), p2, 1);
  const __m256d b = _mm256_insertf128_pd(_mm256_castpd128_pd256(p1), p3, 1);
  return {_mm256_unpacklo_pd(a, b), _mm256_unpackhi_pd(a, b)};
}
template <class Lanes>
GPUPY_AVX2 Pairs load_pairs(const double* table, Lanes i) {
  return load_pairs(table, lane_indices(i));
}

/// a > b as unsigned 64-bit integers, lane by lane.
GPUPY_AVX2 __m256i greater_u64(__m256i a, uint64_t b) {
  const __m256i flip = splat64(INT64_MIN);
  return _mm256_cmpgt_epi64(_mm256_xor_si256(a, flip), splat64(int64_t(b ^ (1ull << 63))));
}

/// a > b as unsigned 32-bit integers, lane by lane.
GPUPY_AVX2 __m128i greater_u32(__m128i a, uint32_t b) {
  return _mm_cmpgt_epi32(_mm_xor_si128(a, splat32(INT32_MIN)), splat32(int32_t(b ^ (1u << 31))));
}

/// double(t >> 52) for the signed 64-bit t in each lane: the high halves shifted by 20, exactly.
GPUPY_AVX2 __m256d shift52_to_double(__m256i t) {
  const __m256i k = _mm256_permutevar8x32_epi32(_mm256_srai_epi32(t, 20),
                                                _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7));
  return _mm256_cvtepi32_pd(_mm256_castsi256_si128(k));
}

/// Lanes whose biased exponent field (sign dropped) lies outside [lo, hi].
GPUPY_AVX2 __m256i exponent_outside(__m256d x, int lo, int hi) {
  const __m256i top =
      _mm256_and_si256(_mm256_srli_epi64(_mm256_castpd_si256(x), 52), splat64(0x7ff));
  return _mm256_or_si256(_mm256_cmpgt_epi64(splat64(lo), top),
                         _mm256_cmpgt_epi64(top, splat64(hi)));
}

/// The lanes exp, exp2 and pow's exp send to their special case: |x| < 2^-54, |x| >= 512, NaN.
GPUPY_AVX2 __m256i exp_special(__m256d x) { return exponent_outside(x, 0x3c9, 0x407); }

/// 2^(k/128) = scale (1 + tail): {tail, scale} from the low bits of k (the table) and the rest
/// (the exponent).
GPUPY_AVX2 Pairs exp_tail_scale(__m256i k) {
  const auto* table = reinterpret_cast<const double*>(libm::kExpTable);
  Pairs p = load_pairs(table, _mm256_and_si256(k, splat64(127)));
  const __m256i sbits = _mm256_add_epi64(_mm256_castpd_si256(p.second), _mm256_slli_epi64(k, 45));
  p.second = _mm256_castsi256_pd(sbits);
  return p;
}

/// x = (k ln2 / 128) + r as __exp_fma and __pow_fma reduce it: the bits of the shifted k, and r.
struct ExpReduced {
  __m256i k;
  __m256d r;
};
GPUPY_AVX2 ExpReduced exp_reduce(__m256d x) {
  constexpr double kInvLn2N = 0x1.71547652b82fep+7, kShift = 0x1.8p52;
  constexpr double kNegLn2HiN = -0x1.62e42fefa0000p-8, kNegLn2LoN = -0x1.cf79abc9e3b3ap-47;
  __m256d kd = fma(x, kInvLn2N, kShift);
  const __m256i ki = _mm256_castpd_si256(kd);
  kd = sub(kd, splat(kShift));
  return {ki, fma(kd, kNegLn2LoN, fma(kd, kNegLn2HiN, x))};
}

/// 2^(k/128) exp(r), as the end of __exp_fma and __pow_fma computes it for a normal result.
GPUPY_AVX2 __m256d exp_finish(__m256i k, __m256d r) {
  constexpr double kC2 = 0x1.ffffffffffdbdp-2, kC3 = 0x1.555555555543cp-3;
  constexpr double kC4 = 0x1.55555cf172b91p-5, kC5 = 0x1.1111167a4d017p-7;
  const auto [tail, scale] = exp_tail_scale(k);
  const __m256d p23 = fma(r, kC3, kC2), head = add(r, tail), r2 = mul(r, r);
  const __m256d p45 = fma(r, kC5, kC4);
  const __m256d tmp = fma(mul(r2, r2), p45, fma(p23, r2, head));
  return fma(scale, tmp, scale);
}

/// 2^(k/32) (1 + c2 r + r^2 (c1 + c0 r)) with k in the low bits of kd (a number shifted so), as
/// expf, exp2f and powf end (the result still in double).
GPUPY_AVX2 __m256d exp2f_finish(__m256d kd, __m256d r, double c0, double c1, double c2) {
  const __m256i k = _mm256_castpd_si256(kd);
  const Index4 index = lane_indices(_mm256_and_si256(k, splat64(31)));
  const uint64_t* table = libm::kExp2fTable;
  const __m256i t = _mm256_setr_epi64x(int64_t(table[index.i[0]]), int64_t(table[index.i[1]]),
                                       int64_t(table[index.i[2]]), int64_t(table[index.i[3]]));
  const __m256d scale = _mm256_castsi256_pd(_mm256_add_epi64(t, _mm256_slli_epi64(k, 47)));
  const __m256d z = fma(r, c0, c1), r2 = mul(r, r), y = fma(r, c2, 1.0);
  return mul(fma(z, r2, y), scale);
}

/// The float64 lanes of 32-bit lane masks, for double-precision blends.
GPUPY_AVX2 __m256d lanes(__m128i mask) { return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(mask)); }

/// Whether loop K may run: the machine and library are the ones it replays, `agrees` (its probe
/// against the library, run once per K in round-to-nearest) passed, and the rounding is to
/// nearest now (in other modes the library special-cases some results).
template <class K, class Agrees>
bool replay_usable(Agrees agrees) {
  static const bool usable = [&] {
    if (fast_math_level() < 1 || !glibc_at_least_2_28()) return false;
    const int mode = std::fegetround();
    std::fesetround(FE_TONEAREST);
    const bool ok = agrees();
    std::fesetround(mode);
    return ok;
  }();
  return usable && std::fegetround() == FE_TONEAREST;
}

/// The lanes a one-argument kernel K computes per call: K::kLanes where it says, else 4.
template <class K>
constexpr int lanes_of() {
  if constexpr (requires { K::kLanes; })
    return K::kLanes;
  else
    return kLanes;
}

/// K::eval on each group of lanes; lanes it marks go to the library (a is intact: results are
/// written after the fix-ups, so o may be a).
template <class K>
__attribute__((target("avx2,fma"))) void replay_unary(const typename K::T* a, typename K::T* o,
                                                      int64_t n) {
  using T = typename K::T;
  constexpr int kWidth = lanes_of<K>();
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    T res[kWidth];
    int special = K::eval(a + i, res);
    while (special != 0) {
      const int j = __builtin_ctz(special);
      res[j] = K::library(a[i + j]);
      special &= special - 1;
    }
    std::memcpy(o + i, res, sizeof(res));
  }
  for (; i < n; ++i) o[i] = K::library(a[i]);
}

/// Inputs on which a loop must agree with the library before it is used: both signs of every
/// binade (so every path and table entry), a few mantissas each, and ~32k more in the binades
/// [K::kProbeLo, K::kProbeHi] where the loop computes. A guard against another build of the
/// library, not a proof: the loops were checked on 10^8 inputs and more (see the tests).
template <class K>
std::vector<typename K::T> unary_probe_inputs() {
  using T = typename K::T;
  using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  constexpr int kMantissaBits = sizeof(T) == 8 ? 52 : 23, kBias = sizeof(T) == 8 ? 1023 : 127;
  constexpr int kDense = 16384 / (K::kProbeHi - K::kProbeLo + 1);
  std::vector<T> out;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (U exponent = 0; exponent <= 2 * kBias + 1; ++exponent) {
    const int binade = int(exponent) - kBias;
    const int count = binade >= K::kProbeLo && binade <= K::kProbeHi ? kDense : 4;
    for (int m = 0; m < count; ++m) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const U magnitude =
          (exponent << kMantissaBits) | (U(state >> 11) & ((U(1) << kMantissaBits) - 1));
      for (U sign : {U(0), U(1) << (sizeof(T) * 8 - 1)}) {
        T x;
        const U pattern = magnitude | sign;
        std::memcpy(&x, &pattern, sizeof(T));
        out.push_back(x);
      }
    }
  }
  return out;
}

template <class K>
bool unary_agrees_with_library() {
  using T = typename K::T;
  std::vector<T> x = unary_probe_inputs<K>(), y(x.size());
  replay_unary<K>(x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = K::library(x[i]);
    if (std::memcmp(&want, &y[i], sizeof(T)) != 0) return false;
  }
  return true;
}

/// Runs the one-argument kernel K's loop where replay_usable allows.
template <class K>
bool run_unary(const typename K::T* a, typename K::T* o, int64_t n) {
  if (!replay_usable<K>(unary_agrees_with_library<K>)) return false;
  replay_unary<K>(a, o, n);
  return true;
}

/// p[0], p[stride], p[2 stride], ... (in elements; 1 and 0 are the common cases).
GPUPY_AVX2 __m256d load4(const double* p, int64_t stride) {
  if (stride == 1) return _mm256_loadu_pd(p);
  if (stride == 0) return _mm256_broadcast_sd(p);
  return _mm256_setr_pd(p[0], p[stride], p[2 * stride], p[3 * stride]);
}
GPUPY_AVX2 __m128 load4(const float* p, int64_t stride) {
  if (stride == 1) return _mm_loadu_ps(p);
  if (stride == 0) return _mm_broadcast_ss(p);
  return _mm_setr_ps(p[0], p[stride], p[2 * stride], p[3 * stride]);
}
GPUPY_AVX2 __m256 load8(const float* p, int64_t stride) {
  if (stride == 1) return _mm256_loadu_ps(p);
  if (stride == 0) return _mm256_broadcast_ss(p);
  return _mm256_setr_ps(p[0], p[stride], p[2 * stride], p[3 * stride], p[4 * stride], p[5 * stride],
                        p[6 * stride], p[7 * stride]);
}

/// The two-argument kernel K on each group of lanes (strides in elements, any sign; 0 is one value
/// for every element); lanes it marks go to the library (the inputs are intact: results are
/// written after the fix-ups, so o may be x or y).
template <class K>
__attribute__((target("avx2,fma"))) void replay_binary(const typename K::T* x, int64_t sx,
                                                       const typename K::T* y, int64_t sy,
                                                       typename K::T* o, int64_t n) {
  using T = typename K::T;
  constexpr int kWidth = lanes_of<K>();
  int64_t i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    T res[kWidth];
    int special = K::eval(x + i * sx, sx, y + i * sy, sy, res);
    while (special != 0) {
      const int j = __builtin_ctz(special);
      res[j] = K::library(x[(i + j) * sx], y[(i + j) * sy]);
      special &= special - 1;
    }
    std::memcpy(o + i, res, sizeof(res));
  }
  for (; i < n; ++i) o[i] = K::library(x[i * sx], y[i * sy]);
}

/// Whether K's loop agrees with the library on the pairs (x[i], y[i]).
template <class K>
bool binary_agrees_with_library(const std::vector<typename K::T>& x,
                                const std::vector<typename K::T>& y) {
  using T = typename K::T;
  std::vector<T> out(x.size());
  replay_binary<K>(x.data(), 1, y.data(), 1, out.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = K::library(x[i], y[i]);
    if (std::memcmp(&want, &out[i], sizeof(T)) != 0) return false;
  }
  return true;
}

/// Runs the two-argument kernel K's loop where replay_usable (with the probe `agrees`) allows.
template <class K, class Agrees>
bool run_binary(Agrees agrees, const typename K::T* x, int64_t sx, const typename K::T* y,
                int64_t sy, typename K::T* o, int64_t n) {
  if (!replay_usable<K>(agrees)) return false;
  replay_binary<K>(x, sx, y, sy, o, n);
  return true;
}

}  // namespace gpupy::cpu::avx2

#endif
