// The combine operations of launch_reduce (sum, prod, min, max, any, all, argmin, argmax): an
// identity, how an element enters the accumulator, an associative and commutative combine, and
// the value written out. Device code (nvcc, or the host compiler under emulation).
#pragma once

#include <cstdint>
#include <limits>

#include "../../../functors/all.h"
#include "../../../functors/cast.h"
#include "portable.cuh"

namespace gpupy::GPUPY_KERNEL_NS {

template <class T>
struct SumOp {
  using Acc = T;
  using Out = T;
  GPUPY_HD static Acc identity() { return T{}; }
  GPUPY_HD static Acc load(T v, int64_t) { return v; }
  GPUPY_HD static Acc combine(Acc a, Acc b) { return fn::Add{}(a, b); }
  GPUPY_HD static Out result(Acc a) { return a; }
};

/// A sum of bool into int64: the number of true elements.
struct CountOp {
  using Acc = int64_t;
  using Out = int64_t;
  GPUPY_HD static Acc identity() { return 0; }
  GPUPY_HD static Acc load(bool v, int64_t) { return v ? 1 : 0; }
  GPUPY_HD static Acc combine(Acc a, Acc b) { return a + b; }
  GPUPY_HD static Out result(Acc a) { return a; }
};

template <class T>
struct ProdOp {
  using Acc = T;
  using Out = T;
  GPUPY_HD static Acc identity() { return cast_value<T>(1); }
  GPUPY_HD static Acc load(T v, int64_t) { return v; }
  GPUPY_HD static Acc combine(Acc a, Acc b) { return fn::Multiply{}(a, b); }
  GPUPY_HD static Out result(Acc a) { return a; }
};

/// The largest (kHigh) or lowest value of T in NumPy's order (complex: lexicographic).
template <class T, bool kHigh>
GPUPY_HD T extreme() {
  if constexpr (fn::Complex<T>) {
    using R = fn::real_t<T>;
    const R e = extreme<R, kHigh>();
    return T(e, e);
  } else if constexpr (fn::Floating<T>) {
    return kHigh ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  } else {
    return kHigh ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  }
}

/// NaN-propagating minimum (kMax false) or maximum, as NumPy's min/max.
template <class T, bool kMax>
struct ExtremumOp {
  using Acc = T;
  using Out = T;
  GPUPY_HD static Acc identity() { return extreme<T, !kMax>(); }
  GPUPY_HD static Acc load(T v, int64_t) { return v; }
  GPUPY_HD static Acc combine(Acc a, Acc b) {
    if constexpr (kMax)
      return fn::Maximum{}(a, b);
    else
      return fn::Minimum{}(a, b);
  }
  GPUPY_HD static Out result(Acc a) { return a; }
};

/// any (kAll false) or all, on values tested against zero.
template <class T, bool kAll>
struct LogicOp {
  using Acc = bool;
  using Out = bool;
  GPUPY_HD static Acc identity() { return kAll; }
  GPUPY_HD static Acc load(T v, int64_t) { return cast_value<bool>(v); }
  GPUPY_HD static Acc combine(Acc a, Acc b) { return kAll ? (a && b) : (a || b); }
  GPUPY_HD static Out result(Acc a) { return a; }
};

/// A candidate of argmin/argmax: a value and its index in the reduced range (-1: none yet).
template <class T>
struct ArgAcc {
  T value;
  int64_t index;
};

/// argmin (kMax false) or argmax: the first NaN wins, then the extreme value, then the lowest
/// index, which makes the combine order-independent.
template <class T, bool kMax>
struct ArgOp {
  using Acc = ArgAcc<T>;
  using Out = int64_t;
  GPUPY_HD static Acc identity() { return Acc{T{}, -1}; }
  GPUPY_HD static Acc load(T v, int64_t j) { return Acc{v, j}; }
  GPUPY_HD static Acc combine(Acc a, Acc b) {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    const bool a_nan = fn::has_nan(a.value), b_nan = fn::has_nan(b.value);
    if (a_nan != b_nan) return a_nan ? a : b;
    if (!a_nan) {
      if (kMax ? fn::lt(a.value, b.value) : fn::lt(b.value, a.value)) return b;
      if (kMax ? fn::lt(b.value, a.value) : fn::lt(a.value, b.value)) return a;
    }
    return a.index <= b.index ? a : b;
  }
  GPUPY_HD static Out result(Acc a) { return a.index; }
};

}  // namespace gpupy::GPUPY_KERNEL_NS
