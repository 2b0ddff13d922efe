// The cpu gather, scatter and flatnonzero patterns of advanced indexing. Host only.
#include <cstring>
#include <limits>
#include <mutex>

#include "cpu_backend.h"
#include "parallel.h"
#include "strided.h"

namespace gpupy::cpu {
namespace {

/// Calls fn(data_ptr, value_ptr) for every element of the call in C order over [begin, end).
template <class Fn>
void for_each_element(const Backend::GatherCall& call, int64_t begin, int64_t end, Fn&& fn) {
  const Layout<3> layout(
      call.values.shape(),
      {call.values.strides().data(), call.data.strides().data(), call.offsets.strides().data()});
  layout.for_each_run({call.values.data(), call.data.data(), call.offsets.data()}, begin, end,
                      [&](auto p, int64_t n) {
                        const int64_t sv = layout.inner_stride(0), sd = layout.inner_stride(1),
                                      so = layout.inner_stride(2);
                        for (int64_t i = 0; i < n; ++i) {
                          const int64_t off = *reinterpret_cast<const int64_t*>(p[2] + i * so);
                          fn(p[1] + i * sd + off, p[0] + i * sv);
                        }
                      });
}

/// Copies of a size known at compile time for the common element sizes (memcpy of a run-time
/// size is a call per element).
template <class Fn>
void by_item_size(size_t item, Fn&& fn) {
  switch (item) {
    case 1:
      return fn(std::integral_constant<size_t, 1>{});
    case 2:
      return fn(std::integral_constant<size_t, 2>{});
    case 4:
      return fn(std::integral_constant<size_t, 4>{});
    case 8:
      return fn(std::integral_constant<size_t, 8>{});
    case 16:
      return fn(std::integral_constant<size_t, 16>{});
    default:
      throw TypeError("[getitem] unsupported element size " + std::to_string(item));
  }
}

/// The index values of one run, checked and turned into byte offsets; returns the position in
/// the run of the first out-of-bounds one, or -1.
int64_t offsets_run(char* out, int64_t so, const char* in, int64_t si, int64_t len, int64_t n,
                    int64_t stride, bool accumulate) {
  bool ok = true;
  for (int64_t i = 0; i < len; ++i) {
    const int64_t v = *reinterpret_cast<const int64_t*>(in + i * si);
    ok &= v >= -n && v < n;
    int64_t& o = *reinterpret_cast<int64_t*>(out + i * so);
    o = (accumulate ? o : 0) + (v < 0 ? v + n : v) * stride;
  }
  if (ok) return -1;
  for (int64_t i = 0;; ++i) {
    const int64_t v = *reinterpret_cast<const int64_t*>(in + i * si);
    if (v < -n || v >= n) return i;
  }
}

}  // namespace

bool CpuBackend::index_offsets(const Array& index, int64_t n, int64_t stride, const Array& offsets,
                               bool accumulate, int64_t& bad) {
  const Layout<2> layout(offsets.shape(), {offsets.strides().data(), index.strides().data()});
  std::mutex found;
  int64_t first = std::numeric_limits<int64_t>::max();  // C-order position of the first bad one
  parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
    int64_t pos = begin;
    layout.for_each_run({offsets.data(), index.data()}, begin, end, [&](auto p, int64_t len) {
      const int64_t at = offsets_run(p[0], layout.inner_stride(0), p[1], layout.inner_stride(1),
                                     len, n, stride, accumulate);
      if (at >= 0) {
        std::lock_guard<std::mutex> lock(found);
        if (pos + at < first) {
          first = pos + at;
          bad = *reinterpret_cast<const int64_t*>(p[1] + at * layout.inner_stride(1));
        }
      }
      pos += len;
    });
  });
  return first == std::numeric_limits<int64_t>::max();
}

void CpuBackend::gather(const GatherCall& call) {
  by_item_size(call.values.itemsize(), [&](auto item) {
    parallel_for(call.values.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
      for_each_element(call, begin, end,
                       [item](char* src, char* dst) { std::memcpy(dst, src, item()); });
    });
  });
}

void CpuBackend::scatter(const GatherCall& call) {
  // One thread in C order, so that the last of duplicate indices wins, as in NumPy.
  if (call.values.size() == 0) return;
  by_item_size(call.values.itemsize(), [&](auto item) {
    for_each_element(call, 0, call.values.size(),
                     [item](char* dst, char* src) { std::memcpy(dst, src, item()); });
  });
}

Array CpuBackend::flatnonzero(const Array& mask) {
  const Layout<1> layout(mask.shape(), {mask.strides().data()});
  int64_t count = 0;
  if (layout.size == 0) return Array::empty({0}, DType::int64, mask.device());
  layout.for_each_run({mask.data()}, 0, layout.size, [&](auto p, int64_t n) {
    for (int64_t i = 0; i < n; ++i) count += *(p[0] + i * layout.inner_stride(0)) != 0;
  });
  // Every position is written and the cursor advances past the nonzero ones: no branch to
  // mispredict on a random mask. Writes after the last nonzero one go to a spare slot.
  Array out = Array::empty({count}, DType::int64, mask.device());
  auto* o = reinterpret_cast<int64_t*>(out.data());
  int64_t* const end = o + count;
  int64_t spare, flat = 0;
  layout.for_each_run({mask.data()}, 0, layout.size, [&](auto p, int64_t n) {
    for (int64_t i = 0; i < n; ++i, ++flat) {
      *(o < end ? o : &spare) = flat;
      o += *(p[0] + i * layout.inner_stride(0)) != 0;
    }
  });
  return out;
}

}  // namespace gpupy::cpu
