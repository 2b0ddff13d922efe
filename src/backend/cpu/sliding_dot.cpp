// The cpu sliding dot product of convolve and correlate. Each output is summed sequentially over
// ascending j (see sliding::one_output), a block of outputs side by side so that the loop over the
// block vectorises without reordering any sum. Host only.
#include "../sliding_dot.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "../../core/dispatch.h"
#include "byte_loops.h"
#include "cpu_backend.h"
#include "parallel.h"

namespace gpupy::cpu {
namespace {

/// Outputs summed side by side: 256 bytes of accumulators (8 AVX2 registers, enough independent
/// additions in flight to hide their latency), 8 to 64 outputs.
template <class T>
constexpr int64_t kBlock = std::clamp<int64_t>(256 / sizeof(sliding::Acc<T>), 8, 64);

/// out[k * step] = sum over j, ascending, of w[k + j] * v[j] for k in [0, count), where w[p] is
/// a[first + p] (or a zero outside a): a block of outputs at a time, so that the loop over the
/// block vectorises, each block over the j where at least one of its outputs overlaps a.
template <class T>
[[gnu::always_inline]] inline void windows_body(const T* w, int64_t first, int64_t n, const T* v,
                                                int64_t m, T* out, int64_t step, int64_t count) {
  using Acc = sliding::Acc<T>;
  constexpr int64_t B = kBlock<T>;
  int64_t k0 = 0;
  for (; k0 + B <= count; k0 += B) {
    int64_t lo, hi, unused;
    sliding::overlap(n, m, first + k0 + B - 1, lo, unused);
    sliding::overlap(n, m, first + k0, unused, hi);
    Acc acc[B];
    for (int64_t b = 0; b < B; ++b) acc[b] = Acc(0);
    for (int64_t j = lo; j < hi; ++j) {
      const T vj = v[j];
      for (int64_t b = 0; b < B; ++b) acc[b] = sliding::mul_add<T>(acc[b], w[k0 + b + j], vj);
    }
    for (int64_t b = 0; b < B; ++b) out[(k0 + b) * step] = static_cast<T>(acc[b]);
  }
  for (; k0 < count; ++k0) {
    int64_t lo, hi;
    sliding::overlap(n, m, first + k0, lo, hi);
    Acc acc = Acc(0);
    for (int64_t j = lo; j < hi; ++j) acc = sliding::mul_add<T>(acc, w[k0 + j], v[j]);
    out[k0 * step] = static_cast<T>(acc);
  }
}

template <class T>
void windows_base(const T* w, int64_t first, int64_t n, const T* v, int64_t m, T* out, int64_t step,
                  int64_t count) {
  windows_body(w, first, n, v, m, out, step, count);
}
// AVX2 without FMA: twice the lanes, and every product and sum still rounded on its own.
template <class T>
[[gnu::target("avx2")]] void windows_avx2(const T* w, int64_t first, int64_t n, const T* v,
                                          int64_t m, T* out, int64_t step, int64_t count) {
  windows_body(w, first, n, v, m, out, step, count);
}

template <class T>
void windows(const T* w, int64_t first, int64_t n, const T* v, int64_t m, T* out, int64_t step,
             int64_t count) {
  if (cpu_has_avx2())
    windows_avx2(w, first, n, v, m, out, step, count);
  else
    windows_base(w, first, n, v, m, out, step, count);
}

/// Whether products with a zero are exact zeros: then padding a with zeros adds nothing to a sum
/// (acc + 0 is acc, and acc, starting at +0, is never -0), and the padded windows give the
/// overlap's sum bit for bit. An inf or nan in v would make 0 * v[j] a nan.
template <class T>
bool zero_products_vanish(const T* v, int64_t m) {
  if constexpr (std::is_integral_v<T>) {
    return true;
  } else {
    for (int64_t j = 0; j < m; ++j) {
      if constexpr (is_complex_v<T>) {
        if (!std::isfinite(v[j].re) || !std::isfinite(v[j].im)) return false;
      } else if (!std::isfinite(v[j])) {
        return false;
      }
    }
    return true;
  }
}

/// Outputs [begin, end) whose windows reach past an end of a: from a zero-padded copy of the
/// part of a they read, or one overlap at a time when v holds an inf or nan.
template <class T>
void edge(const T* a, int64_t n, const T* v, int64_t m, int64_t shift, T* out, int64_t step,
          int64_t begin, int64_t end, bool padded) {
  if (begin >= end) return;
  if (!padded) {
    for (int64_t k = begin; k < end; ++k)
      out[k * step] = sliding::one_output(a, n, v, m, shift + k);
    return;
  }
  const int64_t size = end - begin + m - 1;
  auto w = std::make_unique<T[]>(static_cast<size_t>(size));  // zeros (not vector<bool>)
  const int64_t first = shift + begin;                        // the index into a of w[0]
  for (int64_t p = std::max<int64_t>(0, -first); p < size && first + p < n; ++p)
    w[p] = a[first + p];
  windows(w.get(), first, n, v, m, out + begin * step, step, end - begin);
}

/// out[k * step] = sum_j a[shift + k + j] * v[j] over the overlap, for k in [0, length), m <= n.
template <class T>
void sliding_rows(const T* a, int64_t n, const T* v, int64_t m, int64_t shift, T* out, int64_t step,
                  int64_t length) {
  // Outputs whose window lies inside a: shift + k >= 0 and shift + k + m <= n.
  const int64_t in_lo = std::clamp<int64_t>(-shift, 0, length);
  const int64_t in_hi = std::clamp<int64_t>(n - m - shift + 1, in_lo, length);
  const bool padded = zero_products_vanish(v, m);
  const int64_t grain = std::max<int64_t>(kBlock<T>, kParallelGrain / std::max<int64_t>(m, 1));
  parallel_for(length, grain, [&](int64_t begin, int64_t end) {
    const int64_t lo = std::clamp(in_lo, begin, end), hi = std::clamp(in_hi, begin, end);
    edge(a, n, v, m, shift, out, step, begin, lo, padded);
    windows(a + shift + lo, shift + lo, n, v, m, out + lo * step, step, hi - lo);
    edge(a, n, v, m, shift, out, step, hi, end, padded);
  });
}

template <class T>
void sliding_typed(const Array& a, const Array& v, int64_t shift, const Array& out) {
  const T* pa = reinterpret_cast<const T*>(a.data());
  const T* pv = reinterpret_cast<const T*>(v.data());
  T* po = reinterpret_cast<T*>(out.data());
  const int64_t n = a.size(), m = v.size(), length = out.size();
  if (m <= n) return sliding_rows(pa, n, pv, m, shift, po, 1, length);
  // With a and v swapped, output k is the swapped one at n + m - 2 - (k + shift + m - 1): the
  // same products, summed in the same (ascending) order, written backwards.
  const int64_t last = shift + m - 1 + length - 1;  // the full correlation's index of out[-1]
  sliding_rows(pv, m, pa, n, n + m - 2 - last - (n - 1), po + (length - 1), -1, length);
}

}  // namespace

void CpuBackend::sliding_dot(const Array& a, const Array& v, int64_t shift, const Array& out) {
  if (out.size() == 0) return;
  dispatch_dtype_except_float16(out.dtype(), "sliding_dot", [&](auto tag) {
    sliding_typed<typename decltype(tag)::type>(a, v, shift, out);
  });
}

}  // namespace gpupy::cpu
