// NumPy's order= ('C', 'F', 'A', 'K') for the arrays gpupy creates: a layout is an axis
// permutation of a C-ordered allocation, so every device makes F-ordered and "keep the input's
// order" arrays (copies and element-wise results) with its ordinary C-order kernels.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <optional>

#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "shape_util.h"

namespace gpupy {

namespace {

std::vector<int> inverse(const std::vector<int>& axes) {
  std::vector<int> inv(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) inv[static_cast<size_t>(axes[i])] = static_cast<int>(i);
  return inv;
}

bool is_identity(const std::vector<int>& axes) {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != static_cast<int>(i)) return false;
  return true;
}

// |stride| of `a` along axis d of a broadcast shape of nd axes; 0 where `a` is broadcast (the axis
// is missing or has length 1), which NumPy's iterator leaves out of its comparisons.
int64_t iteration_stride(const Array& a, int d, int nd) {
  const int ad = d - (nd - a.ndim());
  if (ad < 0 || a.shape()[static_cast<size_t>(ad)] == 1) return 0;
  return std::llabs(a.strides()[static_cast<size_t>(ad)]);
}

// Should axis `outer` move inside axis `inner`? Only when every operand that spans both has the
// larger stride on `inner`: on a conflict C order wins. Null when no operand spans both.
std::optional<bool> moves_inside(const std::vector<const Array*>& operands, int outer, int inner,
                                 int nd) {
  std::optional<bool> swap;
  for (const Array* a : operands) {
    const int64_t s_outer = iteration_stride(*a, outer, nd),
                  s_inner = iteration_stride(*a, inner, nd);
    if (s_outer == 0 || s_inner == 0) continue;
    swap = swap.value_or(true) && s_inner > s_outer;
  }
  return swap;
}

// NumPy's stable insertion sort of axes: each axis moves to the front of those that
// `goes_first(axis, other)` says it precedes, skipping those it cannot be compared with (nullopt).
template <class GoesFirst>
void insertion_sort(std::vector<int>& axes, GoesFirst goes_first) {
  for (size_t i0 = 1; i0 < axes.size(); ++i0) {
    size_t pos = i0;
    for (size_t i1 = i0; i1-- > 0;) {
      std::optional<bool> first = goes_first(axes[i0], axes[i1]);
      if (!first) continue;
      if (!*first) break;
      pos = i1;
    }
    std::rotate(axes.begin() + static_cast<std::ptrdiff_t>(pos),
                axes.begin() + static_cast<std::ptrdiff_t>(i0),
                axes.begin() + static_cast<std::ptrdiff_t>(i0) + 1);
  }
}

[[noreturn]] void bad_order(char order) {
  throw ValueError(std::string("order must be one of 'C', 'F', 'A', or 'K' (got '") + order + "')");
}

}  // namespace

std::vector<int> iteration_axes(const Shape& shape, const std::vector<const Array*>& operands,
                                char order) {
  const int nd = static_cast<int>(shape.size());
  std::vector<int> axes(static_cast<size_t>(nd));
  std::iota(axes.begin(), axes.end(), 0);
  if (order == 'A') {
    bool all_f = true;
    for (const Array* a : operands) all_f = all_f && a->is_f_contiguous();
    order = all_f ? 'F' : 'C';
  }
  if (order != 'C' && order != 'F' && order != 'K') bad_order(order);
  if (order == 'F') std::reverse(axes.begin(), axes.end());
  if (order != 'K' || nd < 2) return axes;
  // NumPy's iterator sorts from the innermost axis outwards: each axis moves inside the ones the
  // operands say are outer to it, and past those no operand spans.
  std::vector<int> inner(axes.rbegin(), axes.rend());
  insertion_sort(inner,
                 [&](int axis, int other) { return moves_inside(operands, axis, other, nd); });
  return std::vector<int>(inner.rbegin(), inner.rend());
}

std::vector<int> concatenate_axes(const std::vector<Array>& arrays) {
  const size_t nd = arrays.empty() ? 0 : static_cast<size_t>(arrays[0].ndim());
  std::vector<int> axes(nd);
  std::iota(axes.begin(), axes.end(), 0);
  // NumPy's PyArray_CreateMultiSortedStridePerm: a stable insertion sort, outermost first, that
  // moves an axis outwards past those every array (length-1 axes aside) gives smaller strides.
  insertion_sort(axes, [&](int x, int y) {
    std::optional<bool> outer;
    for (const Array& a : arrays) {
      const auto ux = static_cast<size_t>(x), uy = static_cast<size_t>(y);
      if (a.shape()[ux] == 1 || a.shape()[uy] == 1) continue;
      outer = outer.value_or(true) && std::llabs(a.strides()[ux]) > std::llabs(a.strides()[uy]);
    }
    return outer;
  });
  return axes;
}

std::optional<char> contiguous_order(const Shape& shape, const std::vector<const Array*>& inputs) {
  int order = 0;  // 1: C-contiguous, 2: F-contiguous, 3: both
  for (const Array* a : inputs) {
    if (a->ndim() == 0) continue;
    if (a->shape() != shape) return std::nullopt;
    if (a->ndim() == 1) continue;  // any stride: it does not fix the order
    const int flags = (a->is_c_contiguous() ? 1 : 0) | (a->is_f_contiguous() ? 2 : 0);
    if (flags == 0 || (order != 0 && (order & flags) == 0)) return std::nullopt;
    if (order == 0) order = flags;
  }
  return order == 2 ? 'F' : 'C';
}

Array empty_in_layout(const Shape& shape, DType dtype, Device device,
                      const std::vector<int>& axes) {
  Array a = Array::empty(shape, dtype, device);
  if (is_identity(axes)) return a;
  return a.view(shape, strides_in_order(shape, a.itemsize(), axes), a.offset());
}

std::vector<int> layout_axes(const Array& a, char order) {
  const int nd = a.ndim();
  std::vector<int> axes(static_cast<size_t>(nd));
  std::iota(axes.begin(), axes.end(), 0);
  if (order == 'A') order = a.is_f_contiguous() && !a.is_c_contiguous() ? 'F' : 'C';
  if (order == 'K') {
    // As NumPy: a contiguous input keeps its order; any other is sorted by decreasing stride
    // magnitude, ties in axis order (stable), so a transposed or permuted view keeps its layout.
    if (a.is_c_contiguous()) return axes;
    if (a.is_f_contiguous()) order = 'F';
  }
  if (order == 'F') {
    std::reverse(axes.begin(), axes.end());
  } else if (order == 'K') {
    const Strides& s = a.strides();
    std::stable_sort(axes.begin(), axes.end(), [&](int x, int y) {
      return std::llabs(s[static_cast<size_t>(x)]) > std::llabs(s[static_cast<size_t>(y)]);
    });
  } else if (order != 'C') {
    bad_order(order);
  }
  return axes;
}

Array astype(const Array& a, DType dtype, char order, bool copy_always) {
  const std::vector<int> axes = layout_axes(a, order);
  if (is_identity(axes)) {
    const bool keeps = order == 'K' || a.is_c_contiguous();
    return astype(a, dtype, copy_always || !keeps);
  }
  if (!copy_always && a.dtype() == dtype && (order == 'K' || a.is_f_contiguous())) return a;
  return permute_dims(astype(permute_dims(a, axes), dtype, true), inverse(axes));
}

}  // namespace gpupy
