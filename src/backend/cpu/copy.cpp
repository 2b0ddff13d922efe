// Strided copy with dtype conversion, fill and iota on the cpu. Host only.
#include <cstring>

#include "../../core/dispatch.h"
#include "../../functors/cast.h"
#include "byte_loops.h"
#include "cpu_backend.h"
#include "parallel.h"
#include "strided.h"

namespace gpupy::cpu {

void copy_kernel(const Array& src, const Array& dst) {
  Layout<2> layout(dst.shape(), {dst.strides().data(), src.strides().data()});
  dispatch_dtype(dst.dtype(), [&](auto out_tag) {
    using R = typename decltype(out_tag)::type;
    dispatch_dtype(src.dtype(), [&](auto in_tag) {
      using T = typename decltype(in_tag)::type;
      parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
        layout.for_each_run({dst.data(), src.data()}, begin, end, [&](auto p, int64_t n) {
          int64_t so = layout.inner_stride(0), si = layout.inner_stride(1);
          if constexpr (std::is_same_v<R, T>) {
            if (so == sizeof(R) && si == sizeof(T)) {
              std::memcpy(p[0], p[1], n * sizeof(T));
              return;
            }
          }
          if constexpr (kByteLoop<R, T>) {
            if (so == sizeof(R) && si == sizeof(T))
              return byte_map<R, T>(p[0], p[1], n, [](T x) { return cast_value<R>(x); });
          }
          if (so == sizeof(R) && si == sizeof(T)) {
            R* o = reinterpret_cast<R*>(p[0]);
            const T* a = reinterpret_cast<const T*>(p[1]);
            for (int64_t i = 0; i < n; ++i) o[i] = cast_value<R>(a[i]);
          } else {
            for (int64_t i = 0; i < n; ++i)
              *reinterpret_cast<R*>(p[0] + i * so) =
                  cast_value<R>(*reinterpret_cast<const T*>(p[1] + i * si));
          }
        });
      });
    });
  });
}

void fill_kernel(const Array& dst, const Scalar& value) {
  Layout<1> layout(dst.shape(), {dst.strides().data()});
  dispatch_dtype(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    value.store(dst.dtype(), &v);
    parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
      layout.for_each_run({dst.data()}, begin, end, [&](auto p, int64_t n) {
        int64_t s = layout.inner_stride(0);
        if (s == sizeof(T)) {
          T* o = reinterpret_cast<T*>(p[0]);
          for (int64_t i = 0; i < n; ++i) o[i] = v;
        } else {
          for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s) = v;
        }
      });
    });
  });
}

void iota_kernel(const Array& dst, const Scalar& start, const Scalar& step) {
  dispatch_dtype(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T first, delta;
    start.store(dst.dtype(), &first);
    step.store(dst.dtype(), &delta);
    int64_t stride = dst.ndim() ? dst.strides()[0] : 0;
    char* base = dst.data();
    parallel_for(dst.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        *reinterpret_cast<T*>(base + i * stride) = range_value(first, delta, i);
      }
    });
  });
}

}  // namespace gpupy::cpu
