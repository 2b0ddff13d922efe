// The cpu elementwise loop: one template for every functor, with contiguous fast paths that the
// compiler vectorises and a strided fallback. Host only.
#pragma once

#include <algorithm>
#include <type_traits>

#include "../../core/dispatch.h"
#include "../../functors/all.h"
#include "buffered_math.h"
#include "byte_loops.h"
#include "cpu_backend.h"
#include "fast_math.h"
#include "int_divide.h"
#include "parallel.h"
#include "strided.h"

namespace gpupy::cpu {

template <class F, class R, class T>
void unary_run(char* out, const char* in, int64_t n, int64_t so, int64_t si) {
  F f;
  if (so == sizeof(R) && si == sizeof(T)) {
    if constexpr (fast_op_v<F, T> != FastOp::none) {
      static_assert(std::is_same_v<R, T>);
      if (fast_unary(fast_op_v<F, T>, reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), n))
        return;
    }
    if constexpr (kByteLoop<R, T>) return byte_map<R, T>(out, in, n, f);
    R* __restrict o = reinterpret_cast<R*>(out);
    const T* __restrict a = reinterpret_cast<const T*>(in);
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
  } else if (si == 0) {  // a broadcast input: one value for the whole run
    const R v = f(*reinterpret_cast<const T*>(in));
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<R*>(out + i * so) = v;
  } else {
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<R*>(out + i * so) = f(*reinterpret_cast<const T*>(in + i * si));
  }
}

template <class F, class R, class T>
void binary_run(char* out, const char* in0, const char* in1, int64_t n, int64_t so, int64_t s0,
                int64_t s1) {
  F f;
  constexpr int64_t t = sizeof(T);
  if (so == sizeof(R)) {
    R* __restrict o = reinterpret_cast<R*>(out);
    const T* __restrict a = reinterpret_cast<const T*>(in0);
    const T* __restrict b = reinterpret_cast<const T*>(in1);
    if constexpr (fast_binary_op_v<F, T> != FastOp::none) {
      static_assert(std::is_same_v<R, T>);
      if (s0 % t == 0 && s1 % t == 0 &&
          fast_binary(fast_binary_op_v<F, T>, a, s0 / t, b, s1 / t, o, n))
        return;
    }
    if constexpr (kScalarDivisor<F, T>) {
      if (s0 == t && s1 == 0 && *b != 0 && n >= kScalarDivisorFrom)
        return divide_by_scalar<F, T>(o, a, n, *b);
    }
    if constexpr (kByteLoop<R, T>) {
      if (s0 == t && s1 == t) return byte_map<R, T>(out, in0, in1, n, f);
      if (s0 == t && s1 == 0)
        return byte_map<R, T>(out, in0, n, [f, v = *b](T x) { return f(x, v); });
      if (s0 == 0 && s1 == t)
        return byte_map<R, T>(out, in1, n, [f, v = *a](T y) { return f(v, y); });
    }
    if (s0 == t && s1 == t) {
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
      return;
    }
    if (s0 == t && s1 == 0) {
      const T bv = *b;
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv);
      return;
    }
    if (s0 == 0 && s1 == t) {
      const T av = *a;
      for (int64_t i = 0; i < n; ++i) o[i] = f(av, b[i]);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<R*>(out + i * so) =
        f(*reinterpret_cast<const T*>(in0 + i * s0), *reinterpret_cast<const T*>(in1 + i * s1));
}

/// Three inputs (clip): a fast loop for contiguous x with scalar or contiguous bounds.
template <class F, class R, class T>
void ternary_run(char* out, const char* in0, const char* in1, const char* in2, int64_t n,
                 int64_t so, int64_t s0, int64_t s1, int64_t s2) {
  F f;
  constexpr int64_t t = sizeof(T);
  if (so == sizeof(R) && s0 == t) {
    R* __restrict o = reinterpret_cast<R*>(out);
    const T* __restrict a = reinterpret_cast<const T*>(in0);
    const T* __restrict b = reinterpret_cast<const T*>(in1);
    const T* __restrict c = reinterpret_cast<const T*>(in2);
    if (s1 == 0 && s2 == 0) {
      const T bv = *b, cv = *c;
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv, cv);
      return;
    }
    if (s1 == t && s2 == t) {
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i], c[i]);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<R*>(out + i * so) =
        f(*reinterpret_cast<const T*>(in0 + i * s0), *reinterpret_cast<const T*>(in1 + i * s1),
          *reinterpret_cast<const T*>(in2 + i * s2));
}

/// Pointer and strides of one input: an array, or a scalar held in `storage` with zero strides.
struct InputView {
  char* data;
  Strides strides;
};

