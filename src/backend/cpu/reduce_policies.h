// The per-op accumulators of the cpu reductions (identity, step, combine, fast contiguous runs).
// Host only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "../../functors/cast.h"
#include "../../functors/compare.h"
#include "byte_loops.h"
#include "gpupy/complex.h"

namespace gpupy::cpu::reduce_detail {

// NaN test and NumPy's (lexicographic for complex) order: the functors' definitions.
using fn::has_nan;
using fn::lt;

template <class T>
inline T load(const char* p) {
  return *reinterpret_cast<const T*>(p);
}

// Pairwise summation (NumPy's scheme): blocks of 128 summed with 8 independent accumulators, so
// the compiler vectorises them and the rounding error grows as O(log n).
template <class T>
T pairwise_sum(const char* p, int64_t n, int64_t s) {
  if (n < 8) {
    T r = T(0);
    for (int64_t i = 0; i < n; ++i) r = r + load<T>(p + i * s);
    return r;
  }
  if (n <= 128) {
    T r[8];
    if (s == int64_t(sizeof(T))) {
      const T* a = reinterpret_cast<const T*>(p);
      for (int j = 0; j < 8; ++j) r[j] = a[j];
      int64_t i = 8;
      for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; ++j) r[j] = r[j] + a[i + j];
      T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
      for (; i < n; ++i) res = res + a[i];
      return res;
    }
    for (int j = 0; j < 8; ++j) r[j] = load<T>(p + j * s);
    int64_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) r[j] = r[j] + load<T>(p + (i + j) * s);
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res = res + load<T>(p + i * s);
    return res;
  }
  int64_t half = n / 2;
  half -= half % 8;
  return pairwise_sum<T>(p, half, s) + pairwise_sum<T>(p + half * s, n - half, s);
}

/// sum: T is already the accumulator dtype (bool sums as logical or, like NumPy's add on bools).
template <class T>
struct Sum {
  using Acc = T;
  static Acc init() { return T(0); }
  static void step(Acc& a, T v, int64_t) {
    if constexpr (std::is_same_v<T, bool>)
      a = a || v;
    else
      a = a + v;
  }
  static Acc combine(Acc a, Acc b) {
    step(a, b, 0);
    return a;
  }
  static Acc run(const char* p, int64_t n, int64_t s, int64_t) {
    if constexpr (std::is_floating_point_v<T> || is_complex_v<T>) {
      return pairwise_sum<T>(p, n, s);
    } else {
      Acc a = init();
      if (s == int64_t(sizeof(T))) {
        const T* x = reinterpret_cast<const T*>(p);
        for (int64_t i = 0; i < n; ++i) step(a, x[i], 0);
      } else {
        for (int64_t i = 0; i < n; ++i) step(a, load<T>(p + i * s), 0);
      }
      return a;
    }
  }
  static void store(char* out, Acc a) { *reinterpret_cast<T*>(out) = a; }
};

/// A sum of bool into int64: the number of true elements. Runs read bytes (GCC does not vectorise
/// loads of bool) and count in 32-bit blocks that the compiler vectorises.
struct Count {
  using Acc = int64_t;
  static Acc init() { return 0; }
  static void step(Acc& a, bool v, int64_t) { a += v; }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Acc run(const char* p, int64_t n, int64_t s, int64_t) {
    const auto* x = reinterpret_cast<const uint8_t*>(p);
    Acc a = 0;
    for (int64_t b = 0; b < n; b += 1 << 20) {
      const int64_t e = std::min(n, b + (int64_t(1) << 20));
      uint32_t c = 0;
      if (s == 1)
        for (int64_t i = b; i < e; ++i) c += x[i] != 0;
      else
        for (int64_t i = b; i < e; ++i) c += x[i * s] != 0;
      a += c;
    }
    return a;
  }
  static void store(char* out, Acc a) { *reinterpret_cast<int64_t*>(out) = a; }
};

template <class T>
struct Prod {
  using Acc = T;
  static Acc init() { return T(1); }
  static void step(Acc& a, T v, int64_t) {
    if constexpr (std::is_same_v<T, bool>)
      a = a && v;
    else
      a = a * v;
  }
  static Acc combine(Acc a, Acc b) {
    step(a, b, 0);
    return a;
  }
  static Acc run(const char* p, int64_t n, int64_t s, int64_t) {
    Acc a = init();
    for (int64_t i = 0; i < n; ++i) step(a, load<T>(p + i * s), 0);
    return a;
  }
  static void store(char* out, Acc a) { *reinterpret_cast<T*>(out) = a; }
};

