// cpu reductions over the trailing axes of a ReduceCall: a full-reduction path split over threads,
// a per-output path for contiguous reduced axes, and a row-accumulating path when the reduced axes
// are outer ones. Host only.
#include <algorithm>
#include <vector>

#include "../../core/dispatch.h"
#include "byte_loops.h"
#include "cpu_backend.h"
#include "parallel.h"
#include "reduce_policies.h"
#include "strided.h"

namespace gpupy::cpu {
namespace {

using namespace reduce_detail;

// Elements per parallel chunk of a full reduction; a multiple of 128 keeps pairwise blocks whole.
constexpr int64_t kFullChunk = 1 << 16;
// Accumulators kept together by the row-accumulating path: 16 KiB stays in L1 while long runs
// of each input row are read in order (short runs defeat the hardware prefetcher).
template <class Acc>
constexpr int64_t kRowBlock = std::max<int64_t>(256, 16384 / sizeof(Acc));

/// The reduced axes of `in` as their own shape and strides; `reorder` sorts them by decreasing
/// stride so that memory is read in order (allowed when the op does not report positions).
struct ReducedAxes {
  Shape shape;
  Strides strides;
  ReducedAxes(const ReduceCall& call, bool reorder) {
    int nk = call.in.ndim() - call.n_reduced;
    std::vector<int> order;
    for (int d = nk; d < call.in.ndim(); ++d) order.push_back(d);
    auto abs_stride = [&](int d) {
      int64_t s = call.in.strides()[d];
      return s < 0 ? -s : s;
    };
    if (reorder)
      std::stable_sort(order.begin(), order.end(),
                       [&](int x, int y) { return abs_stride(x) > abs_stride(y); });
    for (int d : order) {
      shape.push_back(call.in.shape()[d]);
      strides.push_back(call.in.strides()[d]);
    }
  }
};

/// Folds the reduced elements [begin, end) (flat C order over `rl`) starting at `base`.
template <class P>
typename P::Acc reduce_range(const Layout<1>& rl, char* base, int64_t begin, int64_t end) {
  typename P::Acc acc = P::init();
  if (begin >= end) return acc;  // also keeps for_each_run away from zero-length axes
  int64_t pos = begin;
  rl.for_each_run({base}, begin, end, [&](auto p, int64_t n) {
    acc = P::combine(acc, P::run(p[0], n, rl.inner_stride(0), pos));
    pos += n;
  });
  return acc;
}

/// One output: chunks of the reduced elements go to the threads, partials combine in order.
template <class P>
void reduce_full(const Layout<1>& rl, char* in, char* out) {
  int64_t n = rl.size;
  int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(n / kFullChunk, num_threads() * 4));
  int64_t step = (n + chunks - 1) / chunks;
  step = (step + 127) / 128 * 128;
  std::vector<typename P::Acc> partial(chunks, P::init());
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t begin = std::min(n, c * step), end = std::min(n, begin + step);
      partial[c] = reduce_range<P>(rl, in, begin, end);
    }
  });
  typename P::Acc acc = partial[0];
  for (int64_t c = 1; c < chunks; ++c) acc = P::combine(acc, partial[c]);
  P::store(out, acc);
}

/// Many outputs, each folded on its own over the reduced layout.
template <class P>
void reduce_per_output(const Layout<2>& kl, const Layout<1>& rl, char* in, char* out) {
  int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rl.size, 1));
  parallel_for(kl.size, grain, [&](int64_t begin, int64_t end) {
    kl.for_each_run({out, in}, begin, end, [&](auto p, int64_t n) {
      for (int64_t j = 0; j < n; ++j)
        P::store(p[0] + j * kl.inner_stride(0),
                 reduce_range<P>(rl, p[1] + j * kl.inner_stride(1), 0, rl.size));
    });
  });
}

/// Folds the `m` rows of one run (row stride `rs`, the first at reduced position `index`) into the
/// block's `bn` accumulators. Four rows per pass keep each accumulator in a register for four
/// steps; the loop over the block vectorises where P::step is branch-free.
template <class P, class T>
[[gnu::always_inline]] inline void fold_rows(typename P::Acc* __restrict acc, const char* q,
                                             int64_t rs, int64_t m, int64_t bn, int64_t index) {
  using B = ByteOf<T>;  // bool rows are read as bytes
  int64_t t = 0;
  for (; t + 4 <= m; t += 4, index += 4) {
    const B* __restrict r0 = reinterpret_cast<const B*>(q + t * rs);
    const B* __restrict r1 = reinterpret_cast<const B*>(q + (t + 1) * rs);
    const B* __restrict r2 = reinterpret_cast<const B*>(q + (t + 2) * rs);
    const B* __restrict r3 = reinterpret_cast<const B*>(q + (t + 3) * rs);
    for (int64_t j = 0; j < bn; ++j) {
      typename P::Acc a = acc[j];
      P::step(a, T(r0[j]), index);
      P::step(a, T(r1[j]), index + 1);
      P::step(a, T(r2[j]), index + 2);
      P::step(a, T(r3[j]), index + 3);
      acc[j] = a;
    }
  }
  for (; t < m; ++t, ++index) {
    const B* __restrict row = reinterpret_cast<const B*>(q + t * rs);
    for (int64_t j = 0; j < bn; ++j) P::step(acc[j], T(row[j]), index);
  }
}

