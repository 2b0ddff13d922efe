// The cpu elementwise loop's buffered path to the fast math loops (fast_math.h): strided,
// broadcast and float16 operands are gathered in chunks into a contiguous buffer (float16 widened
// to float), the vector loop runs on it, and the results are scattered to the output. Host only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "../../functors/float16_loops.h"
#include "fast_math.h"
#include "strided.h"

namespace gpupy::cpu {

/// How a loop functor F of Arity inputs of type T reaches a fast loop (fast_unary's, or
/// fast_binary's for two inputs): the loop (op), the type it computes in (Work) and the functor
/// that computes one Work value as the loop does (Base).
template <class F, class T, int Arity = 1>
struct BufferedMath {
  static constexpr FastOp op = FastOp::none;
};
template <class F, FloatOrDouble T, int Arity>
struct BufferedMath<F, T, Arity> {
  using Work = T;
  using Base = F;
  static constexpr FastOp op = Arity == 1 ? fast_op_v<F, T> : fast_binary_op_v<F, T>;
};
// float16 loops compute float16(G(float(x), ...)): the float loop of G on widened values.
template <class G, int Arity>
struct BufferedMath<fn::ViaFloat<G>, float16, Arity> {
  using Work = float;
  using Base = G;
  static constexpr FastOp op = Arity == 1 ? fast_op_v<G, float> : fast_binary_op_v<G, float>;
};

/// Elements per chunk: the buffer (16 KiB of doubles) stays in L1.
inline constexpr int64_t kMathChunk = 2048;

/// Whether the buffered path beats the plain per-run loop: not where the input is one value per
/// run (the plain loop computes it once), else always for float16 (whose plain loop calls the
/// library per element), else unless both inner axes are contiguous and runs are long.
template <class R, class T>
bool use_buffered_math(const Layout<2>& layout) {
  if (layout.inner_stride(1) == 0) return false;
  if constexpr (is_float16_v<T>) return true;
  const bool contiguous =
      layout.inner_stride(0) == int64_t(sizeof(R)) && layout.inner_stride(1) == int64_t(sizeof(T));
  return !contiguous || layout.shape[layout.ndim - 1] < kMathChunk / 8;
}

/// float16 to float and back for whole buffers (half_convert.cpp): F16C where the CPU has it,
/// else half_bits; the same bits either way.
void widen_halves(const float16* a, float* o, int64_t n);
void narrow_floats(const float* a, float16* o, int64_t n);

/// One chunk's buffers: elements gathered as T into in(), computed there in place by compute()
/// (through a float buffer for float16), and scattered from in().
template <class F, class T>
struct MathChunk {
  using M = BufferedMath<F, T>;
  using W = typename M::Work;
  static constexpr bool kWiden = !std::is_same_v<T, W>;
  alignas(64) W work[kMathChunk];
  alignas(64) std::conditional_t<kWiden, T, char> stage[kWiden ? kMathChunk : 1];