/// min (IsMax = false) and max: NaN propagates; complex values compare lexicographically.
template <class T, bool IsMax>
struct MinMax {
  using Acc = T;
  static Acc init() {
    if constexpr (std::is_same_v<T, bool>) {
      return !IsMax;
    } else if constexpr (is_complex_v<T>) {
      using R = decltype(T{}.re);
      R inf = std::numeric_limits<R>::infinity();
      return IsMax ? T(-inf, -inf) : T(inf, inf);
    } else if constexpr (std::is_floating_point_v<T>) {
      return IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    } else {
      return IsMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
  }
  static bool better(T v, T a) { return IsMax ? lt(a, v) : lt(v, a); }
  // Three selects on plain compares (GCC if-converts and vectorises these in the row loops, not
  // a combined test): the better of the two, a NaN element over that, a NaN already held over all.
  static void step(Acc& a, T v, int64_t) {
    T m = better(v, a) ? v : a;
    m = has_nan(v) ? v : m;
    a = has_nan(a) ? a : m;
  }
  static Acc combine(Acc a, Acc b) {
    step(a, b, 0);
    return a;
  }
  static Acc run(const char* p, int64_t n, int64_t s, int64_t) {
    if constexpr (std::is_floating_point_v<T>) {
      if (s == int64_t(sizeof(T))) return run_contiguous(reinterpret_cast<const T*>(p), n);
    }
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (s == int64_t(sizeof(T))) {
        const T* x = reinterpret_cast<const T*>(p);
        return cpu_has_avx2() ? run_integers_avx2(x, n) : run_integers(x, n);
      }
    }
    Acc a = init();
    for (int64_t i = 0; i < n; ++i) step(a, load<T>(p + i * s), 0);
    return a;
  }
  // Integers have no NaN: a select per element, vectorised (AVX2 has SSE2's missing 64-bit
  // compares).
  static Acc run_integers(const T* x, int64_t n) {
    Acc a = init();
    for (int64_t i = 0; i < n; ++i) a = better(x[i], a) ? x[i] : a;
    return a;
  }
  [[gnu::target("avx2")]] static Acc run_integers_avx2(const T* x, int64_t n) {
    Acc a = init();
    for (int64_t i = 0; i < n; ++i) a = better(x[i], a) ? x[i] : a;
    return a;
  }
  // Two 16-byte vectors of branch-free min/max plus NaN masks (GCC/Clang vector extensions):
  // the scalar form with a NaN check does not auto-vectorise.
  static Acc run_contiguous(const T* x, int64_t n) {
    constexpr int L = 16 / sizeof(T);
    using V [[gnu::vector_size(16)]] = T;
    using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
    using M [[gnu::vector_size(16)]] = I;
    V r0, r1;
    M m0 = {}, m1 = {};
    for (int j = 0; j < L; ++j) r0[j] = r1[j] = init();
    int64_t i = 0;
    for (; i + 2 * L <= n; i += 2 * L) {
      V v0, v1;
      std::memcpy(&v0, x + i, 16);
      std::memcpy(&v1, x + i + L, 16);
      m0 |= v0 != v0;
      m1 |= v1 != v1;
      if constexpr (IsMax) {
        r0 = v0 > r0 ? v0 : r0;
        r1 = v1 > r1 ? v1 : r1;
      } else {
        r0 = v0 < r0 ? v0 : r0;
        r1 = v1 < r1 ? v1 : r1;
      }
    }
    Acc a = init();
    for (int j = 0; j < L; ++j) {
      if (m0[j] | m1[j]) return std::numeric_limits<T>::quiet_NaN();
      step(a, r0[j], 0);
      step(a, r1[j], 0);
    }
    for (; i < n; ++i) step(a, x[i], 0);
    return a;
  }
  static void store(char* out, Acc a) { *reinterpret_cast<T*>(out) = a; }
};

/// any (IsAll = false) and all, on the truth value of any dtype. The accumulator is a byte,
/// combined bitwise, so that the row loops vectorise (GCC vectorises no bool load or store).
template <class T, bool IsAll>
struct AnyAll {
  using Acc = uint8_t;
  static Acc init() { return IsAll; }
  static void step(Acc& a, T v, int64_t) { a = combine(a, cast_value<bool>(v)); }
  static Acc combine(Acc a, Acc b) { return IsAll ? (a & b) : (a | b); }
  static Acc run(const char* p, int64_t n, int64_t s, int64_t) {
    for (int64_t i = 0; i < n; ++i)
      if (cast_value<bool>(load<T>(p + i * s)) != IsAll) return !IsAll;
    return IsAll;
  }
  static void store(char* out, Acc a) { *reinterpret_cast<bool*>(out) = a != 0; }
};

