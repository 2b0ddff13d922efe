// Integer floor division and remainder by one divisor for a whole run: a multiply by a magic
// number and shifts (Granlund and Montgomery's round-up method) instead of a hardware division
// per element, with Python's floor semantics for negative operands. The results equal
// fn::FloorDivide and fn::Remainder element for element. Host only.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "../../functors/arithmetic.h"
#include "byte_loops.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gpupy::cpu {

/// Runs shorter than this keep the per-element division: the magic number costs a wide division.
inline constexpr int64_t kScalarDivisorFrom = 64;

/// Whether F(T a, T b) is floor division or remainder of integers (the ops with a divider path).
template <class F, class T>
inline constexpr bool kScalarDivisor =
    std::is_integral_v<T> && !std::is_same_v<T, bool> &&
    (std::is_same_v<F, fn::FloorDivide> || std::is_same_v<F, fn::Remainder>);

namespace divide_detail {

/// Unsigned division of N-bit values by a fixed e >= 1: q = (t + ((n - t) >> s1)) >> s2 with
/// t = the high half of m * n, where l = ceil(log2 e) and m = floor(2^N (2^l - e) / e) + 1.
template <class U>
struct UnsignedDivider {
  static constexpr int N = 8 * sizeof(U);
  U m;
  int s1, s2;
  explicit UnsignedDivider(U e) {
    const int l = e == 1 ? 0 : N - std::countl_zero(U(e - 1));
    using W = unsigned __int128;
    m = U((((W(1) << l) - e) << N) / e + 1);
    s1 = l < 1 ? l : 1;
    s2 = l < 1 ? 0 : l - 1;
  }
  U high(U n) const {
    if constexpr (N == 64)
      return U((static_cast<unsigned __int128>(m) * n) >> 64);
    else if constexpr (N == 32)
      return U((uint64_t(m) * n) >> 32);
    else
      return U((uint32_t(m) * uint32_t(n)) >> N);
  }
  U operator()(U n) const {
    const U t = high(n);
    return U(U(t + U(U(n - t) >> s1)) >> s2);
  }
};

/// o[i] = F(a[i], d) for d != 0 (d == -1 included: MIN // -1 wraps as the functor's does).
template <class F, class T>
[[gnu::always_inline]] inline void run(T* __restrict o, const T* __restrict a, int64_t n, T d) {
  using U = std::make_unsigned_t<T>;
  constexpr bool kRemainder = std::is_same_v<F, fn::Remainder>;
  constexpr int N = 8 * sizeof(T);
  auto finish = [d](T x, U q) { return kRemainder ? T(U(U(x) - U(q * U(d)))) : T(q); };
  if constexpr (std::is_unsigned_v<T>) {
    const UnsignedDivider<U> div{d};
    for (int64_t i = 0; i < n; ++i) o[i] = finish(a[i], div(a[i]));
  } else if (d > 0) {
    // floor(a / d) = ~(~a / d) for a < 0: s is a's sign mask and ~a = a ^ s >= 0.
    const UnsignedDivider<U> div{U(d)};
    for (int64_t i = 0; i < n; ++i) {
      const U s = U(a[i] >> (N - 1));
      o[i] = finish(a[i], U(s ^ div(U(U(a[i]) ^ s))));
    }
  } else {
    // floor(a / d) = floor(-a / |d|): -a >= 0 divides directly (MIN's -a is 2^(N-1) unsigned);
    // for a > 0 it is ~((a - 1) / |d|), and a - 1 = ~(-a).
    const UnsignedDivider<U> div{U(U(0) - U(d))};
    for (int64_t i = 0; i < n; ++i) {
      const U s = U(0) - U(a[i] > 0);
      o[i] = finish(a[i], U(s ^ div(U(s ^ U(U(0) - U(a[i]))))));
    }
  }
}

template <class F, class T>
void run_base(T* o, const T* a, int64_t n, T d) {
  run<F, T>(o, a, n, d);
}

#if defined(__x86_64__)
#define GPUPY_DIVIDE_AVX2 __attribute__((target("avx2"), always_inline)) inline

/// The high 64 bits of the products of four 64-bit lanes with m (m's halves in ml and mh).
GPUPY_DIVIDE_AVX2 __m256i mulhi_epu64(__m256i a, __m256i ml, __m256i mh) {
  const __m256i ah = _mm256_srli_epi64(a, 32);
  const __m256i t =
      _mm256_add_epi64(_mm256_mul_epu32(ah, ml), _mm256_srli_epi64(_mm256_mul_epu32(a, ml), 32));
  const __m256i w = _mm256_add_epi64(_mm256_and_si256(t, _mm256_set1_epi64x(0xFFFFFFFF)),
                                     _mm256_mul_epu32(a, mh));
  return _mm256_add_epi64(_mm256_add_epi64(_mm256_mul_epu32(ah, mh), _mm256_srli_epi64(t, 32)),
                          _mm256_srli_epi64(w, 32));
}

/// The low 64 bits of the products of four 64-bit lanes with d (d's halves in dl and dh).
GPUPY_DIVIDE_AVX2 __m256i mullo_epi64(__m256i q, __m256i dl, __m256i dh) {
  const __m256i cross =
      _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(q, 32), dl), _mm256_mul_epu32(q, dh));
  return _mm256_add_epi64(_mm256_mul_epu32(q, dl), _mm256_slli_epi64(cross, 32));
}

