// NumPy's bin index for equal-width bins (histogram's fast path), one element at a time: shared
// by the cpu loop and the CUDA kernel so that every device computes the same index. Both
// compilers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../core/dispatch.h"
#include "gpupy/config.h"
#include "gpupy/ops.h"

namespace gpupy::bin_index {

/// How the guess rounds: UniformBins' sub_single and div_single flags.
enum class Rounding { float64, float32_subtract, float32 };

/// The arithmetic guess trunc((E(x) - first) / denom * n) before truncation, rounded in float32 or
/// float64 as NumPy's promotion rounds it. Branch-free, so that a loop over it vectorises.
template <class X, class E, Rounding R>
GPUPY_HD double uniform_guess(X x, int64_t n, double first, double denom) {
  const E e = static_cast<E>(x);
  if constexpr (R == Rounding::float32)
    return (static_cast<float>(e) - static_cast<float>(first)) / static_cast<float>(denom) *
           static_cast<float>(n);
  else if constexpr (R == Rounding::float32_subtract)
    return static_cast<double>(static_cast<float>(e) - static_cast<float>(first)) / denom *
           static_cast<double>(n);
  else
    return (static_cast<double>(e) - first) / denom * static_cast<double>(n);
}

/// Calls f(std::integral_constant<Rounding, R>{}) for the rounding `b` asks for.
template <class F>
GPUPY_HD decltype(auto) with_rounding(const UniformBins& b, F&& f) {
  if (b.div_single) return f(std::integral_constant<Rounding, Rounding::float32>{});
  if (b.sub_single) return f(std::integral_constant<Rounding, Rounding::float32_subtract>{});
  return f(std::integral_constant<Rounding, Rounding::float64>{});
}

/// The bin of `x` among the n + 1 ascending `edges` of dtype E, or -1 when `x` is not kept: the
/// guess `f` (uniform_guess) moved by one where the edges say otherwise; the last bin is closed.
template <class X, class E>
GPUPY_HD int64_t uniform_correct(X x, double f, const E* edges, int64_t n, const UniformBins& b) {
  const double xd = static_cast<double>(x);
  if (!(xd >= b.keep_lo && xd <= b.keep_hi)) return -1;  // NaN is never kept
  const E e = static_cast<E>(x);
  int64_t i = f >= static_cast<double>(n) ? n : (f > 0 ? static_cast<int64_t>(f) : 0);
  if (i == n) i = n - 1;
  if (e < edges[i]) --i;
  if (i != n - 1 && !(e < edges[i + 1])) ++i;
  return i;
}

/// NumPy's bin of `x` for equal-width bins (see uniform_guess and uniform_correct).
template <class X, class E>
GPUPY_HD int64_t uniform(X x, const E* edges, int64_t n, const UniformBins& b) {
  return with_rounding(b, [&](auto r) {
    return uniform_correct(x, uniform_guess<X, E, decltype(r)::value>(x, n, b.first, b.denom),
                           edges, n, b);
  });
}

/// Calls f(X{}, E{}) with the element types of `x` (real, not bool or float16: the front end
/// routes only those) and of `edges` (float32 or float64).
template <class F>
void dispatch_uniform(const Array& x, const Array& edges, F&& f) {
  dispatch_dtype(x.dtype(), [&](auto tag) {
    using X = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<X> && !std::is_same_v<X, bool>) {
      if (edges.dtype() == DType::float32)
        f(X{}, float{});
      else
        f(X{}, double{});
    } else {
      throw TypeError("[uniform_bin_index] no loop for dtype " +
                      std::string(dtype_name(x.dtype())));
    }
  });
}

}  // namespace gpupy::bin_index