inline InputView input_view(const Operand& x, int ndim, void* storage, DType dt) {
  if (x.is_array()) return {x.array().data(), x.array().strides()};
  x.scalar().store(dt, storage);
  return {static_cast<char*>(storage), Strides(ndim, 0)};
}

template <class Op, int Arity>
void run_elementwise(const ElementwiseCall& call) {
  dispatch_dtype(call.in_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using F = fn::loop_functor_t<Op, T>;
    if constexpr (Arity == 1 && std::is_invocable_v<F, T>) {
      using R = std::invoke_result_t<F, T>;
      alignas(16) unsigned char scalar[16];
      const Array& out = call.out;
      InputView a = input_view(*call.inputs[0], out.ndim(), scalar, call.in_dtype);
      Layout<2> layout(out.shape(), {out.strides().data(), a.strides.data()});
      if constexpr (BufferedMath<F, T>::op != FastOp::none) {
        if (use_buffered_math<R, T>(layout) && use_math_tiles(layout))
          return parallel_for(layout.shape[0],
                              std::max<int64_t>(1, kParallelGrain / layout.shape[1]),
                              [&](int64_t r0, int64_t r1) {
                                buffered_unary_tiles<F, R, T>(layout, out.data(), a.data, r0, r1);
                              });
        if (use_buffered_math<R, T>(layout))
          return parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
            buffered_unary<F, R, T>(layout, out.data(), a.data, begin, end);
          });
      }
      parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
        layout.for_each_run({out.data(), a.data}, begin, end, [&](auto p, int64_t n) {
          unary_run<F, R, T>(p[0], p[1], n, layout.inner_stride(0), layout.inner_stride(1));
        });
      });
    } else if constexpr (Arity == 2 && std::is_invocable_v<F, T, T>) {
      using R = std::invoke_result_t<F, T, T>;
      alignas(16) unsigned char scalar0[16], scalar1[16];
      const Array& out = call.out;
      InputView a = input_view(*call.inputs[0], out.ndim(), scalar0, call.in_dtype);
      InputView b = input_view(*call.inputs[1], out.ndim(), scalar1, call.in_dtype);
      Layout<3> layout(out.shape(), {out.strides().data(), a.strides.data(), b.strides.data()});
      if constexpr (BufferedMath<F, T, 2>::op != FastOp::none) {
        if (use_buffered_binary<T>(layout))
          return parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
            buffered_binary<F, R, T>(layout, {out.data(), a.data, b.data}, begin, end);
          });
      }
      parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
        layout.for_each_run({out.data(), a.data, b.data}, begin, end, [&](auto p, int64_t n) {
          binary_run<F, R, T>(p[0], p[1], p[2], n, layout.inner_stride(0), layout.inner_stride(1),
                              layout.inner_stride(2));
        });
      });
    } else if constexpr (Arity == 3 && std::is_invocable_v<F, T, T, T>) {
      using R = std::invoke_result_t<F, T, T, T>;
      alignas(16) unsigned char scalar0[16], scalar1[16], scalar2[16];
      const Array& out = call.out;
      InputView a = input_view(*call.inputs[0], out.ndim(), scalar0, call.in_dtype);
      InputView b = input_view(*call.inputs[1], out.ndim(), scalar1, call.in_dtype);
      InputView c = input_view(*call.inputs[2], out.ndim(), scalar2, call.in_dtype);
      Layout<4> layout(out.shape(), {out.strides().data(), a.strides.data(), b.strides.data(),
                                     c.strides.data()});
      parallel_for(layout.size, kParallelGrain, [&](int64_t begin, int64_t end) {
        layout.for_each_run({out.data(), a.data, b.data, c.data}, begin, end,
                            [&](auto p, int64_t n) {
                              ternary_run<F, R, T>(p[0], p[1], p[2], p[3], n,
                                                   layout.inner_stride(0), layout.inner_stride(1),
                                                   layout.inner_stride(2), layout.inner_stride(3));
                            });
      });
    } else {
      throw TypeError(op_message(
          op_name(call.op), "no cpu loop for dtype " + std::string(dtype_name(call.in_dtype))));
    }
  });
}

/// The table's ops are split over kElementwiseParts translation units to keep builds parallel;
/// part k instantiates the rows whose index is k modulo kElementwiseParts.
inline constexpr int kElementwiseParts = 4;
void elementwise_part0(const ElementwiseCall& call);
void elementwise_part1(const ElementwiseCall& call);
void elementwise_part2(const ElementwiseCall& call);
void elementwise_part3(const ElementwiseCall& call);

}  // namespace gpupy::cpu
