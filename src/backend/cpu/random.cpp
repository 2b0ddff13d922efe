// The cpu loop of gpupy.random: Philox4x32-10 as the CUDA kernels compute it (functors/philox.h),
// eight counters per AVX2 step where the CPU has AVX2, one at a time elsewhere. Either way every
// element is bit for bit the functor's, so the cpu yields the same numbers as cuda and emu. Host
// only.
#include <algorithm>
#include <cmath>

#include "../../functors/philox.h"
#include "byte_loops.h"
#include "cpu_backend.h"
#include "fast_math.h"
#include "libm_replay.h"
#include "parallel.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gpupy::cpu {
namespace {

template <RandomDistribution D, class T>
void fill_scalar(T* data, uint64_t key, uint64_t counter, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) data[i] = fn::philox_draw<D, T>(key, counter + uint64_t(i));
}

#if defined(__x86_64__)
#define GPUPY_PHILOX_AVX2 __attribute__((target("avx2"), always_inline)) inline

/// The round keys of a key as broadcast vectors: k0 and k1 of round r in k[r][0] and k[r][1].
struct RoundKeys {
  __m256i k[10][2];
};
GPUPY_PHILOX_AVX2 RoundKeys round_keys(uint64_t key) {
  RoundKeys keys;
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (auto& round : keys.k) {
    round[0] = _mm256_set1_epi64x(k0);
    round[1] = _mm256_set1_epi64x(k1);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return keys;
}

/// The four words of four consecutive counters: word j of counter l in the low half of w[j]'s
/// 64-bit lane l. The high halves are scratch: the multiplies read only the low ones, and the
/// 64-bit products give both halves without shuffles.
struct Words4 {
  __m256i w[4];
};

/// philox_words(key, counter + l) for l = 0..3 and 4..7, the functor's rounds lane by lane (two
/// groups interleaved, so that one's multiplies run while the other's wait).
GPUPY_PHILOX_AVX2 void philox8(const RoundKeys& keys, uint64_t counter, Words4& a, Words4& b) {
  const __m256i c = _mm256_set1_epi64x(int64_t(counter));
  const __m256i ca = _mm256_add_epi64(c, _mm256_setr_epi64x(0, 1, 2, 3));
  const __m256i cb = _mm256_add_epi64(c, _mm256_setr_epi64x(4, 5, 6, 7));
  const __m256i zero = _mm256_setzero_si256();
  a = {{ca, _mm256_srli_epi64(ca, 32), zero, zero}};
  b = {{cb, _mm256_srli_epi64(cb, 32), zero, zero}};
  const __m256i m0 = _mm256_set1_epi64x(0xD2511F53), m1 = _mm256_set1_epi64x(0xCD9E8D57);
  for (const auto& k : keys.k) {
    for (Words4* g : {&a, &b}) {
      const __m256i p0 = _mm256_mul_epu32(g->w[0], m0), p1 = _mm256_mul_epu32(g->w[2], m1);
      g->w[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), g->w[1]), k[0]);
      g->w[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), g->w[3]), k[1]);
      g->w[1] = p1;
      g->w[3] = p0;
    }
  }
}

/// (hi << 32) | lo of the low halves of each 64-bit lane.
GPUPY_PHILOX_AVX2 __m256i join64(__m256i hi, __m256i lo) {
  return _mm256_or_si256(_mm256_slli_epi64(hi, 32),
                         _mm256_and_si256(lo, _mm256_set1_epi64x(0xFFFFFFFF)));
}

/// Exact double of four integers below 2**53 (the functor's double(x >> 11) conversion).
GPUPY_PHILOX_AVX2 __m256d u53_to_double(__m256i x) {
  const __m256i hi =
      _mm256_or_si256(_mm256_srli_epi64(x, 32), _mm256_set1_epi64x(0x4530000000000000));
  const __m256i lo = _mm256_blend_epi32(x, _mm256_set1_epi64x(0x4330000000000000), 0xAA);
  const __m256d h = _mm256_sub_pd(_mm256_castsi256_pd(hi), _mm256_set1_pd(0x1.00000001p84));
  return _mm256_add_pd(h, _mm256_castsi256_pd(lo));
}

/// philox_unit53(hi, lo) of four lanes.
GPUPY_PHILOX_AVX2 __m256d unit53(__m256i hi, __m256i lo) {
  const __m256d scale = _mm256_set1_pd(1.0 / 9007199254740992.0);
  return _mm256_mul_pd(u53_to_double(_mm256_srli_epi64(join64(hi, lo), 11)), scale);
}

/// The low halves of the 64-bit lanes of a and then b, as eight 32-bit lanes in that order.
GPUPY_PHILOX_AVX2 __m256i low_halves(__m256i a, __m256i b) {
  const __m256 packed = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b),
                                          _MM_SHUFFLE(2, 0, 2, 0));  // a0 a1 b0 b1 | a2 a3 b2 b3
  return _mm256_permute4x64_epi64(_mm256_castps_si256(packed), _MM_SHUFFLE(3, 1, 2, 0));
}