// The same loop built for SSE2 and for AVX2 (chosen at run time): the same operations in the same
// order, so the results are equal; AVX2 has the 64-bit integer compares SSE2 lacks.
template <class P, class T>
void fold_rows_base(typename P::Acc* acc, const char* q, int64_t rs, int64_t m, int64_t bn,
                    int64_t index) {
  fold_rows<P, T>(acc, q, rs, m, bn, index);
}
template <class P, class T>
[[gnu::target("avx2")]] void fold_rows_avx2(typename P::Acc* acc, const char* q, int64_t rs,
                                            int64_t m, int64_t bn, int64_t index) {
  fold_rows<P, T>(acc, q, rs, m, bn, index);
}

/// Many outputs whose inputs are contiguous along the innermost kept axis: each reduced element
/// position contributes a contiguous row to a block of accumulators (reads memory in order).
template <class P, class T>
void reduce_rows(const Layout<2>& kl, const Layout<1>& rl, char* in, char* out) {
  constexpr int64_t block = kRowBlock<typename P::Acc>;
  int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rl.size, 1));
  // Rows are split between threads when there are few of them, but never below 256 outputs.
  int64_t per_thread = (kl.size + num_threads() - 1) / num_threads();
  grain =
      std::max(grain, std::min({block, kl.shape[kl.ndim - 1], std::max<int64_t>(256, per_thread)}));
  parallel_for(kl.size, grain, [&](int64_t begin, int64_t end) {
    typename P::Acc acc[block];
    kl.for_each_run({out, in}, begin, end, [&](auto p, int64_t n) {
      for (int64_t b0 = 0; b0 < n; b0 += block) {
        int64_t bn = std::min(block, n - b0);
        for (int64_t j = 0; j < bn; ++j) acc[j] = P::init();
        int64_t index = 0;
        const bool avx2 = cpu_has_avx2();
        rl.for_each_run({p[1] + b0 * int64_t(sizeof(T))}, 0, rl.size, [&](auto q, int64_t m) {
          (avx2 ? fold_rows_avx2<P, T> : fold_rows_base<P, T>)(acc, q[0], rl.inner_stride(0), m, bn,
                                                               index);
          index += m;
        });
        for (int64_t j = 0; j < bn; ++j) P::store(p[0] + (b0 + j) * kl.inner_stride(0), acc[j]);
      }
    });
  });
}

template <class P, class T>
void run_reduce(const ReduceCall& call, bool reorder) {
  const Array& in = call.in;
  const Array& out = call.out;
  ReducedAxes red(call, reorder);
  Layout<1> rl(red.shape, {red.strides.data()});
  if (out.size() == 1) {
    reduce_full<P>(rl, in.data(), out.data());
    return;
  }
  // Kept axes, with the one that is contiguous in the input (if any) moved innermost.
  int nk = in.ndim() - call.n_reduced;
  Shape kshape;
  Strides ko, ki;
  int contiguous = -1;
  for (int d = 0; d < nk; ++d)
    if (in.strides()[d] == int64_t(sizeof(T)) && in.shape()[d] > 1) contiguous = d;
  for (int d = 0; d < nk; ++d) {
    if (d == contiguous) continue;
    kshape.push_back(in.shape()[d]);
    ko.push_back(out.strides()[d]);
    ki.push_back(in.strides()[d]);
  }
  bool reduced_contiguous = rl.inner_stride(0) == int64_t(sizeof(T)) && rl.shape[rl.ndim - 1] >= 16;
  if (contiguous >= 0 && !reduced_contiguous && rl.size > 1) {
    kshape.push_back(in.shape()[contiguous]);
    ko.push_back(out.strides()[contiguous]);
    ki.push_back(in.strides()[contiguous]);
    Layout<2> kl(kshape, {ko.data(), ki.data()});
    if (kl.inner_stride(1) == int64_t(sizeof(T))) {
      reduce_rows<P, T>(kl, rl, in.data(), out.data());
      return;
    }
  }
  Shape shape(in.shape().begin(), in.shape().begin() + nk);
  Strides ostr = out.strides(), istr(in.strides().begin(), in.strides().begin() + nk);
  Layout<2> kl(shape, {ostr.data(), istr.data()});
  reduce_per_output<P>(kl, rl, in.data(), out.data());
}

}  // namespace

void reduce_kernel(const ReduceCall& call) {
  if (call.out.size() == 0) return;
  if (call.op == ReduceOp::sum && call.out.dtype() != call.in.dtype())
    return run_reduce<Count, bool>(call, true);  // bool into int64
  dispatch_dtype_except_float16(call.in.dtype(), "reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (call.op) {
      case ReduceOp::sum:
        return run_reduce<Sum<T>, T>(call, true);
      case ReduceOp::prod:
        return run_reduce<Prod<T>, T>(call, true);
      case ReduceOp::min:
        return run_reduce<MinMax<T, false>, T>(call, true);
      case ReduceOp::max:
        return run_reduce<MinMax<T, true>, T>(call, true);
      case ReduceOp::any:
        return run_reduce<AnyAll<T, false>, T>(call, true);
      case ReduceOp::all:
        return run_reduce<AnyAll<T, true>, T>(call, true);
      case ReduceOp::argmin:
        return run_reduce<ArgMinMax<T, false>, T>(call, false);
      case ReduceOp::argmax:
        return run_reduce<ArgMinMax<T, true>, T>(call, false);
    }
  });
}

}  // namespace gpupy::cpu