/// run() for 64-bit lanes, four per step: AVX2 has no 64-bit high multiply for the compiler to
/// use, so it is built from four 32-bit ones. The tail goes to run().
template <class F, class T>
[[gnu::target("avx2")]] void run_avx2_64(T* o, const T* a, int64_t n, T d) {
  const bool sign_d = std::is_signed_v<T> && d < 0;
  const UnsignedDivider<uint64_t> div{sign_d ? 0 - uint64_t(d) : uint64_t(d)};
  const __m256i ml = _mm256_set1_epi64x(int64_t(div.m & 0xFFFFFFFF));
  const __m256i mh = _mm256_set1_epi64x(int64_t(div.m >> 32));
  const __m256i dl = _mm256_set1_epi64x(int64_t(uint64_t(d) & 0xFFFFFFFF));
  const __m256i dh = _mm256_set1_epi64x(int64_t(uint64_t(d) >> 32));
  const __m128i s1 = _mm_cvtsi32_si128(div.s1), s2 = _mm_cvtsi32_si128(div.s2);
  const __m256i zero = _mm256_setzero_si256();
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    __m256i s = zero, y = x;  // the sign mask and the non-negative dividend, as in run()
    if constexpr (std::is_signed_v<T>) {
      s = sign_d ? _mm256_cmpgt_epi64(x, zero) : _mm256_cmpgt_epi64(zero, x);
      y = _mm256_xor_si256(s, sign_d ? _mm256_sub_epi64(zero, x) : x);
    }
    const __m256i t = mulhi_epu64(y, ml, mh);
    const __m256i u = _mm256_add_epi64(t, _mm256_srl_epi64(_mm256_sub_epi64(y, t), s1));
    __m256i q = _mm256_xor_si256(s, _mm256_srl_epi64(u, s2));
    if constexpr (std::is_same_v<F, fn::Remainder>) q = _mm256_sub_epi64(x, mullo_epi64(q, dl, dh));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), q);
  }
  run<F, T>(o + i, a + i, n - i, d);
}
#endif

template <class F, class T>
[[gnu::target("avx2")]] void run_avx2(T* o, const T* a, int64_t n, T d) {
#if defined(__x86_64__)
  if constexpr (sizeof(T) == 8) return run_avx2_64<F, T>(o, a, n, d);
#endif
  run<F, T>(o, a, n, d);
}

}  // namespace divide_detail

/// o[i] = F(a[i], d) for i < n, d != 0: the same loop built for SSE2 and for AVX2.
template <class F, class T>
void divide_by_scalar(T* o, const T* a, int64_t n, T d) {
  (cpu_has_avx2() ? divide_detail::run_avx2<F, T> : divide_detail::run_base<F, T>)(o, a, n, d);
}

}  // namespace gpupy::cpu