// Normal draws go through buffers of this many elements: Box-Muller's log and cos as vector calls.
constexpr int64_t kNormalBlock = 256;

/// data[j] = T(sqrt(-2 log_u1[j]) cos_u2[j]) for j < m, four at a time (each operation rounds as
/// the scalar expression's does, sqrt included, so the bits are the same).
template <class T>
__attribute__((target("avx2"))) void box_muller_finish(T* data, const double* log_u1,
                                                       const double* cos_u2, int64_t m) {
  int64_t j = 0;
  for (; j + 4 <= m; j += 4) {
    const __m256d r =
        _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), _mm256_load_pd(log_u1 + j)));
    const __m256d z = _mm256_mul_pd(r, _mm256_load_pd(cos_u2 + j));
    if constexpr (sizeof(T) == 4)
      _mm_storeu_ps(reinterpret_cast<float*>(data + j), _mm256_cvtpd_ps(z));
    else
      _mm256_storeu_pd(reinterpret_cast<double*>(data + j), z);
  }
  for (; j < m; ++j) data[j] = T(std::sqrt(-2.0 * log_u1[j]) * cos_u2[j]);
}

/// Elements [begin, end) of the stream, eight per step; the tail (under eight) is scalar.
template <RandomDistribution D, class T>
__attribute__((target("avx2"))) void fill_avx2(T* data, uint64_t key, uint64_t counter,
                                               int64_t begin, int64_t end) {
  using RD = RandomDistribution;
  const RoundKeys keys = round_keys(key);
  int64_t i = begin;
  if constexpr (D == RD::normal) {
    alignas(32) double u1[kNormalBlock], u2[kNormalBlock];
    while (end - i >= 8) {
      const int64_t m = std::min<int64_t>(kNormalBlock, (end - i) / 8 * 8);
      for (int64_t j = 0; j < m; j += 8) {
        Words4 g[2];
        philox8(keys, counter + uint64_t(i + j), g[0], g[1]);
        for (int h = 0; h < 2; ++h) {
          const __m256d one = _mm256_set1_pd(1.0);  // u1 = 1 - u in (0, 1], exactly
          _mm256_store_pd(u1 + j + 4 * h, _mm256_sub_pd(one, unit53(g[h].w[0], g[h].w[1])));
          const __m256d two_pi = _mm256_set1_pd(6.283185307179586);
          _mm256_store_pd(u2 + j + 4 * h, _mm256_mul_pd(two_pi, unit53(g[h].w[2], g[h].w[3])));
        }
      }
      // The C library's log and cos, replayed lane by lane where possible (same bits either way).
      if (!libm_replay(FastOp::log, u1, u1, m))
        for (int64_t j = 0; j < m; ++j) u1[j] = std::log(u1[j]);
      if (!libm_replay(FastOp::cos, u2, u2, m))
        for (int64_t j = 0; j < m; ++j) u2[j] = std::cos(u2[j]);
      box_muller_finish(data + i, u1, u2, m);
      i += m;
    }
  } else {
    for (; i + 8 <= end; i += 8) {
      Words4 a, b;
      philox8(keys, counter + uint64_t(i), a, b);
      auto* out = reinterpret_cast<__m256i*>(data + i);
      if constexpr (D == RD::bits) {
        _mm256_storeu_si256(out, join64(a.w[0], a.w[1]));
        _mm256_storeu_si256(out + 1, join64(b.w[0], b.w[1]));
      } else if constexpr (sizeof(T) == 4) {
        const __m256 f = _mm256_cvtepi32_ps(_mm256_srli_epi32(low_halves(a.w[0], b.w[0]), 8));
        _mm256_storeu_ps(reinterpret_cast<float*>(out),
                         _mm256_mul_ps(f, _mm256_set1_ps(1.0f / 16777216.0f)));
      } else {
        _mm256_storeu_pd(reinterpret_cast<double*>(out), unit53(a.w[0], a.w[1]));
        _mm256_storeu_pd(reinterpret_cast<double*>(out) + 4, unit53(b.w[0], b.w[1]));
      }
    }
  }
  fill_scalar<D, T>(data, key, counter, i, end);
}

#endif

}  // namespace

void CpuBackend::philox_fill(const Array& out, uint64_t key, uint64_t counter,
                             RandomDistribution dist) {
  fn::dispatch_philox(dist, out.dtype(), [&](auto d, auto tag) {
    using T = decltype(tag);
    constexpr RandomDistribution D = decltype(d)::value;
    T* data = reinterpret_cast<T*>(out.data());
    // By value: the stores through `data` must not make the compiler reload key and counter.
    parallel_for(out.size(), kParallelGrain / 8, [=](int64_t begin, int64_t end) {
#if defined(__x86_64__)
      if (cpu_has_avx2()) return fill_avx2<D, T>(data, key, counter, begin, end);
#endif
      fill_scalar<D, T>(data, key, counter, begin, end);
    });
  });
}

}  // namespace gpupy::cpu
