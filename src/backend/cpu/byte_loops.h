// Contiguous loops with a bool operand or result (comparisons, isnan, logical ops, casts to and
// from bool). GCC vectorises no load or store of bool, so these loops read and write bytes; and
// SSE2 has no compare that narrows 8-byte lanes to bytes, so each loop has an AVX2 build too,
// chosen at run time. Host only.
#pragma once

#include <cstdint>
#include <type_traits>

namespace gpupy::cpu {

/// Whether a loop has a bool operand or result (and so runs through the loops below).
template <class R, class... T>
inline constexpr bool kByteLoop = (std::is_same_v<R, bool> || ... || std::is_same_v<T, bool>);

/// How the loops store a T: bool as a byte, other types as themselves.
template <class T>
using ByteOf = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

/// Whether the CPU runs AVX2 (checked once).
bool cpu_has_avx2();

namespace byte_detail {

template <class R, class T, class F>
[[gnu::always_inline]] inline void map1(ByteOf<R>* __restrict o, const ByteOf<T>* __restrict a,
                                        int64_t n, const F& f) {
  for (int64_t i = 0; i < n; ++i) o[i] = ByteOf<R>(f(T(a[i])));
}
template <class R, class T, class F>
[[gnu::always_inline]] inline void map2(ByteOf<R>* __restrict o, const ByteOf<T>* __restrict a,
                                        const ByteOf<T>* __restrict b, int64_t n, const F& f) {
  for (int64_t i = 0; i < n; ++i) o[i] = ByteOf<R>(f(T(a[i]), T(b[i])));
}

template <class R, class T, class F>
void map1_base(ByteOf<R>* o, const ByteOf<T>* a, int64_t n, const F& f) {
  map1<R, T>(o, a, n, f);
}
template <class R, class T, class F>
[[gnu::target("avx2")]] void map1_avx2(ByteOf<R>* o, const ByteOf<T>* a, int64_t n, const F& f) {
  map1<R, T>(o, a, n, f);
}
template <class R, class T, class F>
void map2_base(ByteOf<R>* o, const ByteOf<T>* a, const ByteOf<T>* b, int64_t n, const F& f) {
  map2<R, T>(o, a, b, n, f);
}
template <class R, class T, class F>
[[gnu::target("avx2")]] void map2_avx2(ByteOf<R>* o, const ByteOf<T>* a, const ByteOf<T>* b,
                                       int64_t n, const F& f) {
  map2<R, T>(o, a, b, n, f);
}

}  // namespace byte_detail

/// o[i] = f(a[i]) over n contiguous elements (R and T the element types, bool as bytes).
template <class R, class T, class F>
void byte_map(char* out, const char* in, int64_t n, const F& f) {
  auto* o = reinterpret_cast<ByteOf<R>*>(out);
  const auto* a = reinterpret_cast<const ByteOf<T>*>(in);
  if (cpu_has_avx2())
    byte_detail::map1_avx2<R, T>(o, a, n, f);
  else
    byte_detail::map1_base<R, T>(o, a, n, f);
}

/// o[i] = f(a[i], b[i]) over n contiguous elements.
template <class R, class T, class F>
void byte_map(char* out, const char* in0, const char* in1, int64_t n, const F& f) {
  auto* o = reinterpret_cast<ByteOf<R>*>(out);
  const auto* a = reinterpret_cast<const ByteOf<T>*>(in0);
  const auto* b = reinterpret_cast<const ByteOf<T>*>(in1);
  if (cpu_has_avx2())
    byte_detail::map2_avx2<R, T>(o, a, b, n, f);
  else
    byte_detail::map2_base<R, T>(o, a, b, n, f);
}

}  // namespace gpupy::cpu
