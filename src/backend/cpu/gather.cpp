// The cpu gather, scatter and flatnonzero patterns of advanced indexing. Host only.
#include <cstring>

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

}  // namespace

void CpuBackend::gather(const GatherCall& call) {
  const size_t item = call.values.itemsize();
  parallel_for(call.values.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
    for_each_element(call, begin, end,
                     [item](char* src, char* dst) { std::memcpy(dst, src, item); });
  });
}

void CpuBackend::scatter(const GatherCall& call) {
  // One thread in C order, so that the last of duplicate indices wins, as in NumPy.
  const size_t item = call.values.itemsize();
  if (call.values.size() == 0) return;
  for_each_element(call, 0, call.values.size(),
                   [item](char* dst, char* src) { std::memcpy(dst, src, item); });
}

Array CpuBackend::flatnonzero(const Array& mask) {
  const Layout<1> layout(mask.shape(), {mask.strides().data()});
  int64_t count = 0;
  if (layout.size == 0) return Array::empty({0}, DType::int64, mask.device());
  layout.for_each_run({mask.data()}, 0, layout.size, [&](auto p, int64_t n) {
    for (int64_t i = 0; i < n; ++i) count += *(p[0] + i * layout.inner_stride(0)) != 0;
  });
  Array out = Array::empty({count}, DType::int64, mask.device());
  auto* o = reinterpret_cast<int64_t*>(out.data());
  int64_t flat = 0;
  layout.for_each_run({mask.data()}, 0, layout.size, [&](auto p, int64_t n) {
    for (int64_t i = 0; i < n; ++i, ++flat)
      if (*(p[0] + i * layout.inner_stride(0))) *o++ = flat;
  });
  return out;
}

}  // namespace gpupy::cpu
