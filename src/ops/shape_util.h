// Small shape helpers shared by the op front ends. Host only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpupy/array.h"
#include "gpupy/dtype.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {

/// `a` cast to the kernel dtype of an accumulation in `dt`: a float16 `dt` rounds the input to
/// float16 first, as NumPy's cast does (7e4 becomes inf), and gpupy then sums it in float32.
inline Array kernel_input(const Array& a, DType dt) {
  Array in = (dt == DType::float16 && a.dtype() != dt) ? astype(a, dt) : a;
  return in.dtype() == kernel_dtype(dt) ? in : astype(in, kernel_dtype(dt));
}

/// "(3, 4)" / "(3,)" / "()", NumPy's spelling of a shape.
inline std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

/// NumPy's accumulator dtype for sum, prod, cumsum and cumprod unless `requested`: bool and
/// small integers widen to 64 bits of their signedness; floats and complex keep their dtype.
inline DType accumulator_dtype(DType dt, std::optional<DType> requested) {
  if (requested) return *requested;
  switch (dtype_kind(dt)) {
    case DTypeKind::boolean:
    case DTypeKind::signed_int:
      return DType::int64;
    case DTypeKind::unsigned_int:
      return DType::uint64;
    default:
      return dt;
  }
}

/// `a` with axis i taken from a's axis axes[i]: permute_dims for a permutation known to be valid.
inline Array permuted_view(const Array& a, const std::vector<int>& axes) {
  Shape shape(axes.size());
  Strides strides(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    shape[i] = a.shape()[static_cast<size_t>(axes[i])];
    strides[i] = a.strides()[static_cast<size_t>(axes[i])];
  }
  return a.view(std::move(shape), std::move(strides), a.offset());
}

/// Dense strides for `shape` whose memory runs in the order of `axes` (outermost first): the C
/// strides of the permuted shape, put back. Zero-length axes count as 1, as in c_strides.
inline Strides strides_in_order(const Shape& shape, size_t itemsize, const std::vector<int>& axes) {
  Strides strides(shape.size());
  auto step = static_cast<int64_t>(itemsize);
  for (size_t i = axes.size(); i-- > 0;) {
    const auto d = static_cast<size_t>(axes[i]);
    strides[d] = step;
    step *= shape[d] > 1 ? shape[d] : 1;
  }
  return strides;
}

/// NumPy's shortcut for ufuncs whose array inputs all have the result's `shape` (0-d ones aside)
/// and are contiguous in one order: 'F' when the first of more than one dimension is F- and not
/// C-contiguous, else 'C'. Null when it does not apply (iteration_axes decides then).
std::optional<char> contiguous_order(const Shape& shape, const std::vector<const Array*>& inputs);

/// The layout NumPy's concatenate gives its result (axes outermost first): the arrays' axes
/// sorted by stride, length-1 axes left out, C order on a conflict.
std::vector<int> concatenate_axes(const std::vector<Array>& arrays);

/// Maps a possibly negative axis into [0, ndim); throws the NumPy AxisError (an IndexError).
inline int normalize_axis(int axis, int ndim, const char* op) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError(op_message(op, "axis " + std::to_string(axis) +
                                       " is out of bounds for array of dimension " +
                                       std::to_string(ndim)));
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace gpupy
