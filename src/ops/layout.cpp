// NumPy's order= ('C', 'F', 'A', 'K') for the arrays gpupy creates: a layout is an axis
// permutation of a C-ordered allocation, so every device makes F-ordered and "keep the input's
// order" arrays with its ordinary C-order copy kernel.
#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "gpupy/error.h"
#include "gpupy/ops.h"

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

}  // namespace

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
    throw ValueError(std::string("order must be one of 'C', 'F', 'A', or 'K' (got '") + order +
                     "')");
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