/// argmin (IsMax = false) and argmax: the first extreme wins, and the first NaN beats everything.
template <class T, bool IsMax>
struct ArgMinMax {
  struct Acc {
    T v;
    int64_t i;
  };
  static Acc init() { return {T{}, -1}; }
  static bool better(T v, T a) {
    if (has_nan(a)) return false;
    if (has_nan(v)) return true;
    return IsMax ? lt(a, v) : lt(v, a);
  }
  static void step(Acc& a, T v, int64_t index) {
    if (a.i < 0 || better(v, a.v)) a = {v, index};
  }
  // `b` covers later indices than `a`.
  static Acc combine(Acc a, Acc b) {
    if (b.i < 0) return a;
    if (a.i < 0 || better(b.v, a.v)) return b;
    return a;
  }
  static Acc run(const char* p, int64_t n, int64_t s, int64_t index) {
    if constexpr (std::is_floating_point_v<T> ||
                  (std::is_integral_v<T> && !std::is_same_v<T, bool>)) {
      if (s == int64_t(sizeof(T))) return run_contiguous(reinterpret_cast<const T*>(p), n, index);
    }
    Acc a = init();
    for (int64_t i = 0; i < n; ++i) step(a, load<T>(p + i * s), index + i);
    return a;
  }
  static Acc run_contiguous(const T* x, int64_t n, int64_t index) {
    if constexpr (kWideLanes)
      if (cpu_has_avx2() && n >= 8 * kLanes) return run_avx2(x, n, index);
    return run_blocks(x, n, index);
  }
  // AVX2 lanes of 4- and 8-byte elements, each tracking its extreme and where it first stood;
  // positions are lane integers of the element's width (4-byte ones restart every 2^30).
  static constexpr bool kWideLanes = sizeof(T) == 4 || sizeof(T) == 8;
  static constexpr int kLanes = 32 / int(sizeof(T));
  [[gnu::target("avx2")]] static Acc run_avx2(const T* x, int64_t n, int64_t index) {
    using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
    using V [[gnu::vector_size(32)]] = T;
    using W [[gnu::vector_size(32)]] = I;
    const int64_t chunk = sizeof(T) == 4 ? int64_t(1) << 30 : n;
    Acc a = init();
    for (int64_t b = 0; b < n; b += chunk) {
      const T* p = x + b;
      const int64_t m = std::min(chunk, n - b);
      if (m < 2 * kLanes) {
        for (int64_t i = 0; i < m; ++i) step(a, p[i], index + b + i);
        continue;
      }
      V v0, v1;
      std::memcpy(&v0, p, 32);
      std::memcpy(&v1, p + kLanes, 32);
      W nan = W(v0 != v0) | W(v1 != v1), i0, i1, at;
      for (int j = 0; j < kLanes; ++j) i0[j] = I(j), i1[j] = I(j + kLanes), at[j] = I(j);
      V e0 = v0, e1 = v1;
      int64_t i = 2 * kLanes;
      for (; i + 2 * kLanes <= m; i += 2 * kLanes) {
        at += I(2 * kLanes);
        std::memcpy(&v0, p + i, 32);
        std::memcpy(&v1, p + i + kLanes, 32);
        const W b0 = IsMax ? W(v0 > e0) : W(v0 < e0), b1 = IsMax ? W(v1 > e1) : W(v1 < e1);
        e0 = b0 ? v0 : e0;
        e1 = b1 ? v1 : e1;
        i0 = b0 ? at : i0;
        i1 = b1 ? at + I(kLanes) : i1;
        if constexpr (std::is_floating_point_v<T>) nan |= W(v0 != v0) | W(v1 != v1);
      }
      if constexpr (std::is_floating_point_v<T>) {
        bool any = false;
        for (int j = 0; j < kLanes; ++j) any |= nan[j] != 0;
        if (any) {  // the first NaN beats everything after it
          int64_t k = 0;
          while (p[k] == p[k]) ++k;
          return combine(a, Acc{p[k], index + b + k});
        }
      }
      // The lanes' extremes in position order (ties go to the first), then the tail.
      Acc c = init();
      for (int j = 0; j < kLanes; ++j) {
        const Acc l0{e0[j], int64_t(i0[j])}, l1{e1[j], int64_t(i1[j])};
        const Acc first = l0.i < l1.i ? l0 : l1, second = l0.i < l1.i ? l1 : l0;
        const Acc lane = combine(first, second);
        if (c.i < 0 || better(lane.v, c.v) || (!better(c.v, lane.v) && lane.i < c.i)) c = lane;
      }
      for (; i < m; ++i) step(c, p[i], i);
      a = combine(a, Acc{c.v, index + b + c.i});
    }
    return a;
  }
  // Per block (kept in L1): the extreme by MinMax's vectorisable loop, then, only when it beats
  // the best so far, the first position holding it (the first NaN when it is NaN).
  static Acc run_blocks(const T* x, int64_t n, int64_t index) {
    constexpr int64_t kBlock = 2048;
    Acc a = init();
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t m = std::min(kBlock, n - b);
      const T e = MinMax<T, IsMax>::run(reinterpret_cast<const char*>(x + b), m, sizeof(T), 0);
      if (a.i >= 0 && !better(e, a.v)) continue;
      const bool nan = has_nan(e);
      int64_t i = 0;
      while (!(nan ? has_nan(x[b + i]) : x[b + i] == e)) ++i;
      a = {x[b + i], index + b + i};
      if (nan) return a;  // nothing beats the first NaN
    }
    return a;
  }
  static void store(char* out, Acc a) { *reinterpret_cast<int64_t*>(out) = a.i; }
};

}  // namespace gpupy::cpu::reduce_detail