  T* in() {
    if constexpr (kWiden)
      return stage;
    else
      return work;
  }
  /// in()[i] = F(in()[i]) for i < n, with F's results: where the fast loop does not apply
  /// (fast_unary returns false), Base runs element by element.
  void compute(int64_t n) {
    if constexpr (kWiden) widen_halves(stage, work, n);
    if (!fast_unary(M::op, work, work, n)) {
      typename M::Base f;
      for (int64_t i = 0; i < n; ++i) work[i] = f(work[i]);
    }
    if constexpr (kWiden) narrow_floats(work, stage, n);
  }
};

/// out = F(in) over flat elements [begin, end) of `layout` (out is operand 0, in operand 1),
/// chunk by chunk through the fast loop of BufferedMath<F, T>.
template <class F, class R, class T>
void buffered_unary(const Layout<2>& layout, char* out, char* in, int64_t begin, int64_t end) {
  static_assert(std::is_same_v<R, T>);
  MathChunk<F, T> chunk;
  const int64_t so = layout.inner_stride(0), si = layout.inner_stride(1);
  for (int64_t lo = begin; lo < end; lo += kMathChunk) {
    const int64_t hi = std::min(end, lo + kMathChunk);
    T* dst = chunk.in();
    layout.for_each_run({out, in}, lo, hi, [&](auto p, int64_t n) {
      const char* src = p[1];
      for (int64_t i = 0; i < n; ++i) dst[i] = *reinterpret_cast<const T*>(src + i * si);
      dst += n;
    });
    chunk.compute(hi - lo);
    const T* src = chunk.in();
    layout.for_each_run({out, in}, lo, hi, [&](auto p, int64_t n) {
      char* o = p[0];
      for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(o + i * so) = src[i];
      src += n;
    });
  }
}

/// Rows [r0, r1) of a two-axis `layout` whose input runs along the outer axis (a transpose):
/// buffered_unary's work in tiles of kTileRows rows, gathered down the rows and scattered along
/// them, so that neither side strides across a whole row per element.
template <class F, class R, class T>
void buffered_unary_tiles(const Layout<2>& layout, char* out, char* in, int64_t r0, int64_t r1) {
  static_assert(std::is_same_v<R, T>);
  constexpr int64_t kTileRows = 32, kTileCols = kMathChunk / kTileRows;
  MathChunk<F, T> chunk;
  T* buf = chunk.in();
  const int64_t cols = layout.shape[1];
  const int64_t so0 = layout.strides[0][0], so1 = layout.strides[0][1];
  const int64_t si0 = layout.strides[1][0], si1 = layout.strides[1][1];
  for (int64_t r = r0; r < r1; r += kTileRows) {
    const int64_t nr = std::min(kTileRows, r1 - r);
    for (int64_t c = 0; c < cols; c += kTileCols) {
      const int64_t nc = std::min(kTileCols, cols - c);
      const char* src = in + r * si0 + c * si1;
      for (int64_t j = 0; j < nc; ++j)
        for (int64_t i = 0; i < nr; ++i)
          buf[j * nr + i] = *reinterpret_cast<const T*>(src + i * si0 + j * si1);
      chunk.compute(nr * nc);
      char* dst = out + r * so0 + c * so1;
      for (int64_t i = 0; i < nr; ++i)
        for (int64_t j = 0; j < nc; ++j)
          *reinterpret_cast<T*>(dst + i * so0 + j * so1) = buf[j * nr + i];
    }
  }
}

/// Whether `layout` is a transpose that buffered_unary_tiles serves better than the flat chunks:
/// two axes, both long, the input's shorter stride on the outer one.
inline bool use_math_tiles(const Layout<2>& layout) {
  if (layout.ndim != 2 || layout.shape[0] < 32 || layout.shape[1] < 32) return false;
  const int64_t outer = layout.strides[1][0], inner = layout.strides[1][1];
  return (outer < 0 ? -outer : outer) < (inner < 0 ? -inner : inner);
}

/// Whether a binary call goes through buffered_binary: float16, and layouts that fast_binary
/// cannot take in runs (a strided output, strides that are not whole elements) or only in short
/// runs.
template <class T>
bool use_buffered_binary(const Layout<3>& layout) {
  if constexpr (is_float16_v<T>) return true;
  constexpr int64_t t = sizeof(T);
  return layout.inner_stride(0) != t || layout.inner_stride(1) % t != 0 ||
         layout.inner_stride(2) % t != 0 || layout.shape[layout.ndim - 1] < kMathChunk / 8;
}

/// out = F(in0, in1) over flat elements [begin, end) of `layout` (operands out, in0, in1), chunk
/// by chunk through fast_binary's loop, with F's results element by element.
template <class F, class R, class T>
void buffered_binary(const Layout<3>& layout, const std::array<char*, 3>& base, int64_t begin,
                     int64_t end) {
  static_assert(std::is_same_v<R, T>);
  using M = BufferedMath<F, T, 2>;
  using W = typename M::Work;
  constexpr bool kWiden = !std::is_same_v<T, W>;
  alignas(64) W work[2][kMathChunk];
  alignas(64) std::conditional_t<kWiden, T, char> stage[2][kWiden ? kMathChunk : 1];
  T* in[2];
  for (int k = 0; k < 2; ++k) {
    if constexpr (kWiden)
      in[k] = stage[k];
    else
      in[k] = work[k];
  }
  for (int64_t lo = begin; lo < end; lo += kMathChunk) {
    const int64_t hi = std::min(end, lo + kMathChunk), n = hi - lo;
    int64_t at = 0;
    layout.for_each_run(base, lo, hi, [&](auto p, int64_t count) {
      for (int k = 0; k < 2; ++k) {
        const int64_t s = layout.inner_stride(k + 1);
        for (int64_t i = 0; i < count; ++i)
          in[k][at + i] = *reinterpret_cast<const T*>(p[k + 1] + i * s);
      }
      at += count;
    });
    if constexpr (kWiden)
      for (int k = 0; k < 2; ++k) widen_halves(stage[k], work[k], n);
    if (!fast_binary(M::op, work[0], 1, work[1], 1, work[0], n)) {
      typename M::Base f;
      for (int64_t i = 0; i < n; ++i) work[0][i] = f(work[0][i], work[1][i]);
    }
    if constexpr (kWiden) narrow_floats(work[0], stage[0], n);
    const T* src = in[0];
    layout.for_each_run(base, lo, hi, [&](auto p, int64_t count) {
      const int64_t so = layout.inner_stride(0);
      for (int64_t i = 0; i < count; ++i) *reinterpret_cast<T*>(p[0] + i * so) = src[i];
      src += count;
    });
  }
}

}  // namespace gpupy::cpu
