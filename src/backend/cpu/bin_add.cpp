// The cpu binning patterns: bin_add (bincount, histogram, ufunc.at of add) and histogram's
// equal-width bin index. Host only.
#include <algorithm>
#include <mutex>
#include <vector>

#include "../bin_index.h"
#include "cpu_backend.h"
#include "parallel.h"

namespace gpupy::cpu {
namespace {

/// bins[index[k]] += weights[k] (1 without weights) for k in [begin, end), in order.
template <class T>
void add_run(const int64_t* index, const T* weights, T* bins, int64_t n_bins, int64_t begin,
             int64_t end) {
  for (int64_t k = begin; k < end; ++k) {
    const int64_t b = index[k];
    if (static_cast<uint64_t>(b) < static_cast<uint64_t>(n_bins))
      bins[b] += weights ? weights[k] : T(1);
  }
}

/// Integer sums are exact in any order: threads fill private bins, merged at the end.
void add_int64_parallel(const int64_t* index, const int64_t* weights, int64_t* out, int64_t n,
                        int64_t n_bins) {
  std::mutex merge;
  parallel_for(n, std::max<int64_t>(kParallelGrain, 8 * n_bins), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> local(n_bins, 0);
    add_run(index, weights, local.data(), n_bins, begin, end);
    std::lock_guard<std::mutex> lock(merge);
    for (int64_t b = 0; b < n_bins; ++b) out[b] += local[b];
  });
}

template <class T>
void bin_add_typed(const Array& index, const Array* weights, const Array& out) {
  const int64_t n = index.size(), n_bins = out.size();
  const auto* idx = reinterpret_cast<const int64_t*>(index.data());
  const T* w = weights ? reinterpret_cast<const T*>(weights->data()) : nullptr;
  T* o = reinterpret_cast<T*>(out.data());
  if constexpr (std::is_same_v<T, int64_t>) {
    if (num_threads() > 1 && n >= 2 * kParallelGrain && n >= 16 * n_bins)
      return add_int64_parallel(idx, w, o, n, n_bins);
  }
  // Floats: one thread in index order, so each bin's sum is NumPy's, bit for bit.
  add_run(idx, w, o, n_bins, 0, n);
}

}  // namespace

void CpuBackend::bin_add(const Array& index, const Array* weights, const Array& out) {
  if (index.size() == 0 || out.size() == 0) return;
  switch (out.dtype()) {
    case DType::int64:
      return bin_add_typed<int64_t>(index, weights, out);
    case DType::float32:
      return bin_add_typed<float>(index, weights, out);
    case DType::float64:
      return bin_add_typed<double>(index, weights, out);
    default:
      throw TypeError("[bin_add] bins must be int64, float32 or float64");
  }
}

void CpuBackend::uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins,
                                   const Array& out) {
  const int64_t n_bins = edges.size() - 1;
  bin_index::dispatch_uniform(x, edges, [&](auto x_tag, auto e_tag) {
    using X = decltype(x_tag);
    using E = decltype(e_tag);
    const X* src = reinterpret_cast<const X*>(x.data());
    const E* e = reinterpret_cast<const E*>(edges.data());
    int64_t* o = reinterpret_cast<int64_t*>(out.data());
    bin_index::with_rounding(bins, [&](auto r) {
      const double first = bins.first, denom = bins.denom;
      parallel_for(x.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
        // The guesses of a chunk first (a loop the compiler vectorises: divisions dominate),
        // then the corrections, which read the edges.
        constexpr int64_t kChunk = 512;
        double guess[kChunk];
        for (int64_t k0 = begin; k0 < end; k0 += kChunk) {
          const int64_t m = std::min(kChunk, end - k0);
          for (int64_t j = 0; j < m; ++j)
            guess[j] = bin_index::uniform_guess<X, E, decltype(r)::value>(src[k0 + j], n_bins,
                                                                          first, denom);
          for (int64_t j = 0; j < m; ++j)
            o[k0 + j] = bin_index::uniform_correct(src[k0 + j], guess[j], e, n_bins, bins);
        }
      });
    });
  });
}

}  // namespace gpupy::cpu
