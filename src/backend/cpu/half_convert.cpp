// float16 <-> float conversions of whole buffers for the cpu loops, with F16C's instructions where
// the CPU has them, giving half_bits's bits (tools/check_half_convert.cpp compares every value).
// Host only.
#include "buffered_math.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace gpupy::cpu {
namespace {

#if defined(__x86_64__)
// vcvtph2ps quiets signalling NaNs, which pow(x, 0) and pow(1, y) tell apart from quiet ones:
// groups holding an infinity or NaN are widened by half_bits.
__attribute__((target("avx,f16c"))) void widen_f16c(const float16* a, float* o, int64_t n) {
  const __m128i exponent = _mm_set1_epi16(0x7c00);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(h, exponent), exponent))) {
      for (int64_t j = i; j < i + 8; ++j) o[j] = static_cast<float>(a[j]);
    } else {
      _mm256_storeu_ps(o + i, _mm256_cvtph_ps(h));
    }
  }
  for (; i < n; ++i) o[i] = static_cast<float>(a[i]);
}

__attribute__((target("avx,f16c"))) void narrow_f16c(const float* a, float16* o, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(a + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) o[i] = float16(a[i]);
}

bool has_f16c() {
  // GPUPY_FAST_MATH=0 (level 0) keeps every cpu loop scalar; level 1 or more means the CPU and OS
  // run AVX. F16C is read from cpuid: clang's __builtin_cpu_supports does not know "f16c".
  static const bool f16c = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return fast_math_level() > 0 && __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
  }();
  return f16c;
}
#endif

}  // namespace

void widen_halves(const float16* a, float* o, int64_t n) {
#if defined(__x86_64__)
  if (has_f16c()) return widen_f16c(a, o, n);
#endif
  for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(a[i]);
}

void narrow_floats(const float* a, float16* o, int64_t n) {
#if defined(__x86_64__)
  if (has_f16c()) return narrow_f16c(a, o, n);
#endif
  for (int64_t i = 0; i < n; ++i) o[i] = float16(a[i]);
}

}  // namespace gpupy::cpu
