// The cpu elementwise loop's buffered path to the fast math loops (fast_math.h): strided,
// broadcast and float16 operands are gathered in chunks into a contiguous buffer (float16 widened
// to float), the vector loop runs on it, and the results are scattered to the output. Host only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "../../functors/float16_loops.h"
#include "fast_math.h"
#include "strided.h"

namespace gpupy::cpu {

/// How a unary loop functor F on elements of type T reaches a fast loop: the loop (op), the type
/// it computes in (Work) and the functor that computes one Work value as the loop does (Base).
template <class F, class T>
struct BufferedMath {
  static constexpr FastOp op = FastOp::none;
};
template <class F, FloatOrDouble T>
struct BufferedMath<F, T> {
  using Work = T;
  using Base = F;
  static constexpr FastOp op = fast_op_v<F, T>;
};
// float16 loops compute float16(G(float(x))): the float loop of G on widened values.
template <class G>
struct BufferedMath<fn::ViaFloat<G>, float16> {
  using Work = float;
  using Base = G;
  static constexpr FastOp op = fast_op_v<G, float>;
};

/// Elements per chunk: the buffer (16 KiB of doubles) stays in L1.
inline constexpr int64_t kMathChunk = 2048;

/// Whether the buffered path beats the plain per-run loop: always for float16 (whose plain loop
/// calls the library per element), else unless both inner axes are contiguous and runs are long.
template <class R, class T>
bool use_buffered_math(const Layout<2>& layout) {
  if constexpr (is_float16_v<T>) return true;
  const bool contiguous =
      layout.inner_stride(0) == int64_t(sizeof(R)) && layout.inner_stride(1) == int64_t(sizeof(T));
  return !contiguous || layout.shape[layout.ndim - 1] < kMathChunk / 8;
}

/// out = F(in) over flat elements [begin, end) of `layout` (out is operand 0, in operand 1),
/// chunk by chunk through the fast loop of BufferedMath<F, T>. Results equal F's element by
/// element: where the fast loop does not apply (fast_unary returns false), Base runs on the buffer.
template <class F, class R, class T>
void buffered_unary(const Layout<2>& layout, char* out, char* in, int64_t begin, int64_t end) {
  using M = BufferedMath<F, T>;
  using W = typename M::Work;
  alignas(64) W buf[kMathChunk];
  const int64_t so = layout.inner_stride(0), si = layout.inner_stride(1);
  for (int64_t lo = begin; lo < end; lo += kMathChunk) {
    const int64_t hi = std::min(end, lo + kMathChunk);
    W* dst = buf;
    layout.for_each_run({out, in}, lo, hi, [&](auto p, int64_t n) {
      const char* src = p[1];
      for (int64_t i = 0; i < n; ++i)
        dst[i] = static_cast<W>(*reinterpret_cast<const T*>(src + i * si));
      dst += n;
    });
    if (!fast_unary(M::op, buf, buf, hi - lo)) {
      typename M::Base f;
      for (int64_t i = 0; i < hi - lo; ++i) buf[i] = f(buf[i]);
    }
    const W* src = buf;
    layout.for_each_run({out, in}, lo, hi, [&](auto p, int64_t n) {
      char* o = p[0];
      for (int64_t i = 0; i < n; ++i) *reinterpret_cast<R*>(o + i * so) = static_cast<R>(src[i]);
      src += n;
    });
  }
}

}  // namespace gpupy::cpu
