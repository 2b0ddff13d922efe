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

/// The four words of eight consecutive counters, word j of lane l in w[j] lane l.
struct Words8 {
  __m256i w[4];
};

/// hi and lo halves of the 32x32-bit products of the eight lanes of `c` with `m`.
GPUPY_PHILOX_AVX2 void mul_hi_lo(__m256i c, __m256i m, __m256i& hi, __m256i& lo) {
  const __m256i even = _mm256_mul_epu32(c, m);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(c, 32), m);
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

/// philox_words(key, counter + l) for l = 0..7, the functor's rounds lane by lane.
GPUPY_PHILOX_AVX2 Words8 philox8(uint64_t key, uint64_t counter) {
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i c0 = _mm256_add_epi32(_mm256_set1_epi32(int(uint32_t(counter))), iota);
  // A lane whose low word wrapped carries into the high word (unsigned c0 < iota).
  const __m256i flip = _mm256_set1_epi32(int(0x80000000u));
  const __m256i carry =
      _mm256_cmpgt_epi32(_mm256_xor_si256(iota, flip), _mm256_xor_si256(c0, flip));
  Words8 c{{c0, _mm256_sub_epi32(_mm256_set1_epi32(int(uint32_t(counter >> 32))), carry),
            _mm256_setzero_si256(), _mm256_setzero_si256()}};
  const __m256i m0 = _mm256_set1_epi64x(0xD2511F53), m1 = _mm256_set1_epi64x(0xCD9E8D57);
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int round = 0; round < 10; ++round) {
    __m256i hi0, lo0, hi1, lo1;
    mul_hi_lo(c.w[0], m0, hi0, lo0);
    mul_hi_lo(c.w[2], m1, hi1, lo1);
    c.w[0] = _mm256_xor_si256(_mm256_xor_si256(hi1, c.w[1]), _mm256_set1_epi32(int(k0)));
    c.w[2] = _mm256_xor_si256(_mm256_xor_si256(hi0, c.w[3]), _mm256_set1_epi32(int(k1)));
    c.w[1] = lo1;
    c.w[3] = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// (a << 32) | b of the eight lanes, as two vectors of four 64-bit values in lane order.
GPUPY_PHILOX_AVX2 void join64(__m256i a, __m256i b, __m256i& first, __m256i& second) {
  const __m256i lo = _mm256_unpacklo_epi32(b, a), hi = _mm256_unpackhi_epi32(b, a);
  first = _mm256_permute2x128_si256(lo, hi, 0x20);
  second = _mm256_permute2x128_si256(lo, hi, 0x31);
}

/// Exact double of four integers below 2**53 (the functor's double(x >> 11) conversion).
GPUPY_PHILOX_AVX2 __m256d u53_to_double(__m256i x) {
  const __m256i hi =
      _mm256_or_si256(_mm256_srli_epi64(x, 32), _mm256_set1_epi64x(0x4530000000000000));
  const __m256i lo = _mm256_blend_epi32(x, _mm256_set1_epi64x(0x4330000000000000), 0xAA);
  const __m256d h = _mm256_sub_pd(_mm256_castsi256_pd(hi), _mm256_set1_pd(0x1.00000001p84));
  return _mm256_add_pd(h, _mm256_castsi256_pd(lo));
}

/// philox_unit53(a, b) of the eight lanes: two vectors of four doubles in lane order.
GPUPY_PHILOX_AVX2 void unit53(__m256i a, __m256i b, __m256d& first, __m256d& second) {
  __m256i x0, x1;
  join64(a, b, x0, x1);
  const __m256d scale = _mm256_set1_pd(1.0 / 9007199254740992.0);
  first = _mm256_mul_pd(u53_to_double(_mm256_srli_epi64(x0, 11)), scale);
  second = _mm256_mul_pd(u53_to_double(_mm256_srli_epi64(x1, 11)), scale);
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
  int64_t i = begin;
  if constexpr (D == RD::normal) {
    alignas(32) double u1[kNormalBlock], u2[kNormalBlock];
    while (end - i >= 8) {
      const int64_t m = std::min<int64_t>(kNormalBlock, (end - i) / 8 * 8);
      for (int64_t j = 0; j < m; j += 8) {
        const Words8 w = philox8(key, counter + uint64_t(i + j));
        __m256d a0, a1, b0, b1;
        unit53(w.w[0], w.w[1], a0, a1);
        unit53(w.w[2], w.w[3], b0, b1);
        const __m256d one = _mm256_set1_pd(1.0);  // u1 = 1 - u in (0, 1], exactly
        _mm256_store_pd(u1 + j, _mm256_sub_pd(one, a0));
        _mm256_store_pd(u1 + j + 4, _mm256_sub_pd(one, a1));
        const __m256d two_pi = _mm256_set1_pd(6.283185307179586);
        _mm256_store_pd(u2 + j, _mm256_mul_pd(two_pi, b0));
        _mm256_store_pd(u2 + j + 4, _mm256_mul_pd(two_pi, b1));
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
      const Words8 w = philox8(key, counter + uint64_t(i));
      auto* out = reinterpret_cast<__m256i*>(data + i);
      if constexpr (D == RD::bits) {
        __m256i x0, x1;
        join64(w.w[0], w.w[1], x0, x1);
        _mm256_storeu_si256(out, x0);
        _mm256_storeu_si256(out + 1, x1);
      } else if constexpr (sizeof(T) == 4) {
        const __m256 f = _mm256_cvtepi32_ps(_mm256_srli_epi32(w.w[0], 8));
        _mm256_storeu_ps(reinterpret_cast<float*>(out),
                         _mm256_mul_ps(f, _mm256_set1_ps(1.0f / 16777216.0f)));
      } else {
        __m256d a0, a1;
        unit53(w.w[0], w.w[1], a0, a1);
        _mm256_storeu_pd(reinterpret_cast<double*>(out), a0);
        _mm256_storeu_pd(reinterpret_cast<double*>(out) + 4, a1);
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
