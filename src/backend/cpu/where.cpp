// The cpu loop of the selection pattern, out = cond ? x : y. Elements are moved as words of their
// size, so five loops serve the 13 dtypes. Host only.
#include <cstring>

#include "cpu_backend.h"
#include "parallel.h"
#include "strided.h"

namespace gpupy::cpu {
namespace {

/// 16-byte elements (complex128) need only 8-byte alignment.
struct Word16 {
  uint64_t lo, hi;
};

/// An operand's pointer and strides; a scalar lives in `storage` and is read with zero strides.
struct Source {
  const char* data;
  Strides strides;
};

Source source(const Operand& x, const Array& out, void* storage) {
  if (x.is_array()) return {x.array().data(), x.array().strides()};
  x.scalar().store(out.dtype(), storage);
  return {static_cast<const char*>(storage), Strides(out.ndim(), 0)};
}

template <class W>
void where_run(char* out, const char* cond, const char* x, const char* y, int64_t n,
               const int64_t (&s)[4]) {
  if (s[0] == sizeof(W) && s[1] == 1 && s[2] == sizeof(W) && s[3] == sizeof(W)) {
    W* __restrict o = reinterpret_cast<W*>(out);
    const bool* __restrict c = reinterpret_cast<const bool*>(cond);
    const W* __restrict a = reinterpret_cast<const W*>(x);
    const W* __restrict b = reinterpret_cast<const W*>(y);
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<W*>(out + i * s[0]) = *reinterpret_cast<const bool*>(cond + i * s[1])
                                                ? *reinterpret_cast<const W*>(x + i * s[2])
                                                : *reinterpret_cast<const W*>(y + i * s[3]);
}

template <class W>
void where_words(const Array& cond, const Source& x, const Source& y, const Array& out) {
  Layout<4> layout(out.shape(), {out.strides().data(), cond.strides().data(), x.strides.data(),
                                 y.strides.data()});
  const int64_t s[4] = {layout.inner_stride(0), layout.inner_stride(1), layout.inner_stride(2),
                        layout.inner_stride(3)};
  std::array<char*, 4> base{out.data(), cond.data(), const_cast<char*>(x.data),
                            const_cast<char*>(y.data)};
  parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
    layout.for_each_run(base, begin, end,
                        [&](auto p, int64_t n) { where_run<W>(p[0], p[1], p[2], p[3], n, s); });
  });
}

}  // namespace

void CpuBackend::where(const Array& cond, const Operand& x, const Operand& y, const Array& out) {
  if (out.size() == 0) return;
  alignas(16) unsigned char sx[16], sy[16];
  Source a = source(x, out, sx), b = source(y, out, sy);
  switch (out.itemsize()) {
    case 1:
      return where_words<uint8_t>(cond, a, b, out);
    case 2:
      return where_words<uint16_t>(cond, a, b, out);
    case 4:
      return where_words<uint32_t>(cond, a, b, out);
    case 8:
      return where_words<uint64_t>(cond, a, b, out);
    default:
      return where_words<Word16>(cond, a, b, out);
  }
}

}  // namespace gpupy::cpu
